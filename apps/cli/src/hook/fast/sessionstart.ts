/** `ratchet hook session-start`: its own start-up bundle (see src/hook-main.ts). */
import { hookMain } from '../../hook-main.js';
import { sessionStart } from '../context-events.js';
import type { HookHandler } from '../run.js';

export const handle: HookHandler = (ctx, _root, payload) => sessionStart(ctx, payload);
export const main = (harness?: string): Promise<number | undefined> => hookMain('session-start', handle, harness);
