/** `ratchet hook user-prompt-submit`: its own start-up bundle (see src/hook-main.ts). */
import { hookMain } from '../../hook-main.js';
import { userPromptSubmit } from '../context-events.js';
import { isStopContinuation } from '../continuation.js';
import type { HookHandler } from '../run.js';

// A stop hook's reason sent back as a prompt (Copilot CLI) is the session continuing, not a new prompt.
export const handle: HookHandler = (ctx, root, payload) => (isStopContinuation(root, payload) ? Promise.resolve({ kind: 'none' }) : userPromptSubmit(ctx, payload));
export const main = (harness?: string): Promise<number | undefined> => hookMain('user-prompt-submit', handle, harness);
