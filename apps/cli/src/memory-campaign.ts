/**
 * Where @ratchet/memory and @ratchet/campaign-dag meet. Neither package knows the other (DESIGN.md:
 * the CLI composes them): a workspace's <prior_knowledge> comes from a memory query on its task, and
 * `memory observe` learns from a campaign's finished workspaces.
 */
import { existsSync } from 'node:fs';
import type { PriorKnowledge, Task, WorkspaceRecord as CampaignWorkspace } from '@ratchet/campaign-dag';
import { MATCH_BUDGET } from './commands/memory/shared.js';
import { openMemory, queryMemory, type Failure, type Pattern, type WorkspaceRecord as ObservedWorkspace } from '@ratchet/memory';

/** What a memory query for a task's workspace looks for: the task's name, type, files and verify command, plus the campaign objective. */
export function taskTopic(task: Pick<Task, 'slug' | 'type' | 'delta' | 'verify'>, objective: string): string {
  return [objective, task.slug.replace(/[-_]/g, ' '), task.type, ...task.delta, task.verify].filter((s) => s !== '').join(' ');
}

/** Prior knowledge from the memory file at `path` for `topic`, or undefined when there is no memory yet. */
export async function priorKnowledgeFromMemory(path: string, topic: string, now: number): Promise<PriorKnowledge | undefined> {
  if (!existsSync(path)) return undefined;
  const data = await openMemory(path).read();
  const result = queryMemory(data, topic, { now, matchBudget: MATCH_BUDGET });
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
