/**
 * The notes kept in the goals state as typed operations: questions and their stories, the Scratch
 * Page, and proposals to change the action-type registry (`ratchet questions add`, `stories
 * update`, `scratch add|review|promote|archive|expire`, `proposals submit|amend`; the MCP tools
 * questions_add, stories_update, scratch_add, scratch_update, proposals_submit). Each returns its
 * typed outcome, `...Result` the `--json` document; the goals library's refusals are thrown as the
 * goals commands throw them (exit 1 for a rule that held, 2 for bad input). Proposal review and
 * merge are the user's and are not here.
 */
import {
  addObservation,
  amendProposal,
  archiveObservation,
  expireObservations,
  parseDuration,
  promoteObservation,
  reviewObservation,
  submitProposal,
  upsertQuestion,
  upsertStory,
  type Goal,
  type CreatedAction,
  type Observation,
  type ProposalAmendment,
  type ProposalInput,
  type Question,
  type RegistryProposal,
  type Story,
} from '@ratchet/goals';
import { locate, parseJson } from '@ratchet/store';
import { actorOf, clockOf, intOption, loadRegistryFor, mapErrors, numberOption, openState, readJsonArg, registryFileOf, type JsonInput } from '../commands/goals/shared.js';
import { traceProposal } from '../commands/goals/trace-proposals.js';
import type { Context } from '../context.js';
import { CliError } from '../errors.js';
import { EXIT_OK } from '../exit-codes.js';
import type { OperationResult } from './invoke.js';
import type {
  GoalsWriteInput,
  ProposalAmendInput,
  ProposalSource,
  ProposalSubmitInput,
  ProposalWriteInput,
  QuestionAddInput,
  ScratchAddInput,
  ScratchArchiveInput,
  ScratchExpireInput,
  ScratchPromoteInput,
  ScratchReviewInput,
  StoryUpdateInput,
} from './notes-input.js';

export type * from './notes-input.js';
export { SCRATCH_REVIEW_STATUSES } from './notes-input.js';

/** Who writes, and the version the write expects (each input is the place the goals helpers read: state, registry, actor, clock, trace). */
function writeMeta(ctx: Context, input: GoalsWriteInput): { actor: ReturnType<typeof actorOf>; expected_version: number | undefined } {
  return { actor: actorOf(ctx, input), expected_version: intOption(input.expectedVersion, '--expected-version') };
}

/** A write to the goals state: its new version and what it made; `changed` is false when it changed nothing. */
export interface NotesWritten<T> {
  version: number;
  changed: boolean;
  result: T;
}

// ---- questions and stories -------------------------------------------------------------------

export async function addQuestion(ctx: Context, input: QuestionAddInput): Promise<NotesWritten<Question>> {
  const store = await openState(ctx, input);
  return mapErrors(ctx, async () => {
    const meta = writeMeta(ctx, input);
    if (input.text === undefined && input.id === undefined) throw new CliError('questions add: missing <text> (or --id of a question to update)');
    const r = await store.mutate({ ...meta, op: 'question.upsert' }, (tx) =>
      upsertQuestion(tx, {
        id: input.id,
        // upsertQuestion requires a text only for a new question.
        text: input.text as string,
        goal_id: input.goal,
        priority: numberOption(input.priority, '--priority'),
        status: input.status,
        owner: input.owner,
        tags: input.tags,
      }),
    );
    return { version: r.version, changed: r.entry !== undefined, result: r.result };
  });
}

export function addQuestionResult(w: NotesWritten<Question>): OperationResult {
  return { exitCode: EXIT_OK, document: { ok: true, version: w.version, question: w.result } };
}

export async function updateStory(ctx: Context, input: StoryUpdateInput): Promise<NotesWritten<Story>> {
  const store = await openState(ctx, input);
  return mapErrors(ctx, async () => {
    const meta = writeMeta(ctx, input);
    if (input.id === undefined && input.question === undefined) throw new CliError('stories update: give --id or --question');
    const r = await store.mutate({ ...meta, op: 'story.upsert' }, (tx) =>
      upsertStory(tx, { id: input.id, question_id: input.question, narrative: input.narrative, acceptance_criteria: input.criteria, evidence_refs: input.evidence, status: input.status }),
    );
    return { version: r.version, changed: r.entry !== undefined, result: r.result };
  });
}

export function updateStoryResult(w: NotesWritten<Story>): OperationResult {
  return { exitCode: EXIT_OK, document: { ok: true, version: w.version, story: w.result } };
}

// ---- the Scratch Page ------------------------------------------------------------------------

/** Opens the state for a Scratch Page write (the actor and version are checked before the library runs). */
async function scratchWrite<T>(ctx: Context, input: GoalsWriteInput & { now?: string | undefined }, run: (store: Awaited<ReturnType<typeof openState>>, meta: ReturnType<typeof writeMeta>) => Promise<T>): Promise<T> {
  const store = await openState(ctx, input);
  const meta = writeMeta(ctx, input);
  return mapErrors(ctx, () => run(store, meta));
}

export async function addScratch(ctx: Context, input: ScratchAddInput): Promise<NotesWritten<Observation>> {
  return scratchWrite(ctx, input, async (store, meta) => {
    const ttl = input.ttl === undefined ? undefined : parseDuration(input.ttl);
    if (input.ttl !== undefined && (ttl === undefined || ttl <= 0)) throw new CliError(`--ttl must be an ISO 8601 duration such as P7D or PT12H, got ${JSON.stringify(input.ttl)}`);
    const r = await store.mutate({ ...meta, op: 'scratch.add' }, (tx) =>
      addObservation(tx, {
        id: input.id,
        type: input.type,
        content: input.content,
        source: input.source,
        owner: input.owner,
        confidence: numberOption(input.confidence, '--confidence'),
        tags: input.tags,
        ttl_ms: ttl,
        expires_at: input.expires,
      }),
    );
    return { version: r.version, changed: true, result: r.result };
  });
}

export async function reviewScratch(ctx: Context, input: ScratchReviewInput): Promise<NotesWritten<Observation>> {
  return scratchWrite(ctx, input, async (store, meta) => {
    const r = await store.mutate({ ...meta, op: 'scratch.review' }, (tx) => reviewObservation(tx, input.id, input.status, input.note));
    return { version: r.version, changed: true, result: r.result };
  });
}

export async function archiveScratch(ctx: Context, input: ScratchArchiveInput): Promise<NotesWritten<Observation>> {
  return scratchWrite(ctx, input, async (store, meta) => {
    const r = await store.mutate({ ...meta, op: 'scratch.archive' }, (tx) => archiveObservation(tx, input.id));
    return { version: r.version, changed: true, result: r.result };
  });
}

/** add, review, archive: the observation as it is now. */
export function scratchItemResult(w: NotesWritten<Observation>): OperationResult {
  return { exitCode: EXIT_OK, document: { ok: true, version: w.version, observation: w.result } };
}

export async function expireScratch(ctx: Context, input: ScratchExpireInput): Promise<NotesWritten<string[]>> {
  return scratchWrite(ctx, input, async (store, meta) => {
    const r = await store.mutate({ ...meta, op: 'scratch.expire' }, (tx) => expireObservations(tx));
    return { version: r.version, changed: r.result.length > 0, result: r.result };
  });
}

export function expireScratchResult(w: NotesWritten<string[]>): OperationResult {
  return { exitCode: EXIT_OK, document: { ok: true, version: w.version, archived: w.result } };
}

export interface ScratchPromoted {
  observation: Observation;
  goal?: Goal;
  action?: CreatedAction;
}

export async function promoteScratch(ctx: Context, input: ScratchPromoteInput): Promise<NotesWritten<ScratchPromoted>> {
  return scratchWrite(ctx, input, async (store, meta) => {
    const registry = await loadRegistryFor(ctx, input);
    const { id, title } = input;
    const priority = numberOption(input.priority, '--priority');
    const r = await store.mutate({ ...meta, op: 'scratch.promote', registry: registryFileOf(ctx, input, registry) }, (tx) => {
      const content = tx.get('observation', id).content;
      return input.to === 'goal'
        ? promoteObservation(tx, registry, id, { to: 'goal', goal: { title: title ?? content.slice(0, 1000), priority } })
        : promoteObservation(tx, registry, id, { to: 'action', action: { type: input.actionType ?? 'agent_task', title: title ?? content.slice(0, 1000), priority, goal_id: input.goal } });
    });
    return { version: r.version, changed: true, result: r.result };
  });
}

export function promoteScratchResult(w: NotesWritten<ScratchPromoted>): OperationResult {
  return { exitCode: EXIT_OK, document: { ok: true, version: w.version, ...w.result } };
}

// ---- proposals (submit and amend: the agent's moves; review and merge are the user's) --------

/** The proposal JSON, kept to place its problems at line:col; undefined when none was given. */
async function proposalJson(ctx: Context, source: ProposalSource | undefined): Promise<JsonInput | undefined> {
  if (source === undefined) return undefined;
  if ('file' in source) return readJsonArg(ctx, source.file);
  // The text itself (an MCP tool's argument): placed as standard input would be.
  const { text } = source;
  return { value: parseJson(text, { path: '<stdin>' }), file: '<stdin>', locate: (pointer) => locate(text, pointer) };
}

function jsonObject(input: JsonInput | undefined, what: string): Record<string, unknown> {
  const value = input === undefined ? {} : input.value;
  if (value === null || typeof value !== 'object' || Array.isArray(value)) throw new CliError(`${what} must be a JSON object`, { file: input?.file, line: 1, column: 1 });
  return { ...(value as Record<string, unknown>) };
}

async function proposalWrite<T>(ctx: Context, input: ProposalWriteInput, run: (store: Awaited<ReturnType<typeof openState>>, meta: ReturnType<typeof writeMeta>) => Promise<T>): Promise<T> {
  const store = await openState(ctx, input);
  const meta = writeMeta(ctx, input);
  return mapErrors(ctx, () => run(store, meta));
}

export async function submitRegistryProposal(ctx: Context, input: ProposalSubmitInput): Promise<NotesWritten<RegistryProposal>> {
  return proposalWrite(ctx, input, async (store, meta) => {
    const json = await proposalJson(ctx, input.source);
    const merged = jsonObject(json, 'a proposal') as unknown as ProposalInput;
    if (input.kind !== undefined) merged.proposal_type = input.kind;
    if (input.typeId !== undefined) merged.type_id = input.typeId;
    if (input.rationale !== undefined) merged.rationale = input.rationale;
    if (merged.proposal_type === undefined) throw new CliError('proposals submit: give --kind (add, modify, deprecate) or a file with proposal_type');
    // Problems in the file are placed in it (line:col); without a file, --kind/--type-id/--rationale are what is wrong.
    const r = await mapErrors(ctx, () => store.mutate({ ...meta, op: 'proposal.submit' }, (tx) => submitProposal(tx, merged)), json);
    await traceProposal(ctx, input, r.result, 'submitted', clockOf(input)());
    return { version: r.version, changed: true, result: r.result };
  });
}

export function submitProposalResult(w: NotesWritten<RegistryProposal>): OperationResult {
  return { exitCode: EXIT_OK, document: { ok: true, version: w.version, proposal: w.result } };
}

export interface ProposalAmended extends NotesWritten<RegistryProposal> {
  /** The proposal's status before the amendment (an approved one goes back to review). */
  before: RegistryProposal['status'] | undefined;
}

export async function amendRegistryProposal(ctx: Context, input: ProposalAmendInput): Promise<ProposalAmended> {
  return proposalWrite(ctx, input, async (store, meta) => {
    const json = await proposalJson(ctx, input.source);
    const amendment = jsonObject(json, 'an amendment') as ProposalAmendment;
    if (input.typeId !== undefined) amendment.type_id = input.typeId;
    if (input.rationale !== undefined) amendment.rationale = input.rationale;
    const before = (await store.read()).proposals.find((p) => p.id === input.id)?.status;
    const r = await mapErrors(ctx, () => store.mutate({ ...meta, op: 'proposal.amend' }, (tx) => amendProposal(tx, input.id, amendment)), json);
    if (r.entry !== undefined) await traceProposal(ctx, input, r.result, 'amended', clockOf(input)());
    return { version: r.version, changed: r.entry !== undefined, result: r.result, before };
  });
}

export function amendProposalResult(w: ProposalAmended): OperationResult {
  return { exitCode: EXIT_OK, document: { ok: true, version: w.version, changed: w.changed, proposal: w.result } };
}
