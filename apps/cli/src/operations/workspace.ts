/**
 * The workspace area as typed operations (`ratchet workspace create|complete|block|show|list`; the
 * MCP tools `workspace_create`, `workspace_finish`, `workspace_show`, `workspace_list`): what they read, and the document `--json` prints for
 * it with the command's exit code. The commands render the same records for people.
 */
import { existsSync } from 'node:fs';
import {
  MAX_WORKSPACE_BYTES,
  blockWorkspace,
  completeWorkspace,
  createWorkspace,
  findTask,
  readCampaign,
  readCampaignWorkspaces,
  showWorkspace,
  type PriorKnowledge,
  type Utilized,
  type WorkspaceRecord,
} from '@ratchet/campaign-dag';
import { readJsonFile, readTextFile } from '@ratchet/store';
import { campaignOptionsWithBackend, guard, seqArg } from '../commands/campaign/shared.js';
import { projectMemory } from '../commands/memory/shared.js';
import type { Context } from '../context.js';
import { CliError } from '../errors.js';
import { EXIT_OK, EXIT_USAGE } from '../exit-codes.js';
import { priorKnowledgeFromMemory, taskTopic } from '../memory-campaign.js';
import { configuredEmbedder } from '../memory-embedder.js';
import { displayPath, resolvePath } from '../paths.js';
import { readStdinLimited } from '../stdin.js';
import { sharedStorageOf } from '../storage.js';
import type { OperationResult } from './invoke.js';
import type { BlockWorkspaceInput, CompleteWorkspaceInput, CreateWorkspaceInput, FinishWorkspaceInput, ShowWorkspaceInput, WorkspacesInput } from './workspace-input.js';

export type { BlockWorkspaceInput, CompleteWorkspaceInput, CreateWorkspaceInput, FinishWorkspaceInput, ShowWorkspaceInput, WorkspacesInput } from './workspace-input.js';

export interface ShownWorkspace {
  /** The workspace file (absolute). */
  path: string;
  record: WorkspaceRecord;
}

/** One campaign task's workspace: objective, delta, verify, lineage, prior knowledge. */
export async function readWorkspace(ctx: Context, input: ShowWorkspaceInput): Promise<ShownWorkspace> {
  const seq = seqArg(input.seq);
  return guard(ctx, async () => showWorkspace(ctx.cwd, seq, await campaignOptionsWithBackend(ctx, input.workspaceDir)));
}

export function showWorkspaceResult(ctx: Context, shown: ShownWorkspace): OperationResult {
  return { exitCode: EXIT_OK, document: { ok: true, path: displayPath(ctx, shown.path), workspace: shown.record } };
}

export type WorkspaceList = Awaited<ReturnType<typeof readCampaignWorkspaces>>;

/** The active campaign's workspaces, and the files skipped or unreadable. */
export async function listWorkspaces(ctx: Context, input: WorkspacesInput): Promise<WorkspaceList> {
  return guard(ctx, async () => readCampaignWorkspaces(ctx.cwd, await campaignOptionsWithBackend(ctx, input.workspaceDir)));
}

/** A file that does not parse is the user's to fix: exit 2, not "no workspaces yet" with exit 0. */
export function listWorkspacesResult(ctx: Context, list: WorkspaceList): OperationResult {
  const unreadable = list.skipped.filter((s) => s.kind === 'unreadable');
  return {
    exitCode: unreadable.length === 0 ? EXIT_OK : EXIT_USAGE,
    document: { ok: unreadable.length === 0, workspaces: list.workspaces.map((w) => ({ ...w, file: displayPath(ctx, w.file) })), skipped: list.skipped.map((s) => ({ ...s, path: displayPath(ctx, s.path) })) },
  };
}

/**
 * Create the workspace of a task whose dependencies are complete. Prior knowledge comes from a file
 * when given, else from a memory query on the task (the memory file, default .ratchet/memory.json,
 * when it exists), unless `memory` is false.
 */
export async function createTaskWorkspace(ctx: Context, input: CreateWorkspaceInput): Promise<ShownWorkspace> {
  const seq = seqArg(input.seq);
  let priorKnowledge: PriorKnowledge | undefined;
  if (input.priorKnowledge !== undefined) priorKnowledge = await readPriorKnowledge(ctx, input.priorKnowledge);
  else if (input.memory !== false) {
    const memoryPath = resolvePath(ctx, input.memory ?? '.ratchet/memory.json');
    const campaign = await guard(ctx, async () => readCampaign(ctx.cwd, await campaignOptionsWithBackend(ctx, input.workspaceDir)));
    const task = await guard(ctx, () => Promise.resolve(findTask(campaign, seq)));
    // A project without memory yet has no prior knowledge from it (on files: no memory file).
    const shared = await sharedStorageOf(ctx);
    if (shared !== undefined || existsSync(memoryPath)) priorKnowledge = await priorKnowledgeFromMemory(await projectMemory(ctx, memoryPath), taskTopic(task, campaign.objective), Date.now(), await configuredEmbedder(ctx.cwd));
  }
  const runner = input.runner === undefined ? {} : { runner: input.runner };
  return guard(ctx, async () => createWorkspace(ctx.cwd, seq, { ...(await campaignOptionsWithBackend(ctx, input.workspaceDir)), ...runner, ...(priorKnowledge === undefined ? {} : { priorKnowledge }) }));
}

async function readPriorKnowledge(ctx: Context, file: string): Promise<PriorKnowledge> {
  const abs = resolvePath(ctx, file);
  const { value } = await readJsonFile(abs);
  const bad = (why: string): never => {
    throw new CliError(`${why}`, { file: displayPath(ctx, abs), code: 'bad-prior-knowledge' });
  };
  if (!isRecord(value)) return bad('expected {"failures": [...], "patterns": [...]}');
  const failures: unknown[] = Array.isArray(value.failures) ? value.failures : [];
  const patterns: unknown[] = Array.isArray(value.patterns) ? value.patterns : [];
  const str = (o: Record<string, unknown>, k: string, what: string): string => {
    const v = o[k];
    return typeof v === 'string' ? v : bad(`${what}: "${k}" must be a string`);
  };
  const num = (o: Record<string, unknown>, k: string, what: string, fallback?: number): number => {
    const v = o[k];
    return typeof v === 'number' && Number.isFinite(v) ? v : fallback !== undefined && v === undefined ? fallback : bad(`${what}: "${k}" must be a number`);
  };
  return {
    failures: failures.map((o, i) => {
      if (!isObject(o)) return bad(`failures[${i}] must be an object`);
      return { name: str(o, 'name', `failures[${i}]`), trigger: str(o, 'trigger', `failures[${i}]`), fix: typeof o.fix === 'string' ? o.fix : '', cost: num(o, 'cost', `failures[${i}]`, 0), ...(typeof o.match === 'string' ? { match: o.match } : {}) };
    }),
    patterns: patterns.map((o, i) => {
      if (!isObject(o)) return bad(`patterns[${i}] must be an object`);
      return { name: str(o, 'name', `patterns[${i}]`), insight: str(o, 'insight', `patterns[${i}]`), saved: num(o, 'saved', `patterns[${i}]`, 0), ...(typeof o.trigger === 'string' ? { trigger: o.trigger } : {}) };
    }),
  };
}

/** Any object (an array too: the file's entries were never refused for being arrays). */
function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null;
}

function isRecord(v: unknown): v is Record<string, unknown> {
  return isObject(v) && !Array.isArray(v);
}

/** The runner and utilized entries of a finish, checked before anything is read. */
async function finishOptions(ctx: Context, input: FinishWorkspaceInput) {
  const seq = seqArg(input.seq);
  const utilized = parseUtilized(input.utilized ?? []);
  return { seq, opts: { ...(await campaignOptionsWithBackend(ctx, input.workspaceDir)), utilized, ...(input.runner === undefined ? {} : { runner: input.runner }) } };
}

/** Mark the workspace complete with what was delivered (renamed to _complete.xml). */
export async function completeTaskWorkspace(ctx: Context, input: CompleteWorkspaceInput): Promise<ShownWorkspace> {
  const { seq, opts } = await finishOptions(ctx, input);
  const delivered = await readDelivery(ctx, input);
  return guard(ctx, () => completeWorkspace(ctx.cwd, seq, delivered, opts));
}

/** Mark the workspace blocked with the reason (renamed to _blocked.xml; later workspaces see it as a sibling failure). */
export async function blockTaskWorkspace(ctx: Context, input: BlockWorkspaceInput): Promise<ShownWorkspace> {
  const { seq, opts } = await finishOptions(ctx, input);
  return guard(ctx, () => blockWorkspace(ctx.cwd, seq, input.reason, opts));
}

async function readDelivery(ctx: Context, input: CompleteWorkspaceInput): Promise<string> {
  const { delivered, fromFile } = input;
  if (delivered !== undefined && fromFile !== undefined) throw new CliError('give --delivered or --from-file, not both');
  if (delivered !== undefined) return delivered;
  // A delivery larger than a workspace may be is refused while reading, not after.
  if (fromFile === '-') return readStdinLimited(ctx, MAX_WORKSPACE_BYTES, 'the delivery');
  if (fromFile !== undefined) return (await readTextFile(resolvePath(ctx, fromFile), { maxBytes: MAX_WORKSPACE_BYTES })).text;
  throw new CliError('say what was delivered: --delivered TEXT or --from-file FILE');
}

function parseUtilized(values: readonly string[]): Utilized[] {
  return values.map((v) => {
    const m = /^(.+):(failure|pattern)$/.exec(v);
    if (!m) throw new CliError(`--utilized ${v}: expected NAME:failure or NAME:pattern`);
    return { name: m[1]!, type: m[2] === 'failure' ? 'failure' : 'pattern' };
  });
}
