import { CampaignError, readArchive, readCampaign, readCampaignWorkspaces, recordObservation } from '@ratchet/campaign-dag';
import { applyObservation, observe, runVerifyCommand, type ObservationApplied } from '@ratchet/memory';
import type { Context } from '../../context.js';
import { EXIT_OK } from '../../exit-codes.js';
import { toObserved } from '../../memory-campaign.js';
import { campaignOptionsWithBackend, guard } from '../campaign/shared.js';
import { memoryFile, projectMemory, now, numberOption, truncate, withMemoryErrors } from './shared.js';

/**
 * `ratchet memory observe [campaign] [--verify]`: learn from a campaign's finished workspaces (the
 * active campaign's, or an archived one's by id). Blocked workspaces become failures (with --verify
 * their verify command is re-run first: one that now passes is a false positive and is not
 * learned); completed ones become patterns only when they score enough; <memory_utilization>
 * becomes helped/failed feedback. Verification runs outside the memory lock.
 */
/** Record the observation on the active campaign; its phase after, or undefined when there is no active campaign or nothing was built yet. */
async function recordPhase(ctx: Context, options: Record<string, unknown>): Promise<string | undefined> {
  try {
    return (await recordObservation(ctx.cwd, (await campaignOptionsWithBackend(ctx, options)))).phase;
  } catch (err) {
    if (err instanceof CampaignError && (err.code === 'no-campaign' || err.code === 'illegal-transition')) return undefined;
    throw err;
  }
}

/**
 * The observed campaign's objective (the active one's, or an archived one's by id): FTL writes it into
 * every workspace, so the observer must not take it for a task's own objective. Undefined when the
 * campaign cannot be read (the observer then spots an objective shared by several tasks itself).
 */
async function objectiveOf(ctx: Context, id: string | undefined, options: Record<string, unknown>): Promise<string | undefined> {
  const opts = await campaignOptionsWithBackend(ctx, options);
  const active = await readCampaign(ctx.cwd, opts).catch(() => undefined);
  if (id === undefined || active?.id === id) return active?.objective;
  const { entries } = await readArchive(ctx.cwd, opts).catch(() => ({ entries: [] }));
  return entries.find((e) => e.campaign.id === id)?.campaign.objective;
}

export default async function memoryObserve(ctx: Context, args: string[], options: Record<string, unknown>): Promise<number> {
  const { path, shown } = memoryFile(ctx, options);
  const campaign = args[0];
  const timeoutMs = numberOption(options, 'timeoutMs', '--timeout-ms', { min: 100, max: 3_600_000, integer: true });
  const found = await guard(ctx, async () => readCampaignWorkspaces(ctx.cwd, { ...(await campaignOptionsWithBackend(ctx, options)), ...(campaign === undefined ? {} : { campaign }) }));
  const records = found.workspaces.map(toObserved).filter((r) => r !== undefined);
  const campaignId = campaign ?? found.workspaces[0]?.campaign ?? 'campaign';
  const campaignObjective = await objectiveOf(ctx, campaign, options);
  const observation = await observe(records, {
    campaign: campaignId,
    ...(campaignObjective === undefined ? {} : { campaignObjective }),
    cwd: ctx.cwd,
    ...(options.verify === true ? { verify: runVerifyCommand } : {}),
    ...(timeoutMs !== undefined ? { timeoutMs } : {}),
  });
  let applied: ObservationApplied = { failures: [], patterns: [], feedback: [], links: [] };
  await withMemoryErrors(shown, async () =>
    (await projectMemory(ctx, path, { createParentDirs: true })).update((data) => {
      applied = applyObservation(data, observation, { now: now() });
      return data;
    }),
  );

  // Observing the active campaign is its OBSERVE phase: the gate `campaign complete` checks.
  const phase = campaign === undefined ? await recordPhase(ctx, options) : undefined;
  if (ctx.json) {
    ctx.emitJson({ ok: true, file: shown, campaign: campaignId, observed: records.length, skipped: found.skipped, observation, applied, ...(phase === undefined ? {} : { phase }) });
    return EXIT_OK;
  }
  ctx.out(`observed ${records.length} finished workspace(s) of ${campaignId} into ${shown}`);
  for (const s of found.skipped) ctx.out(`  skipped ${s.path}: ${s.reason}`);
  const verdicts = new Map<string, string>(observation.failures.map((f) => [f.workspace, f.fixedBy === undefined ? f.verdict : `${f.verdict}: fixed by ${f.fixedBy}`]));
  for (const f of observation.failures) if (!f.learn) ctx.out(`  failure   ${f.workspace}: not learned (${f.verdict}: the verify command passes now)`);
  for (const r of applied.failures) ctx.out(`  failure   ${r.workspace}: ${r.status}${r.name ? ` ${r.name}` : ''} (${verdicts.get(r.workspace) ?? ''})${r.status === 'refused' ? `: ${r.refusals.map((x) => x.reason).join('; ')}` : ''}`);
  for (const p of observation.patterns) if (!p.learn) ctx.out(`  pattern   ${p.workspace}: not learned (score ${p.score}; ${truncate(p.rejected ?? '', 80)})`);
  for (const r of applied.patterns) ctx.out(`  pattern   ${r.workspace}: ${r.status}${r.name ? ` ${r.name}` : ''}${r.status === 'refused' ? `: ${r.refusals.map((x) => x.reason).join('; ')}` : ''}`);
  for (const l of applied.links) ctx.out(`  link      ${l.from} ${l.type} ${l.to}`);
  if (phase !== undefined) ctx.out(`  campaign  ${campaignId}: phase ${phase}${phase === 'OBSERVE' ? ' (`ratchet campaign complete` may archive it)' : ''}`);
  for (const fb of applied.feedback) ctx.out(`  feedback  ${fb.name} ${fb.outcome}${fb.applied ? '' : ` (not applied: ${fb.reason ?? ''})`}`);
  return EXIT_OK;
}
