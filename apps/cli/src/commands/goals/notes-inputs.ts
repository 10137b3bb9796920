/**
 * The edge of the notes commands (questions add, stories update, scratch writes, proposals
 * submit|amend): commander's arguments and options (register.ts) parsed into the typed inputs of
 * src/operations/notes.ts. The goals, actions and turn commands have their own edge.
 */
import type { ObservationStatus, RegistryProposal } from '@ratchet/goals';
import { CliError } from '../../errors.js';
import type { GoalsLocation, TraceLocation, Versioned } from '../../operations/goals-input.js';
import { SCRATCH_REVIEW_STATUSES } from '../../operations/notes-input.js';
import type {
  GoalsWriteInput,
  ProposalAmendInput,
  ProposalSource,
  ProposalSubmitInput,
  QuestionAddInput,
  ScratchAddInput,
  ScratchArchiveInput,
  ScratchPromoteInput,
  ScratchReviewInput,
  ScratchWriteInput,
  StoryUpdateInput,
} from '../../operations/notes-input.js';
import { argument, choiceOption, flagOption, stringOption, stringsOption, type OptionBag } from '../../option-values.js';
import { expectedVersionInput, locationInput, OWNERS, traceInput } from './goals-inputs.js';
import { numberOption } from './shared.js';

/** --state, --registry, --as, --who, --agent, --org (the goals commands' edge), --expected-version. */
function writeInput(options: OptionBag): GoalsWriteInput {
  return { ...locationInput(options), expectedVersion: expectedVersionInput(options) };
}

const scratchWrite = (options: OptionBag): ScratchWriteInput => ({ ...writeInput(options), now: stringOption(options, 'now') });

export function questionAddInput(args: readonly string[], options: OptionBag): QuestionAddInput {
  return {
    ...writeInput(options),
    text: args[1],
    id: stringOption(options, 'id'),
    goal: stringOption(options, 'goal'),
    priority: numberOption(stringOption(options, 'priority'), '--priority'),
    status: choiceOption(options, 'status', ['open', 'answered', 'archived'] as const),
    owner: choiceOption(options, 'owner', OWNERS),
    tags: stringsOption(options, 'tag'),
  };
}

export function storyUpdateInput(_args: readonly string[], options: OptionBag): StoryUpdateInput {
  return {
    ...writeInput(options),
    id: stringOption(options, 'id'),
    question: stringOption(options, 'question'),
    narrative: stringOption(options, 'narrative'),
    criteria: stringsOption(options, 'criterion'),
    evidence: stringsOption(options, 'evidence'),
    status: choiceOption(options, 'status', ['draft', 'active', 'accepted', 'archived'] as const),
  };
}

/** register.ts passes the scratch command as the first argument: `add <content>`. */
export function scratchAddInput(args: readonly string[], options: OptionBag): ScratchAddInput {
  if (args[1] === undefined) throw new CliError('scratch add: missing <content>');
  return {
    ...scratchWrite(options),
    content: args[1],
    source: stringOption(options, 'source') ?? '',
    id: stringOption(options, 'id'),
    type: choiceOption(options, 'type', ['observation', 'story', 'insight', 'alert'] as const),
    owner: choiceOption(options, 'owner', OWNERS),
    confidence: numberOption(stringOption(options, 'confidence'), '--confidence'),
    tags: stringsOption(options, 'tag'),
    ttl: stringOption(options, 'ttl'),
    expires: stringOption(options, 'expires'),
  };
}

function scratchId(args: readonly string[]): string {
  if (args[1] === undefined) throw new CliError(`scratch ${args[0] ?? ''}: missing <id>`);
  return args[1];
}

export function scratchReviewInput(args: readonly string[], options: OptionBag): ScratchReviewInput {
  const id = scratchId(args);
  const status = SCRATCH_REVIEW_STATUSES.find((s) => s === args[2]);
  // The library names a status it does not know; a missing one is a usage error here.
  if (args[2] === undefined) throw new CliError('scratch review: missing <status> (active, pending_review or resolved)');
  return { ...scratchWrite(options), id, status: status ?? (args[2] as ScratchReviewInput['status']), note: stringOption(options, 'note') };
}

export function scratchPromoteInput(args: readonly string[], options: OptionBag): ScratchPromoteInput {
  const id = scratchId(args);
  const to = args[2];
  if (to !== 'goal' && to !== 'action') throw new CliError('scratch promote: give <id> goal or <id> action');
  return {
    ...scratchWrite(options),
    id,
    to,
    title: stringOption(options, 'title'),
    actionType: stringOption(options, 'actionType'),
    priority: numberOption(stringOption(options, 'priority'), '--priority'),
    goal: stringOption(options, 'goal'),
  };
}

export function scratchArchiveInput(args: readonly string[], options: OptionBag): ScratchArchiveInput {
  return { ...scratchWrite(options), id: scratchId(args) };
}

export function scratchExpireInput(_args: readonly string[], options: OptionBag): ScratchWriteInput {
  return scratchWrite(options);
}

const proposalWrite = (options: OptionBag) => ({ ...writeInput(options), traces: stringOption(options, 'traces'), traceConfig: stringOption(options, 'traceConfig'), now: stringOption(options, 'now') });
const sourceOf = (file: string | undefined): ProposalSource | undefined => (file === undefined ? undefined : { file });

/** `proposals submit [file]` (register.ts passes `submit` first). */
export function proposalSubmitInput(args: readonly string[], options: OptionBag): ProposalSubmitInput {
  return {
    ...proposalWrite(options),
    source: sourceOf(args[1]),
    kind: choiceOption(options, 'kind', ['add', 'modify', 'deprecate'] as const),
    typeId: stringOption(options, 'typeId'),
    rationale: stringOption(options, 'rationale'),
  };
}

/** `proposals amend <id> [file]`. */
export function proposalAmendInput(args: readonly string[], options: OptionBag): ProposalAmendInput {
  if (args[1] === undefined) throw new CliError('proposals amend: missing <id>');
  return { ...proposalWrite(options), id: argument(args, 1, 'id'), source: sourceOf(args[2]), typeId: stringOption(options, 'typeId'), rationale: stringOption(options, 'rationale') };
}

// ---- the reads and the user's proposal moves (no MCP tool): the commands' own inputs ------------

/** `scratch list`: the active items (with `all`, the expired and settled ones too). */
export interface ScratchListInput extends GoalsLocation {
  /** The clock expiry is judged against (ISO 8601). */
  now?: string | undefined;
  all: boolean;
  status?: ObservationStatus | undefined;
  tag?: string | undefined;
}

/** `scratch list --status`'s choices (register.ts), each one the format's. */
const OBSERVATION_STATUSES = ['active', 'pending_review', 'resolved', 'archived'] as const satisfies readonly ObservationStatus[];

export function scratchListInput(_args: readonly string[], options: OptionBag): ScratchListInput {
  return { ...locationInput(options), now: stringOption(options, 'now'), all: flagOption(options, 'all'), status: choiceOption(options, 'status', OBSERVATION_STATUSES), tag: stringOption(options, 'tag') };
}

/** `questions list`: open ones unless `all`, of one goal with `goal`. */
export interface QuestionListInput extends GoalsLocation {
  all: boolean;
  goal?: string | undefined;
}

export function questionListInput(_args: readonly string[], options: OptionBag): QuestionListInput {
  return { ...locationInput(options), all: flagOption(options, 'all'), goal: stringOption(options, 'goal') };
}

/** `stories list`: all, or the story of one question. */
export interface StoryListInput extends GoalsLocation {
  question?: string | undefined;
}

export function storyListInput(_args: readonly string[], options: OptionBag): StoryListInput {
  return { ...locationInput(options), question: stringOption(options, 'question') };
}

type ProposalStatus = RegistryProposal['status'];
const PROPOSAL_STATUSES = ['open', 'approved', 'rejected', 'merged'] as const satisfies readonly ProposalStatus[];

/** `proposals list|show|review|merge|export` (submit and amend are operations, above). */
export type ProposalsInput =
  | (GoalsLocation & { command: 'list'; status?: ProposalStatus | undefined })
  | (GoalsLocation & { command: 'show'; id: string })
  | (GoalsLocation & { command: 'export'; id: string })
  | (GoalsLocation & TraceLocation & Versioned & { command: 'review'; id: string; decision: 'approve' | 'reject'; comments: string })
  | (GoalsLocation & TraceLocation & Versioned & { command: 'merge'; id: string });

/** register.ts passes the command first: `review <id> <decision>`. */
export function proposalsInput(args: readonly string[], options: OptionBag): ProposalsInput {
  const [command, id, decision] = args;
  const location = locationInput(options);
  if (command === 'list') return { ...location, command, status: choiceOption(options, 'status', PROPOSAL_STATUSES) };
  if (command !== 'show' && command !== 'export' && command !== 'review' && command !== 'merge') throw new CliError(`proposals ${command ?? ''}: unknown command`);
  if (id === undefined) throw new CliError(`proposals ${command}: missing <id>`);
  if (command === 'show') return { ...location, command, id };
  if (command === 'export') return { ...location, command, id };
  const write = { ...location, ...traceInput(options), expectedVersion: expectedVersionInput(options) };
  if (command === 'merge') return { ...write, command, id };
  if (decision !== 'approve' && decision !== 'reject') throw new CliError('proposals review: <decision> must be approve or reject');
  return { ...write, command, id, decision, comments: stringOption(options, 'comments') ?? '' };
}
