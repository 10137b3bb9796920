/** `ratchet hook user-prompt-submit`: its own start-up bundle (see src/hook-main.ts). */
import { hookMain } from '../../hook-main.js';
import { userPromptSubmit } from '../context-events.js';
import type { HookHandler } from '../run.js';

export const handle: HookHandler = (ctx, _root, payload) => userPromptSubmit(ctx, payload);
export const main = (harness?: string): Promise<number | undefined> => hookMain('user-prompt-submit', handle, harness);
