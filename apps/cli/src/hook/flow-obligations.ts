/** Open flow sessions (neither COMPLETED nor HALTED) among `ids`, each with its exact next command. */
import { FlowError, flowStatus } from '@ratchet/flows';
import type { Context } from '../context.js';
import { runnerOptions } from '../commands/flow/project.js';
import type { Obligation } from './obligations.js';

export async function flowObligations(ctx: Context, ids: readonly string[]): Promise<Obligation[]> {
  const options = await runnerOptions(ctx);
  const out: Obligation[] = [];
  for (const id of ids) {
    let view;
    try {
      view = await flowStatus(options, id);
    } catch (err) {
      // A session that was never created (or removed by `ratchet`) is nothing to finish.
      if (err instanceof FlowError && err.code === 'unknown-session') continue;
      throw err;
    }
    const status = view.session.status;
    if (status === 'COMPLETED' || status === 'HALTED') continue;
    const step = view.step === null ? '' : ` at step ${view.step.id} (${view.step.title})`;
    out.push({ kind: 'flow', what: `flow ${view.flow.id} session ${id} is ${status}${step}`, command: view.directive.command });
  }
  return out;
}
