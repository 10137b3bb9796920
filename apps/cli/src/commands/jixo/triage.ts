import type { Context } from '../../context.js';
import { triageJob, triageJobResult } from '../../operations/jixo.js';
import type { JixoTriageInput } from '../../operations/jixo-input.js';
import { withInput } from '../../option-values.js';
import { triageInput } from './inputs.js';

/** `ratchet jixo triage <job> --runner ID --active A,B`: Protocol 0, stale locks released under the lock. */
async function triageCommand(ctx: Context, input: JixoTriageInput): Promise<number> {
  const triaged = await triageJob(ctx, input);
  const result = triageJobResult(triaged);
  const { decision, logPath, runner } = triaged;
  if (ctx.json) ctx.emitJson(result.document);
  else {
    if (decision.staleLocks.length > 0) ctx.out(`released stale locks: ${decision.staleLocks.join(', ')}`);
    if (decision.kind === 'role') ctx.out(`role: ${decision.role}${decision.taskId ? ` (task ${decision.taskId})` : ''}\nobjective: ${decision.objective}`);
    else ctx.out(`exit ${decision.code}: ${decision.reason}\nrecord it: ratchet jixo exit ${logPath} --runner ${runner} --code ${decision.code} --reason "${decision.reason}"`);
  }
  return result.exitCode;
}
export default withInput(triageInput, triageCommand);
