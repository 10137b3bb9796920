/**
 * Where @ratchet/memory and @ratchet/campaign-dag meet. Neither package knows the other (DESIGN.md:
 * the CLI composes them): a workspace's <prior_knowledge> comes from a memory query on its task, and
 * `memory observe` learns from a campaign's finished workspaces.
 */
import type { PriorKnowledge, Task, WorkspaceRecord as CampaignWorkspace } from '@ratchet/campaign-dag';
import { MATCH_BUDGET } from './commands/memory/shared.js';
import type { Document } from '@ratchet/store';
import { MemoryIndex, queryMemory, recordAccess, tokenize, type Embedder, type MemoryData, type Failure, type Pattern, type WorkspaceRecord as ObservedWorkspace } from '@ratchet/memory';

/**
 * What a memory query for a task's workspace looks for: the task's own words (its description, else
 * its slug as words) and the names of the files it changes (path segments as words, see pathWords:
 * `src/auth/jwt.ts` -> "auth jwt"). Not the campaign objective: every task of the campaign
 * shares it (FTL writes it into every workspace), so it pulled the same entries into every task's
 * prior knowledge; it stands in only for a task that says less than MIN_TASK_WORDS itself. Not the
 * task TYPE nor the verify command either: "BUILD" or "npm test" are in every task of a kind.
 */
export function taskTopic(task: Pick<Task, 'slug' | 'delta' | 'description'>, campaignObjective: string): string {
  const own = [task.description ?? task.slug.replace(/[-_]+/g, ' '), ...task.delta.map(pathWords)].filter((s) => s.trim() !== '').join(' ');
  return new Set(tokenize(own)).size >= MIN_TASK_WORDS ? own : [campaignObjective, own].filter((s) => s.trim() !== '').join(' ');
}

/**
 * A file's path as query words, without what nearly every path has: its extension and the usual
 * top directories (`src/token/sign.ts` -> "token sign"). "src" and "ts" matched every entry that
 * names a file, whatever the task.
 */
function pathWords(path: string): string {
  const segments = path.replace(/\.[A-Za-z0-9]{1,8}$/, '').split(/[/\\]+/);
  return segments.filter((s, i) => !(i < segments.length - 1 && COMMON_DIRS.has(s.toLowerCase()))).join(' ').replace(/[._-]+/g, ' ').trim();
}

const COMMON_DIRS = new Set(['src', 'lib', 'app', 'apps', 'packages', 'pkg', 'source', 'sources', 'test', 'tests', '.', '..', '']);

/** Fewer distinct words than this, and a task's query borrows the campaign objective. */
export const MIN_TASK_WORDS = 2;

/**
 * Prior knowledge from `memory` (the project's memory, see `projectMemory`) for `topic`. Injecting an entry into a workspace is an access (FTL counted it): the entries' access_count
 * and last_accessed are updated in the same locked update that read them.
 */
export async function priorKnowledgeFromMemory(memory: Document<MemoryData>, topic: string, now: number, embedder?: Embedder): Promise<PriorKnowledge> {
  const options = { now, matchBudget: MATCH_BUDGET };
  const data = await memory.read();
  const result = embedder === undefined ? queryMemory(data, topic, options) : await new MemoryIndex(data).queryWith(embedder, topic, options);
  // Counted under the lock, for the entries still there (another process may have pruned one since
  // the read); no write at all when nothing was injected.
  const names = [...result.failures, ...result.patterns].map((h) => h.name);
  if (names.length > 0) await memory.update((draft) => void recordAccess(draft, names.filter((n) => [...draft.failures, ...draft.patterns].some((e) => e.name === n)), now));
  return {
    failures: result.failures.map((hit) => {
      const f = hit.entry as Failure;
      return { name: f.name, trigger: f.trigger, fix: f.fix, cost: f.cost, source: f.source, ...(f.match !== null ? { match: f.match } : {}) };
    }),
    patterns: result.patterns.map((hit) => {
      const p = hit.entry as Pattern;
      return { name: p.name, trigger: p.trigger, insight: p.insight, saved: p.saved, source: p.source };
    }),
  };
}

/**
 * A finished workspace as memory's observer reads it (active ones are skipped; a retried task's
 * failed earlier attempts are finished workspaces too, each with its attempt number). Entries the
 * builder reports having used count as helped in a completed workspace and as failed in a blocked
 * one; entries that were not injected from memory (sibling and earlier-attempt failures) are not
 * memory's to get feedback.
 */
export function toObserved(record: CampaignWorkspace): ObservedWorkspace | undefined {
  if (record.status === 'active') return undefined;
  const outcome = record.status === 'complete' ? 'helped' : 'failed';
  const ephemeral = new Set([...record.priorKnowledge.failures, ...record.priorKnowledge.patterns].filter((e) => !e.injected).map((e) => e.name));
  return {
    seq: record.seq,
    slug: record.slug,
    ...(record.attempt === undefined ? {} : { attempt: record.attempt }),
    status: record.status,
    objective: record.objective,
    delta: record.delta,
    verify: record.verify,
    budget: record.budget,
    delivered: record.delivered,
    failure: record.blockedReason,
    utilization: record.utilization.filter((u) => !ephemeral.has(u.name)).map((u) => ({ name: u.name, type: u.type, outcome })),
  };
}
