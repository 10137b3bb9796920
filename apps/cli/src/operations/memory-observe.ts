/**
 * `ratchet memory observe` as a typed operation (the MCP tool `memory_observe`): learn from a
 * campaign's finished workspaces (the active campaign's, or an archived one's by id). Blocked
 * workspaces become failures (with `verify` their verify command is re-run first: one that now
 * passes is a false positive and is not learned); completed ones become patterns only when they
 * score enough; <memory_utilization> becomes helped/failed feedback. Verification runs outside the
 * memory lock. Apart from memory.ts so that `memory query` does not load the campaign library.
 */
import { CampaignError, readArchive, readCampaign, readCampaignWorkspaces, recordObservation, type CampaignOptions } from '@ratchet/campaign-dag';
import { applyObservation, observe, runVerifyCommand, type Observation, type ObservationApplied } from '@ratchet/memory';
import { campaignOptionsWithBackend, guard } from '../commands/campaign/shared.js';
import { checkedNumber, memoryFile, now, projectMemory, withMemoryErrors } from '../commands/memory/shared.js';
import type { Context } from '../context.js';
import { EXIT_OK } from '../exit-codes.js';
import { toObserved } from '../memory-campaign.js';
import type { OperationResult } from './invoke.js';
import type { MemoryObserveInput } from './memory-input.js';
import type { MemoryFileRef } from './memory.js';

export type { MemoryObserveInput } from './memory-input.js';

export interface MemoryObserved {
  file: MemoryFileRef;
  /** The campaign observed (the id given, else the workspaces' own). */
  campaign: string;
  observed: number;
  skipped: { path: string; reason: string }[];
  observation: Observation;
  applied: ObservationApplied;
  /** The active campaign's phase after (OBSERVE), when the active campaign was observed. */
  phase: string | undefined;
}

/** Record the observation on the active campaign; its phase after, or undefined when there is no active campaign or nothing was built yet. */
async function recordPhase(ctx: Context, options: CampaignOptions): Promise<string | undefined> {
  try {
    return (await recordObservation(ctx.cwd, options)).phase;
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
async function objectiveOf(ctx: Context, id: string | undefined, opts: CampaignOptions): Promise<string | undefined> {
  const active = await readCampaign(ctx.cwd, opts).catch(() => undefined);
  if (id === undefined || active?.id === id) return active?.objective;
  const { entries } = await readArchive(ctx.cwd, opts).catch(() => ({ entries: [] }));
  return entries.find((e) => e.campaign.id === id)?.campaign.objective;
}

export async function observeCampaign(ctx: Context, input: MemoryObserveInput): Promise<MemoryObserved> {
  const file = memoryFile(ctx, input.file);
  const { campaign } = input;
  const timeoutMs = input.timeoutMs === undefined ? undefined : checkedNumber(input.timeoutMs, String(input.timeoutMs), '--timeout-ms', { min: 100, max: 3_600_000, integer: true });
  const campaignOptions = (): Promise<CampaignOptions> => campaignOptionsWithBackend(ctx, input.workspaceDir);
  const found = await guard(ctx, async () => readCampaignWorkspaces(ctx.cwd, { ...(await campaignOptions()), ...(campaign === undefined ? {} : { campaign }) }));
  const records = found.workspaces.map(toObserved).filter((r) => r !== undefined);
  const campaignId = campaign ?? found.workspaces[0]?.campaign ?? 'campaign';
  const campaignObjective = await objectiveOf(ctx, campaign, await campaignOptions());
  const observation = await observe(records, {
    campaign: campaignId,
    ...(campaignObjective === undefined ? {} : { campaignObjective }),
    cwd: ctx.cwd,
    ...(input.verify === true ? { verify: runVerifyCommand } : {}),
    ...(timeoutMs !== undefined ? { timeoutMs } : {}),
  });
  let applied: ObservationApplied = { failures: [], patterns: [], feedback: [], links: [] };
  await withMemoryErrors(file.shown, async () =>
    (await projectMemory(ctx, file.path, { createParentDirs: true })).update((data) => {
      applied = applyObservation(data, observation, { now: now() });
      return data;
    }),
  );
  // Observing the active campaign is its OBSERVE phase: the gate `campaign complete` checks.
  const phase = campaign === undefined ? await recordPhase(ctx, await campaignOptions()) : undefined;
  return { file, campaign: campaignId, observed: records.length, skipped: found.skipped, observation, applied, phase };
}

export function memoryObserveResult(o: MemoryObserved): OperationResult {
  return {
    exitCode: EXIT_OK,
    document: { ok: true, file: o.file.shown, campaign: o.campaign, observed: o.observed, skipped: o.skipped, observation: o.observation, applied: o.applied, ...(o.phase === undefined ? {} : { phase: o.phase }) },
  };
}
