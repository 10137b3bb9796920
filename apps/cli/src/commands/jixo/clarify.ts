import { addClarification, readJobFile, removeClarification, updateJobFile } from '@ratchet/jixo-log';
import type { Context } from '../../context.js';
import { EXIT_OK } from '../../exit-codes.js';
import { at, guard } from './shared.js';

/** `ratchet jixo clarify add|list|remove <job>`. */
export default async function clarify(ctx: Context, args: string[], options: Record<string, unknown>): Promise<number> {
  const [verb, file, id] = args as [string, string, string | undefined];
  const path = at(ctx, file);
  if (verb === 'list') {
    const { job } = await guard(path, () => readJobFile(path));
    if (ctx.json) ctx.emitJson({ ok: true, file, clarifications: job.clarifications });
    else if (job.clarifications.length === 0) ctx.out('no clarification requests');
    else for (const c of job.clarifications) ctx.out(`${c.id}  ${c.answered ? 'answered' : 'waiting '}  ${c.question.split('\n')[0]}${c.answered ? `\n    -> ${c.response.split('\n')[0]}` : ''}`);
    return EXIT_OK;
  }
  const job = await guard(path, () => updateJobFile(path, (j) => (verb === 'add' ? addClarification(j, { id: String(options.id), question: String(options.question) }) : removeClarification(j, id!))));
  if (ctx.json) ctx.emitJson({ ok: true, file, action: verb, clarifications: job.clarifications });
  else ctx.out(verb === 'add' ? `added clarification ${String(options.id)} to ${file}` : `removed clarification ${id!} from ${file}`);
  return EXIT_OK;
}
