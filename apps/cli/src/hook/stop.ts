/**
 * Stop / SubagentStop: the agent may not stop while this session has open obligations (a task
 * started and not submitted, a flow neither complete nor halted, a claimed campaign task, a JIXO
 * lock). The reason names each one's exact next command. Two guards keep it from looping: an
 * unchanged set of obligations is not blocked twice in a row when Claude Code says a Stop hook
 * already made it continue (`stop_hook_active`), and at most `maxStopBlocks` blocks per session.
 * A Stop replayed by hand (stop-origin.ts) gets the same answer but never spends that budget.
 */
import type { Context } from '../context.js';
import type { HookAnswer } from './answer.js';
import { ConfigError, loadHookConfig } from './config.js';
import { openHookMemory } from './memory.js';
import { describeObligations, openObligations } from './obligations.js';
import type { HookPayload } from './payload.js';
import { sessionRunners } from './runner.js';
import { replayedStop } from './stop-origin.js';

export async function stop(ctx: Context, payload: HookPayload): Promise<HookAnswer> {
  let maxBlocks: number;
  try {
    maxBlocks = loadHookConfig(ctx.cwd).maxStopBlocks;
  } catch (err) {
    if (err instanceof ConfigError) return { kind: 'block', reason: `Ratchet: ${err.message}. Ask the user to repair the project config before stopping.` };
    throw err;
  }
  const sessionId = payload.sessionId ?? 'unknown';
  const memoryFile = openHookMemory(ctx.cwd, sessionId);
  const memory = memoryFile.readSync();
  const obligations = await openObligations(ctx, memory, sessionRunners(ctx.io.env, payload.sessionId, memory));
  const summary = describeObligations(obligations);
  if (obligations.length > 0 && payload.stopHookActive && memory.lastBlock === summary) {
    // Nothing moved since the last block: blocking again would only loop. (A replay that claims
    // stop_hook_active gains nothing: only the harness's own Stop decides whether the agent stops.)
    return { kind: 'none' };
  }
  // A Stop replayed by hand from the agent's shell is answered, never counted: the budget is the harness's.
  // With nothing open the answer is the same either way: read the transcript once, without waiting.
  if (await replayedStop(payload, ctx.io.env, obligations.length === 0 ? 0 : undefined)) {
    if (obligations.length === 0) return { kind: 'none' };
    // Not counted, but remembered as the last block: the transcript sign can still fire on a real Stop
    // whose answer Claude Code writes later than stop-origin's settle wait, and its retry (stop_hook_active) must then be
    // let go like any other. A replay gains nothing by it: the harness alone sets stop_hook_active.
    try {
      if (memory.lastBlock !== summary) await memoryFile.update((m) => ({ ...m, sessionId, lastBlock: summary }));
    } catch {
      // Read-only here (the agent's sandbox): the answer stands without the record.
    }
    return { kind: 'block', reason: `Ratchet: you cannot stop yet; this session still has open obligations:\n${summary}\nRun the next command for each (or block the work with a reason), then finish.` };
  }
  if (obligations.length === 0) {
    if (memory.lastBlock !== null) await memoryFile.update((m) => ({ ...m, sessionId, lastBlock: null }));
    return { kind: 'none' };
  }
  if (memory.stopBlocks >= maxBlocks) {
    ctx.io.stderr(`ratchet hook: letting the agent stop after ${memory.stopBlocks} blocks (hooks.maxStopBlocks); still open:\n${summary}\n`);
    return { kind: 'none' };
  }
  await memoryFile.update((m) => ({ ...m, sessionId, stopBlocks: m.stopBlocks + 1, lastBlock: summary }));
  return {
    kind: 'block',
    reason: `Ratchet: you cannot stop yet; this session still has open obligations:\n${summary}\nRun the next command for each (or block the work with a reason), then finish.`,
  };
}
