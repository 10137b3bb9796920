/**
 * Where @ratchet/memory and @ratchet/campaign-dag meet. Neither package knows the other (DESIGN.md:
 * the CLI composes them): a workspace's <prior_knowledge> comes from a memory query on its task, and
 * `memory observe` learns from a campaign's finished workspaces.
 */
import type { PriorKnowledge, Task, WorkspaceRecord as CampaignWorkspace } from '@ratchet/campaign-dag';
import { MATCH_BUDGET } from './commands/memory/shared.js';
import type { Document } from '@ratchet/store';
import { MemoryIndex, queryMemory, recordAccess, type Embedder, type MemoryData, type Failure, type Pattern, type WorkspaceRecord as ObservedWorkspace } from '@ratchet/memory';

/**
 * What a memory query for a task's workspace looks for: the task's objective (its description, else
 * the campaign's objective and the task's slug as words) and the names of the files it changes (path
 * segments as words: `src/auth/jwt.ts` -> "src auth jwt ts").
 * Not the task TYPE nor the verify command: "BUILD" or "npm test" are in every task of a kind, so
 * they matched the same failures ("native build" ...) for every task and crowded out the ones its
 * own objective called for.
 */
export function taskTopic(task: Pick<Task, 'slug' | 'delta' | 'description'>, campaignObjective: string): string {
  const objective = task.description ?? `${campaignObjective} ${task.slug.replace(/[-_]+/g, ' ')}`;
  return [objective, ...task.delta.map((f) => f.replace(/[/\\._-]+/g, ' ').trim())].filter((s) => s !== '').join(' ');
}

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
