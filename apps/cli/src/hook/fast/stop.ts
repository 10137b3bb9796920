/** `ratchet hook stop`: its own start-up bundle (see src/hook-main.ts). */
import { hookMain } from '../../hook-main.js';
import type { HookHandler } from '../run.js';
import { stop } from '../stop.js';

export const handle: HookHandler = (ctx, _root, payload) => stop(ctx, payload);
export const main = (harness?: string): Promise<number | undefined> => hookMain('stop', handle, harness);
