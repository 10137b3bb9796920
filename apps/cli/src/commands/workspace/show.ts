import { readFile } from 'node:fs/promises';
import { formatSeq } from '@ratchet/campaign-dag';
import type { Context } from '../../context.js';
import { EXIT_OK } from '../../exit-codes.js';
import { readWorkspace, showWorkspaceResult } from '../../operations/workspace.js';
import { stringOption } from '../../option-values.js';
import { displayPath } from '../../paths.js';

/** `ratchet workspace show SEQ [--xml]` */
export default async function show(ctx: Context, args: string[], options: Record<string, unknown>): Promise<number> {
  const found = await readWorkspace(ctx, { seq: args[0] ?? '', workspaceDir: stringOption(options, 'workspaceDir') });
  const { path, record } = found;
  const shown = displayPath(ctx, path);
  if (ctx.json) {
    const result = showWorkspaceResult(ctx, found);
    ctx.emitJson(result.document);
    return result.exitCode;
  }
  if (options.xml === true) {
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
