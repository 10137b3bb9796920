/** `ratchet hook pre-tool-use`: its own start-up bundle (see src/hook-main.ts). */
import { hookMain } from '../../hook-main.js';
import { activeWork } from '../active-work.js';
import { preToolUse } from '../pre-tool-use.js';
import type { HookHandler } from '../run.js';

export const handle: HookHandler = (ctx, root, payload) => Promise.resolve(preToolUse(root, payload, () => activeWork(root, payload.sessionId, ctx.io.env)));
export const main = (harness?: string): Promise<number | undefined> => hookMain('pre-tool-use', handle, harness);
