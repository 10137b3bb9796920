import type { Context } from '../../context.js';
import { memoryObserveResult, observeCampaign, type MemoryObserveInput } from '../../operations/memory-observe.js';
import { withInput } from '../../option-values.js';
import { truncate } from './shared.js';
import { observeInput } from './inputs.js';

/**
 * `ratchet memory observe [campaign] [--verify]`: learn from a campaign's finished workspaces
 * (src/operations/memory-observe.ts does it; this prints what was learned).
 */
async function memoryObserve(ctx: Context, input: MemoryObserveInput): Promise<number> {
  const o = await observeCampaign(ctx, input);
  const result = memoryObserveResult(o);
  if (ctx.json) {
    ctx.emitJson(result.document);
    return result.exitCode;
  }
  const { observation, applied, phase, campaign: campaignId } = o;
  ctx.out(`observed ${o.observed} finished workspace(s) of ${campaignId} into ${o.file.shown}`);
  for (const s of o.skipped) ctx.out(`  skipped ${s.path}: ${s.reason}`);
  const verdicts = new Map<string, string>(observation.failures.map((f) => [f.workspace, f.fixedBy === undefined ? f.verdict : `${f.verdict}: fixed by ${f.fixedBy}`]));
  for (const f of observation.failures) if (!f.learn) ctx.out(`  failure   ${f.workspace}: not learned (${f.verdict}: the verify command passes now)`);
  for (const r of applied.failures) ctx.out(`  failure   ${r.workspace}: ${r.status}${r.name ? ` ${r.name}` : ''} (${verdicts.get(r.workspace) ?? ''})${r.status === 'refused' ? `: ${r.refusals.map((x) => x.reason).join('; ')}` : ''}`);
  for (const p of observation.patterns) if (!p.learn) ctx.out(`  pattern   ${p.workspace}: not learned (score ${p.score}; ${truncate(p.rejected ?? '', 80)})`);
  for (const r of applied.patterns) ctx.out(`  pattern   ${r.workspace}: ${r.status}${r.name ? ` ${r.name}` : ''}${r.status === 'refused' ? `: ${r.refusals.map((x) => x.reason).join('; ')}` : ''}`);
  for (const l of applied.links) ctx.out(`  link      ${l.from} ${l.type} ${l.to}`);
  if (phase !== undefined) ctx.out(`  campaign  ${campaignId}: phase ${phase}${phase === 'OBSERVE' ? ' (`ratchet campaign complete` may archive it)' : ''}`);
  for (const fb of applied.feedback) ctx.out(`  feedback  ${fb.name} ${fb.outcome}${fb.applied ? '' : ` (not applied: ${fb.reason ?? ''})`}`);
  return result.exitCode;
}
export default withInput(observeInput, memoryObserve);
