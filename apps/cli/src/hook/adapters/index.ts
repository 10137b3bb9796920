/** Every harness's adapter, by `--harness` name. */
import type { Harness } from '../events.js';
import { claude } from './claude.js';
import { codex } from './codex.js';
import { copilot } from './copilot.js';
import { gemini } from './gemini.js';
import { opencode } from './opencode.js';
import type { HarnessAdapter } from './types.js';

export type { HarnessAdapter, HookReply } from './types.js';

const ADAPTERS: Record<Harness, HarnessAdapter> = { claude, codex, gemini, copilot, opencode };

export function adapterFor(harness: Harness): HarnessAdapter {
  return ADAPTERS[harness];
}
