import { readFile } from 'node:fs/promises';
import { formatSeq } from '@ratchet/campaign-dag';
import type { Context } from '../../context.js';
import { EXIT_OK } from '../../exit-codes.js';
import { readWorkspace, showWorkspaceResult } from '../../operations/workspace.js';
import { withInput } from '../../option-values.js';
import { displayPath } from '../../paths.js';
import { showInput, type ShowInput } from './inputs.js';

/** `ratchet workspace show SEQ [--xml]` */
async function show(ctx: Context, input: ShowInput): Promise<number> {
  const found = await readWorkspace(ctx, input);
  const { path, record } = found;
  const shown = displayPath(ctx, path);
  if (ctx.json) {
    const result = showWorkspaceResult(ctx, found);
    ctx.emitJson(result.document);
    return result.exitCode;
  }
  if (input.xml) {
    ctx.out((await readFile(path, 'utf8')).trimEnd());
    return EXIT_OK;
  }
  ctx.out(`${shown} (${record.status}${record.attempt === undefined ? '' : `, attempt ${record.attempt}`})`);
  ctx.out(`objective: ${record.objective}`);
  ctx.out(`delta:     ${record.delta.join(', ')}`);
  ctx.out(`verify:    ${record.verify}${record.budget === undefined ? '' : `  (budget ${record.budget})`}`);
  for (const l of record.lineage) ctx.out(`parent ${formatSeq(l.seq)} (${l.workspace || 'no workspace'}): ${l.priorDelivery.split('\n')[0] ?? ''}`);
  for (const f of record.priorKnowledge.failures) ctx.out(`${f.injected ? 'failure' : f.name.startsWith('attempt-') ? 'earlier attempt' : 'sibling failure'} ${f.name} (cost ${f.cost}): ${f.trigger}`);
  for (const p of record.priorKnowledge.patterns) ctx.out(`pattern ${p.name} (saved ${p.saved}): ${p.insight}`);
  if (record.delivered !== '') ctx.out(`delivered: ${record.delivered}`);
  for (const u of record.utilization) ctx.out(`utilized ${u.type} ${u.name}`);
  return EXIT_OK;
}
export default withInput(showInput, show);
