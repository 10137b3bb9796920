import type { Assessment } from '@ratchet/goals';
import { line } from './actions.js';

/** A turn's assessment as text lines: what `turn assess` prints, and what SessionStart shows the top of. */
export function assessmentLines(r: Assessment, only?: 'agent' | 'user'): string[] {
  const out = [`state v${r.version}: ${r.counts.pending} pending (${r.counts.agent} agent, ${r.counts.user} user), ${r.counts.overdue} overdue, ${r.counts.escalation_due} to escalate`, 'Goals:'];
  for (const g of r.goals) out.push(`  ${g.id}  p${g.priority}  ${Math.round(g.progress * 100)}%  ${g.title}`);
  for (const owner of only === undefined ? (['agent', 'user'] as const) : [only]) {
    out.push(`Next for the ${owner}:`);
    for (const a of r.by_owner[owner]) out.push(`  ${line(a.action)}${a.overdue ? '  OVERDUE' : ''}${a.escalation_due ? '  ESCALATE' : ''}`);
  }
  if (r.questions.length > 0) {
    out.push('Questions:');
    for (const { question, story } of r.questions) out.push(`  ${question.id}  ${question.text}${story !== undefined ? `  — ${story.narrative} (${story.acceptance_criteria.length} criteria, ${story.evidence_refs.length} evidence)` : ''}`);
  }
  return out;
}
