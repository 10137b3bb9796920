/**
 * Open flow sessions among `ids`, each with its exact next command: every status but the finished
 * ones (COMPLETED, FULLY_COMPLETE) and HALTED (the user's turn). A skill whose learnings are pending
 * is still open: the agent owes them. A finished reasoning session still owes the flow it routed to
 * until that is started or the user declines it (reasoning-gate.ts).
 */
import { FlowError, flowStatus, isFinished, type FlowView, type RunnerOptions } from '@ratchet/flows';
import { NotFoundError, StoreError } from '@ratchet/store';
import type { Context } from '../context.js';
import { runnerOptions } from '../commands/flow/project.js';
import { loadHookConfig } from './config.js';
import { corruptObligation, type Obligation } from './obligations.js';
import { reasoningFlowIds, routedObligation } from './reasoning-gate.js';

/** A flow session's current view; undefined when it was never created (or was removed by `ratchet`). */
export async function flowView(options: RunnerOptions, id: string): Promise<FlowView | undefined> {
  try {
    return await flowStatus(options, id);
  } catch (err) {
    if (err instanceof FlowError && err.code === 'unknown-session') return undefined;
    throw err;
  }
}

export async function flowObligations(ctx: Context, ids: readonly string[]): Promise<Obligation[]> {
  const options = await runnerOptions(ctx);
  const reasoning = reasoningFlowIds(loadHookConfig(ctx.cwd));
  const out: Obligation[] = [];
  // A reasoning session's route, once started, is held like the sessions this session started itself.
  const queue = [...ids];
  for (let i = 0; i < queue.length; i++) {
    const id = queue[i]!;
    let view: FlowView | undefined;
    try {
      view = await flowView(options, id);
    } catch (err) {
      // Caught here, not by the caller: the hook bundles load this module from the main bundle,
      // whose StoreError is a different class from theirs.
      if (err instanceof NotFoundError) continue;
      if (err instanceof StoreError) {
        out.push(corruptObligation(ctx.cwd, err));
        continue;
      }
      throw err;
    }
    if (view === undefined) continue;
    const status = view.session.status;
    if (isFinished(status)) {
      const routed = routedObligation(ctx.cwd, view.session, view.directive.command, reasoning);
      if (routed.obligation !== undefined) out.push(routed.obligation);
      if (routed.follow !== undefined && !queue.includes(routed.follow)) queue.push(routed.follow);
      continue;
    }
    if (status === 'HALTED') continue;
    const step = view.step === null ? '' : ` at step ${view.step.id} (${view.step.title})`;
    out.push({ kind: 'flow', what: `flow ${view.flow.id} session ${id} is ${status}${step}`, command: view.directive.command });
  }
  return out;
}
