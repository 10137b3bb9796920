/**
 * `ratchet hook <event>` through the full program: the event's handler loaded on demand from the
 * same module its start-up bundle is built from (src/hook/fast/), so both paths answer alike.
 */
import type { Io } from '../context.js';
import { fastKey, type Harness } from './events.js';
import type { HookEvent } from './payload.js';
import { runHookWith, type HookHandler } from './run.js';

/**
 * The event's handler: the same module its start-up file is built from, src/hook/fast/<fast key>.ts
 * (events.ts). The bundler includes every file of that folder behind this one import.
 */
async function handlerFor(event: HookEvent): Promise<HookHandler> {
  return ((await import(`./fast/${fastKey(event)}.ts`)) as { handle: HookHandler }).handle;
}

export async function runHook(event: HookEvent, io: Io, explicitCwd?: string, harness: Harness = 'claude'): Promise<number> {
  return runHookWith(event, io, await handlerFor(event), explicitCwd, harness);
}
