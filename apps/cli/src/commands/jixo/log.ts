import { formatProgress } from '@ratchet/jixo-log';
import type { Context } from '../../context.js';
import { changeJixoLog, changeJixoLogResult } from '../../operations/jixo-worklog.js';
import type { JixoLogChangeInput } from '../../operations/jixo-input.js';
import { withInput } from '../../option-values.js';
import { logInput } from './inputs.js';

/** `ratchet jixo log add | title | progress | exit` (src/operations/jixo-worklog.ts). */
async function logCommand(ctx: Context, input: JixoLogChangeInput): Promise<number> {
  const changed = await changeJixoLog(ctx, input);
  const result = changeJixoLogResult(changed);
  if (ctx.json) ctx.emitJson(result.document);
  else if (input.verb === 'progress') ctx.out(formatProgress(changed.progress));
  else if (input.verb === 'exit') ctx.out(`recorded exit ${input.code}: ${input.reason}`);
  else if (input.verb === 'title') ctx.out(`title: ${changed.title}`);
  else ctx.out(`added Log ${changed.entry!.number}`);
  return result.exitCode;
}
export default withInput(logInput, logCommand);
