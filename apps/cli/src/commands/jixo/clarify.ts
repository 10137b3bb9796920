import type { Context } from '../../context.js';
import { clarifyJob, clarifyJobResult } from '../../operations/jixo.js';
import type { JixoClarifyInput } from '../../operations/jixo-input.js';
import { withInput } from '../../option-values.js';
import { clarifyInput } from './inputs.js';

/** `ratchet jixo clarify add|list|remove <job>`. */
async function clarify(ctx: Context, input: JixoClarifyInput): Promise<number> {
  const clarified = await clarifyJob(ctx, input);
  const result = clarifyJobResult(clarified);
  if (ctx.json) ctx.emitJson(result.document);
  else if (input.verb === 'list') {
    if (clarified.clarifications.length === 0) ctx.out('no clarification requests');
    else for (const c of clarified.clarifications) ctx.out(`${c.id}  ${c.answered ? 'answered' : 'waiting '}  ${c.question.split('\n')[0]}${c.answered ? `\n    -> ${c.response.split('\n')[0]}` : ''}`);
  } else ctx.out(input.verb === 'add' ? `added clarification ${input.id} to ${input.job}` : `removed clarification ${input.id} from ${input.job}`);
  return result.exitCode;
}
export default withInput(clarifyInput, clarify);
