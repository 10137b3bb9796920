/**
 * The campaign area as typed operations (`ratchet campaign create|add-tasks|ready|heartbeat|
 * update-task|status|cascade-status|waves|propagate-blocks|phase|complete`; the MCP tools
 * `campaign_*`): what each does, and the document `--json` prints for it with the command's exit
 * code. The commands render the same outcomes for people.
 */
import {
  CAMPAIGN_MAX_BYTES,
  PlanError,
  addTasks,
  advancePhase,
  claimTask,
  claimTaskLeased,
  completeCampaign,
  createCampaign,
  heartbeatClaims,
  propagate,
  readCampaign,
  readCampaignWithClaims,
  readCascade,
  readyTasks,
  summarize,
  updateTask,
  waves,
  type Campaign,
  type PlanProblem,
  type Task,
  type TaskStatus,
} from '@ratchet/campaign-dag';
import { parseJson, readJsonFile } from '@ratchet/store';
import { pinnedActor } from '../actor.js';
import { campaignOptionsWithBackend, guard, seqArg } from '../commands/campaign/shared.js';
import type { Context } from '../context.js';
import { CliError } from '../errors.js';
import { EXIT_OK, EXIT_PROBLEMS, EXIT_USAGE } from '../exit-codes.js';
import { recordOpened } from '../hook/opened.js';
import { leaseOption } from '../lease-option.js';
import { versioned } from '../output/json-output.js';
import { displayPath, resolvePath } from '../paths.js';
import { readStdinLimited, stdinTooLarge } from '../stdin.js';
import type { OperationResult } from './invoke.js';
import type {
  AddTasksInput,
  CampaignInput,
  CampaignPhaseInput,
  CampaignReadyInput,
  CompleteCampaignInput,
  CreateCampaignInput,
  HeartbeatInput,
  TaskStatusName,
  UpdateTaskInput,
} from './campaign-input.js';

export type { AddTasksInput, CampaignInput, CampaignPhaseInput, CampaignReadyInput, CompleteCampaignInput, CreateCampaignInput, HeartbeatInput, TaskStatusName, UpdateTaskInput } from './campaign-input.js';
export { TASK_STATUS_NAMES, planSource } from './campaign-input.js';

// The input file may not import the library's types: these fail to compile if the two lists part.
const statusesAgree: [TaskStatusName, TaskStatus] extends [TaskStatus, TaskStatusName] ? true : never = true;
void statusesAgree;

const ok = (document: Record<string, unknown>): OperationResult => ({ exitCode: EXIT_OK, document });

/** The lease a heartbeat grants without one: the same default a builder's claim is told to use. */
export const DEFAULT_HEARTBEAT_LEASE_MS = 15 * 60_000;

// ---- create

/** Start a campaign (one active campaign per project). */
export async function createCampaignOp(ctx: Context, input: CreateCampaignInput): Promise<Campaign> {
  const { framework } = input;
  return guard(ctx, async () => createCampaign(ctx.cwd, input.objective, { ...(await campaignOptionsWithBackend(ctx)), ...(framework === undefined ? {} : { framework }) }));
}

export function createCampaignResult(_ctx: Context, campaign: Campaign): OperationResult {
  return ok({ ok: true, campaign });
}

// ---- add-tasks

export type AddTasksOutcome =
  | { kind: 'added'; campaign: Campaign; added: Task[]; waves: number }
  /** The plan was refused for its problems (every one, at once); nothing was added. */
  | { kind: 'refused'; file: string; problems: PlanProblem[]; graphOnly: boolean };

/** Add a plan's tasks: read from a file or standard input, or given as a value (stringified as stdin would carry it). */
export async function addCampaignTasks(ctx: Context, input: AddTasksInput): Promise<AddTasksOutcome> {
  const { plan } = input;
  let value: unknown;
  let text: string;
  let shown: string;
  if ('stdin' in plan && plan.evenFromTerminal !== true && ctx.io.stdinIsTTY === true) {
    // Nothing piped and no file: reading the terminal would wait forever for an agent.
    throw new CliError('no plan given: pass a plan file (ratchet campaign add-tasks plan.json) or pipe one (cat plan.json | ratchet campaign add-tasks); "-" reads the terminal until end of input');
  }
  if ('file' in plan) {
    const abs = resolvePath(ctx, plan.file);
    shown = displayPath(ctx, abs);
    // Guarded read: size limit (a plan may be as large as the campaign it fills), no binary, parse
    // errors with line:column, __proto__ keys refused.
    ({ value, text } = await readJsonFile(abs, { maxBytes: CAMPAIGN_MAX_BYTES }));
  } else {
    shown = '<stdin>';
    // A plan given as a value is held to what standard input would be, and parsed as it would be.
    text = 'stdin' in plan ? await readStdinLimited(ctx, CAMPAIGN_MAX_BYTES, 'the plan') : planText(plan.value);
    value = parseJson(text, { path: shown });
  }
  // The claim queue learns of the newly ready tasks with the add (leased claims take them from there).
  const opts = await campaignOptionsWithBackend(ctx);
  try {
    const { campaign, added } = await guard(ctx, () => addTasks(ctx.cwd, value, { ...opts, text, source: shown }));
    return { kind: 'added', campaign, added, waves: waves(campaign.tasks).length };
  } catch (err) {
    if (!(err instanceof PlanError)) throw err;
    return { kind: 'refused', file: shown, problems: err.problems, graphOnly: err.graphOnly };
  }
}

function planText(value: unknown): string {
  const text = JSON.stringify(value) ?? '';
  if (Buffer.byteLength(text) > CAMPAIGN_MAX_BYTES) throw stdinTooLarge(CAMPAIGN_MAX_BYTES, 'the plan');
  return text;
}

/** A plan with problems: exit 1 when only the graph is wrong (a cycle, a missing dependency), else 2. */
export function addTasksResult(_ctx: Context, outcome: AddTasksOutcome): OperationResult {
  if (outcome.kind === 'refused') return { exitCode: outcome.graphOnly ? EXIT_PROBLEMS : EXIT_USAGE, document: { ok: false, file: outcome.file, problems: outcome.problems } };
  return ok({ ok: true, added: outcome.added.map((t) => t.seq), total: outcome.campaign.tasks.length, waves: outcome.waves });
}

// ---- ready

export interface RecoveredClaim {
  runner: string;
  attempt: number;
  leaseUntil: string;
}

export type ReadyOutcome =
  | { kind: 'ready'; tasks: Task[] }
  | { kind: 'claim'; runner: string; task: Task | undefined; leaseMs: number | undefined; leaseUntil: string | undefined; recovered: RecoveredClaim | undefined };

/** The ready tasks, or with `claim` the first of them taken atomically for that runner. */
export async function campaignReady(ctx: Context, input: CampaignReadyInput): Promise<ReadyOutcome> {
  const leaseMs = leaseOption(input.lease);
  const opts = await campaignOptionsWithBackend(ctx);
  const runner = input.claim;
  if (runner === undefined) {
    // Tasks whose lease expired are ready again: the overlay shows them as pending.
    return { kind: 'ready', tasks: readyTasks((await guard(ctx, () => readCampaignWithClaims(ctx.cwd, opts))).campaign.tasks) };
  }
  let task: Task | undefined;
  let leaseUntil: string | undefined;
  let recovered: RecoveredClaim | undefined;
  if (leaseMs === undefined) task = await guard(ctx, () => claimTask(ctx.cwd, runner, opts));
  else {
    const got = await guard(ctx, () => claimTaskLeased(ctx.cwd, runner, leaseMs, opts));
    task = got?.task;
    leaseUntil = got?.claim.leaseUntil;
    if (got?.claim.recovered !== undefined) recovered = { runner: got.claim.recovered.owner, attempt: got.claim.recovered.attempt, leaseUntil: got.claim.recovered.leaseUntil };
  }
  // The agent now owes this task: the Stop hook must see it, whichever face made the claim.
  if (task !== undefined) await recordOpened(ctx.cwd, ctx.io.env, { kind: 'claim', key: runner });
  return { kind: 'claim', runner, task, leaseMs, leaseUntil, recovered };
}

export function campaignReadyResult(_ctx: Context, outcome: ReadyOutcome): OperationResult {
  if (outcome.kind === 'ready') return ok(versioned('campaign-ready', { ok: true, ready: outcome.tasks }));
  const { task, leaseUntil, recovered } = outcome;
  return ok(versioned('campaign-ready', { ok: true, claimed: task ?? null, ...(leaseUntil === undefined ? {} : { leaseUntil }), ...(recovered === undefined ? {} : { recovered }) }));
}

// ---- heartbeat

export type HeartbeatOutcome = Awaited<ReturnType<typeof heartbeatClaims>> & { runner: string };

/** Renew every leased claim the runner holds. */
export async function heartbeat(ctx: Context, input: HeartbeatInput): Promise<HeartbeatOutcome> {
  const { runner } = input;
  const leaseMs = leaseOption(input.lease) ?? DEFAULT_HEARTBEAT_LEASE_MS;
  const opts = await campaignOptionsWithBackend(ctx);
  return { runner, ...(await guard(ctx, () => heartbeatClaims(ctx.cwd, runner, leaseMs, opts))) };
}

export function heartbeatResult(_ctx: Context, outcome: HeartbeatOutcome): OperationResult {
  const { runner, renewed, lost } = outcome;
  return ok({ ok: true, runner, renewed: renewed.map((r) => ({ seq: r.task.seq, slug: r.task.slug, leaseUntil: r.claim.leaseUntil, attempt: r.claim.attempt })), lost: lost.map((l) => ({ seq: l.seq, holder: l.runner === '' ? null : l.runner })) });
}

// ---- update-task

/**
 * Change a task's status. A claimed task changes only by its holder (`runner`) or by the user
 * (`asUser`, refused where the harness pins its agents with RATCHET_ACTOR=agent: the MCP tools and
 * hooks act as the agent).
 */
export async function updateCampaignTask(ctx: Context, input: UpdateTaskInput): Promise<Task> {
  const seq = seqArg(input.seq);
  const { reason, runner } = input;
  const asUser = input.asUser === true;
  if (asUser && pinnedActor(ctx) === 'agent') {
    throw new CliError('--as user is refused: this environment sets RATCHET_ACTOR=agent (an agent cannot override a claim; the user runs this from their own shell)', { code: 'actor-pinned' });
  }
  const opts = await campaignOptionsWithBackend(ctx);
  return guard(ctx, () => updateTask(ctx.cwd, seq, input.status, { ...opts, ...(reason === undefined ? {} : { reason }), ...(runner === undefined ? {} : { runner }), ...(asUser ? { asUser } : {}) }));
}

export function updateTaskResult(_ctx: Context, task: Task): OperationResult {
  return ok({ ok: true, task });
}

// ---- status

export type CampaignStatusOutcome = Awaited<ReturnType<typeof readCampaignWithClaims>> & {
  summary: ReturnType<typeof summarize>;
  lostAttempts: (NonNullable<Task['lostAttempts']>[number] & { seq: number })[];
};

/** The campaign as the claim queue sees it now (an expired lease reads as pending). */
export async function campaignStatus(ctx: Context, _input: CampaignInput): Promise<CampaignStatusOutcome> {
  const opts = await campaignOptionsWithBackend(ctx);
  const { campaign, claims } = await guard(ctx, () => readCampaignWithClaims(ctx.cwd, opts));
  return { campaign, claims, summary: summarize(campaign), lostAttempts: campaign.tasks.flatMap((t) => (t.lostAttempts ?? []).map((l) => ({ seq: t.seq, ...l }))) };
}

export function campaignStatusResult(_ctx: Context, s: CampaignStatusOutcome): OperationResult {
  return ok(versioned('campaign-status', { ok: true, summary: s.summary, tasks: s.campaign.tasks, phase: s.campaign.phase, claims: s.claims, lostAttempts: s.lostAttempts }));
}

// ---- cascade-status

export type CascadeOutcome = Awaited<ReturnType<typeof readCascade>>;

/** The campaign state with ready, pending, complete, blocked and transitively unreachable tasks. */
export async function cascadeStatus(ctx: Context, _input: CampaignInput): Promise<CascadeOutcome> {
  return guard(ctx, async () => readCascade(ctx.cwd, await campaignOptionsWithBackend(ctx)));
}

export function cascadeStatusResult(_ctx: Context, status: CascadeOutcome): OperationResult {
  return ok({ ok: true, ...status });
}

// ---- waves

export interface WavesOutcome {
  campaign: Campaign;
  waves: number[][];
}

/** The parallel layers of the task graph. */
export async function campaignWaves(ctx: Context, _input: CampaignInput): Promise<WavesOutcome> {
  const campaign = await guard(ctx, async () => readCampaign(ctx.cwd, await campaignOptionsWithBackend(ctx)));
  return { campaign, waves: waves(campaign.tasks) };
}

export function wavesResult(_ctx: Context, outcome: WavesOutcome): OperationResult {
  return ok({ ok: true, waves: outcome.waves });
}

// ---- propagate-blocks

export type PropagateOutcome = Awaited<ReturnType<typeof propagate>>;

/** Block every task below a blocked one (to a fixpoint). */
export async function propagateBlocks(ctx: Context, _input: CampaignInput): Promise<PropagateOutcome> {
  return guard(ctx, async () => propagate(ctx.cwd, await campaignOptionsWithBackend(ctx)));
}

export function propagateBlocksResult(_ctx: Context, changed: PropagateOutcome): OperationResult {
  return ok({ ok: true, blocked: changed });
}

// ---- phase

/** The campaign's phase and log, after firing `explored` when asked. */
export async function campaignPhase(ctx: Context, input: CampaignPhaseInput): Promise<Campaign> {
  const { reason } = input;
  if (input.event === 'explored') return guard(ctx, async () => advancePhase(ctx.cwd, 'explored', { ...(await campaignOptionsWithBackend(ctx)), ...(reason === undefined ? {} : { reason }) }));
  return guard(ctx, async () => readCampaign(ctx.cwd, await campaignOptionsWithBackend(ctx)));
}

export function campaignPhaseResult(_ctx: Context, campaign: Campaign): OperationResult {
  return ok({ ok: true, campaign: campaign.id, phase: campaign.phase, log: campaign.phaseLog ?? [] });
}

// ---- complete

export type CompleteCampaignOutcome = Awaited<ReturnType<typeof completeCampaign>>;

/** Archive the campaign: refused (exit 2) before the observer ran, unless skipped with a reason. */
export async function completeCampaignOp(ctx: Context, input: CompleteCampaignInput): Promise<CompleteCampaignOutcome> {
  const { skipObserve } = input;
  return guard(ctx, async () =>
    completeCampaign(ctx.cwd, { ...(await campaignOptionsWithBackend(ctx, input.workspaceDir)), force: input.force === true, ...(skipObserve === undefined ? {} : { skipObserve }) }),
  );
}

export function completeCampaignResult(ctx: Context, result: CompleteCampaignOutcome): OperationResult {
  return ok({ ok: true, archive: displayPath(ctx, result.archivePath), workspaces: result.workspacePath === undefined ? null : displayPath(ctx, result.workspacePath), summary: result.summary });
}
