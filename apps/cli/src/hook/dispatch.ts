/**
 * `ratchet hook <event>` through the full program: the event's handler loaded on demand from the
 * same module its start-up bundle is built from (src/hook/fast/), so both paths answer alike.
 */
import type { Io } from '../context.js';
import type { Harness } from './events.js';
import type { HookEvent } from './payload.js';
import { runHookWith, type HookHandler } from './run.js';

async function handlerFor(event: HookEvent): Promise<HookHandler> {
  switch (event) {
    case 'pre-tool-use':
      return (await import('./fast/pretooluse.js')).handle;
    case 'post-tool-use':
      return (await import('./fast/posttooluse.js')).handle;
    case 'stop':
    case 'subagent-stop':
      return (await import('./fast/stop.js')).handle;
    case 'session-start':
      return (await import('./fast/sessionstart.js')).handle;
    case 'user-prompt-submit':
      return (await import('./fast/userpromptsubmit.js')).handle;
  }
}

export async function runHook(event: HookEvent, io: Io, explicitCwd?: string, harness: Harness = 'claude'): Promise<number> {
  return runHookWith(event, io, await handlerFor(event), explicitCwd, harness);
}
