/**
 * The plan the planner returns (seed 002, "Plan Output Format"): a narrative, then one section per
 * step,
 *
 *     ## Step 1: Gather the facts
 *     Success Criteria: what success looks like
 *     Actions: what to do
 *     Parallelizable with: Step 2, Step 4        (or: None - must wait for Step 2)
 *
 * parsed and checked, every problem with its line and column. The schedule it implies: steps run
 * in the order written, except that a step need not wait for the steps it is declared parallel
 * with; "must wait for Step N" adds an explicit dependency. So step j depends on every earlier step
 * it is not parallel with, plus its explicit waits. That graph must be acyclic (an explicit wait on
 * a later step closes a cycle), and two steps declared parallel must not wait for each other
 * through a third (1 ∥ 3 while 2 is parallel with neither: 3 waits for 2, which waits for 1). The
 * waves (what can run together) are computed by @ratchet/campaign-dag's graph code, as campaigns do.
 */
import { buildIndex, findCycles, topoOrder, waves as graphWaves, type GraphTask } from '@ratchet/campaign-dag';
import type { z } from 'zod';
import type { ParsedPlanSchema } from './schema.js';
import { PLAN_SCHEMA_URL } from './urls.js';

/**
 * A parsed, checked plan (JSON Schema: `@ratchet/goals/schemas/plan.schema.json`): the narrative, the
 * steps, the `waves` of step numbers that can run together once the waves before are done (empty
 * when the plan has errors), and every problem by line then column (`ok`: no error, warnings allowed).
 */
export type ParsedPlan = z.infer<typeof ParsedPlanSchema>;
/**
 * One step: `line` of its `## Step N:` heading, `description` the text between the heading and the
 * first field, `parallel_with` as written, `waits_for` its explicit waits, `depends_on` what it waits
 * for in the schedule (earlier steps it is not parallel with, plus explicit waits).
 */
export type PlanStep = ParsedPlan['steps'][number];
/** A problem in the plan, at a 1-based line and column, and the step it concerns if one. */
export type PlanIssue = ParsedPlan['issues'][number];
export type PlanRule = PlanIssue['rule'];

/** A plan longer than this is refused before its graph is built (an LLM's plan has a handful of steps). */
export const MAX_PLAN_STEPS = 500;

const HEADING = /^ {0,3}#{1,6}\s/;
const STEP_HEADING = /^ {0,3}#{2,3}\s+step\b/i;
const STEP_HEADING_FULL = /^ {0,3}#{2,3}\s+step\s+(\d{1,6})\s*:\s*(.*?)\s*#*\s*$/i;
const FENCE = /^ {0,3}(```|~~~)/;
// `Success Criteria:`, `**Success Criteria:**`, `- **Actions**: ...` (case-insensitive; British spelling too).
const FIELD = /^(\s*(?:[-*+]\s+)?(?:\*\*|__)?\s*)(success criteria|actions|paralleli[sz]able with)\s*(?:\*\*|__)?\s*:\s*(?:\*\*|__)?\s*(.*)$/i;

type FieldName = 'success_criteria' | 'actions' | 'parallel';

interface Draft {
  step: PlanStep;
  fields: Map<FieldName, { line: number; column: number; text: string[] }>;
  description: string[];
  current: FieldName | undefined;
  /** Under a malformed heading: its fields are read (so they do not land in the step before) but not checked. */
  broken?: true;
}

const fieldOf = (label: string): FieldName => {
  const l = label.toLowerCase();
  return l.startsWith('success') ? 'success_criteria' : l === 'actions' ? 'actions' : 'parallel';
};

const FIELD_LABEL: Record<FieldName, string> = { success_criteria: 'Success Criteria', actions: 'Actions', parallel: 'Parallelizable with' };

/** Parse and check a plan; never throws on bad input: every problem is an issue. */
export function parsePlan(text: string): ParsedPlan {
  const issues: PlanIssue[] = [];
  const issue = (rule: PlanRule, severity: PlanIssue['severity'], message: string, line: number, column = 1, step?: number): void => {
    issues.push({ rule, severity, message, line, column, ...(step === undefined ? {} : { step }) });
  };
  const result = (narrative: string, steps: PlanStep[], waves: number[][]): ParsedPlan => {
    issues.sort((a, b) => a.line - b.line || a.column - b.column);
    const ok = !issues.some((i) => i.severity === 'error');
    return { $schema: PLAN_SCHEMA_URL, schemaVersion: 1, narrative, steps, waves: ok ? waves : [], issues, ok };
  };

  const body = text.startsWith('\uFEFF') ? text.slice(1) : text;
  const nul = body.indexOf('\u0000');
  if (nul >= 0) {
    const before = body.slice(0, nul).split(/\r\n|\r|\n/);
    issue('not-text', 'error', 'the plan contains a NUL byte: this is not a text plan', before.length, before[before.length - 1]!.length + 1);
    return result('', [], []);
  }
  const lines = body.split(/\r\n|\r|\n/);

  const narrative: string[] = [];
  const drafts: Draft[] = [];
  let fence: string | undefined;
  for (let i = 0; i < lines.length; i++) {
    const raw = lines[i]!;
    const lineNo = i + 1;
    const draft = drafts[drafts.length - 1];
    const fenceMatch = FENCE.exec(raw);
    if (fence !== undefined || fenceMatch !== null) {
      // Code fences are content: a `## Step` inside one is an example, not a step.
      if (fence === undefined) fence = fenceMatch![1];
      else if (fenceMatch !== null && fenceMatch[1] === fence) fence = undefined;
      append(draft, narrative, raw);
      continue;
    }
    if (STEP_HEADING.test(raw)) {
      const m = STEP_HEADING_FULL.exec(raw);
      if (m === null) {
        issue('step-heading', 'error', `a step heading is written "## Step N: name", got ${JSON.stringify(raw.trim().slice(0, 80))}`, lineNo, raw.search(/\S/) + 1);
        drafts.push({ step: emptyStep(0, '', lineNo), fields: new Map(), description: [], current: undefined, broken: true });
        continue;
      }
      const number = Number(m[1]);
      const name = m[2]!;
      if (name === '') issue('empty-step-name', 'error', `Step ${number} has no name`, lineNo, raw.length + 1, number);
      drafts.push({
        step: emptyStep(number, name, lineNo),
        fields: new Map(),
        description: [],
        current: undefined,
      });
      continue;
    }
    if (draft === undefined) {
      narrative.push(raw);
      continue;
    }
    const f = FIELD.exec(raw);
    if (f !== null) {
      const field = fieldOf(f[2]!);
      const column = f[1]!.length + 1;
      if (draft.fields.has(field) && draft.broken !== true) {
        issue('duplicate-field', 'error', `Step ${draft.step.number} has "${FIELD_LABEL[field]}" twice (first on line ${draft.fields.get(field)!.line})`, lineNo, column, draft.step.number);
        draft.current = undefined;
        continue;
      }
      draft.fields.set(field, { line: lineNo, column, text: [f[3]!] });
      draft.current = field;
      continue;
    }
    // Another heading ends the field it follows (it belongs to the step's description).
    if (HEADING.test(raw)) draft.current = undefined;
    append(draft, narrative, raw);
  }

  const sound = drafts.filter((d) => d.broken !== true);
  const steps = sound.map((d) => finishStep(d, issue));
  const narrativeText = trimBlock(narrative);
  if (steps.length === 0) {
    issue('no-steps', 'error', 'the plan has no steps: each step is a section "## Step N: name" with Success Criteria, Actions and Parallelizable with', lines.length > 0 ? 1 : 1);
    return result(narrativeText, [], []);
  }
  if (narrativeText === '') issue('empty-narrative', 'warning', 'the plan has no narrative before its first step: say what the strategy is', 1);
  if (steps.length > MAX_PLAN_STEPS) {
    issue('too-many-steps', 'error', `the plan has ${steps.length} steps, more than ${MAX_PLAN_STEPS}: split it`, steps[MAX_PLAN_STEPS]!.line);
    return result(narrativeText, steps, []);
  }
  // A malformed heading leaves the numbering unknown: the schedule would only add noise.
  const waves = checkSchedule(steps, sound, issue, sound.length === drafts.length);
  return result(narrativeText, steps, waves);
}

const emptyStep = (number: number, name: string, line: number): PlanStep => ({ number, name, line, description: '', success_criteria: '', actions: '', parallel_with: [], waits_for: [], depends_on: [] });

function append(draft: Draft | undefined, narrative: string[], raw: string): void {
  if (draft === undefined) narrative.push(raw);
  else if (draft.current !== undefined) draft.fields.get(draft.current)!.text.push(raw);
  else draft.description.push(raw);
}

/** Leading and trailing blank lines dropped, each line's trailing blanks too. */
function trimBlock(lines: readonly string[]): string {
  const out = lines.map((l) => l.trimEnd());
  while (out.length > 0 && out[0] === '') out.shift();
  while (out.length > 0 && out[out.length - 1] === '') out.pop();
  return out.join('\n');
}

type IssueFn = (rule: PlanRule, severity: PlanIssue['severity'], message: string, line: number, column?: number, step?: number) => void;

function finishStep(d: Draft, issue: IssueFn): PlanStep {
  const s = d.step;
  s.description = trimBlock(d.description);
  const criteria = d.fields.get('success_criteria');
  s.success_criteria = criteria === undefined ? '' : trimBlock(criteria.text);
  if (criteria === undefined) issue('missing-success-criteria', 'error', `Step ${s.number} has no "Success Criteria:": how will the executor know it succeeded?`, s.line, 1, s.number);
  else if (s.success_criteria === '') issue('missing-success-criteria', 'error', `Step ${s.number}'s "Success Criteria:" is empty`, criteria.line, criteria.column, s.number);
  const actions = d.fields.get('actions');
  s.actions = actions === undefined ? '' : trimBlock(actions.text);
  if (actions === undefined || s.actions === '') issue('missing-actions', 'warning', `Step ${s.number} says no "Actions:": what should the executor do?`, actions?.line ?? s.line, actions?.column ?? 1, s.number);
  const parallel = d.fields.get('parallel');
  if (parallel === undefined) issue('missing-parallel', 'warning', `Step ${s.number} has no "Parallelizable with:" (read as None: it waits for every earlier step)`, s.line, 1, s.number);
  else parseParallel(s, parallel, issue);
  return s;
}

/** `Step 2, Step 4` | `[Step 2, Step 4]` | `Steps 2 and 4` | `2, 4` | `None` | `None - must wait for Step 2`. */
function parseParallel(s: PlanStep, field: { line: number; column: number; text: string[] }, issue: IssueFn): void {
  const value = trimBlock(field.text).replace(/\s+/g, ' ');
  const inner = value.replace(/^[[(]\s*/, '').replace(/\s*[\])]\s*$/, '');
  if (inner === '') {
    issue('parallel-syntax', 'error', `Step ${s.number}'s "Parallelizable with:" is empty: write the steps (Step 2, Step 4) or None`, field.line, field.column, s.number);
    return;
  }
  const none = /^(?:none|n\/a|no)\b(.*)$/i.exec(inner);
  if (none !== null) {
    // "None - must wait for Step 2 and Step 3": the numbers named after a wait are explicit waits.
    const rest = none[1]!;
    const wait = /\b(?:wait|waits|after|depends?|until)\b(.*)$/i.exec(rest);
    if (wait !== null) s.waits_for = [...new Set([...wait[1]!.matchAll(/\d+/g)].map((m) => Number(m[0])))];
    return;
  }
  const tokens = inner.split(/\s*(?:,|;|&|\band\b)\s*/i).filter((t) => t !== '');
  const numbers: number[] = [];
  for (const token of tokens) {
    const m = /^(?:steps?\s*)?(\d{1,6})$/i.exec(token);
    if (m === null) {
      issue('parallel-syntax', 'error', `Step ${s.number}'s "Parallelizable with:" lists ${JSON.stringify(token.slice(0, 60))}: write step numbers (Step 2, Step 4) or None`, field.line, field.column, s.number);
      return;
    }
    numbers.push(Number(m[1]));
  }
  s.parallel_with = [...new Set(numbers)];
}

/** The schedule's checks; returns the waves when the graph is sound. */
function checkSchedule(steps: PlanStep[], drafts: readonly Draft[], issue: IssueFn, complete: boolean): number[][] {
  const byNumber = new Map<number, number>();
  let numbering = true;
  steps.forEach((s, i) => {
    if (byNumber.has(s.number)) {
      issue('duplicate-step', 'error', `Step ${s.number} is defined twice (first on line ${steps[byNumber.get(s.number)!]!.line})`, s.line, 1, s.number);
      numbering = false;
      return;
    }
    byNumber.set(s.number, i);
    if (s.number !== i + 1) {
      issue('step-number', 'error', `steps are numbered 1, 2, 3... in the order written: expected Step ${i + 1} here, got Step ${s.number}`, s.line, 1, s.number);
      numbering = false;
    }
  });
  const placeOf = (s: PlanStep, i: number): { line: number; column: number } => {
    const f = drafts[i]!.fields.get('parallel');
    return f === undefined ? { line: s.line, column: 1 } : { line: f.line, column: f.column };
  };
  // Parallel and wait references: existing, not self, symmetric.
  let references = true;
  steps.forEach((s, i) => {
    const at = placeOf(s, i);
    for (const n of [...s.parallel_with, ...s.waits_for]) {
      if (!byNumber.has(n)) {
        issue('unknown-step', 'error', `Step ${s.number} names Step ${n}, which the plan does not have`, at.line, at.column, s.number);
        references = false;
      } else if (n === s.number) {
        issue('self-parallel', 'error', `Step ${s.number} names itself`, at.line, at.column, s.number);
        references = false;
      }
    }
    for (const n of s.parallel_with) {
      const other = byNumber.has(n) ? steps[byNumber.get(n)!] : undefined;
      if (other === undefined || n === s.number) continue;
      if (!other.parallel_with.includes(s.number)) {
        issue('asymmetric-parallel', 'error', `Step ${s.number} is parallelizable with Step ${n}, but Step ${n} does not list Step ${s.number}: parallel runs both ways`, at.line, at.column, s.number);
      }
      if (s.waits_for.includes(n)) issue('parallel-conflict', 'error', `Step ${s.number} both runs alongside and waits for Step ${n}`, at.line, at.column, s.number);
    }
  });
  if (!numbering || !references || !complete) return [];

  // The dependency graph: earlier steps not declared parallel (either way), plus explicit waits.
  const n = steps.length;
  const parallel = (a: PlanStep, b: PlanStep): boolean => a.parallel_with.includes(b.number) || b.parallel_with.includes(a.number);
  const tasks: GraphTask[] = steps.map((s, j) => {
    const deps = new Set<number>();
    for (let i = 0; i < j; i++) if (!parallel(steps[i]!, s)) deps.add(steps[i]!.number);
    for (const w of s.waits_for) deps.add(w);
    s.depends_on = [...deps].sort((a, b) => a - b);
    return { seq: s.number, depends: s.depends_on };
  });
  const index = buildIndex(tasks);
  const topo = topoOrder(index);
  const cycles = findCycles(index, topo);
  for (const cycle of cycles) {
    const names = cycle.map((i) => `Step ${steps[i]!.number}`);
    const first = steps[cycle[0]!]!;
    const at = placeOf(first, cycle[0]!);
    issue('cycle', 'error', `the steps wait for each other in a cycle: ${names.join(' waits for ')} (steps run in the order written: a step cannot wait for a later one that waits for it)`, at.line, at.column, first.number);
  }
  if (cycles.length > 0) return [];

  // Declared parallel, yet one waits for the other through a third step.
  const reported = new Set<string>();
  steps.forEach((s, i) => {
    for (const m of s.parallel_with) {
      const j = m - 1;
      const [lo, hi] = i < j ? [i, j] : [j, i];
      const key = `${lo}:${hi}`;
      // An explicit wait between the two is reported above already.
      if (reported.has(key) || steps[hi]!.waits_for.includes(lo + 1) || steps[lo]!.waits_for.includes(hi + 1)) continue;
      const path = waitPath(tasks, hi, lo, n);
      if (path === undefined) continue;
      reported.add(key);
      const at = placeOf(s, i);
      const chain = path.map((k) => `Step ${steps[k]!.number}`).join(' waits for ');
      issue('parallel-conflict', 'error', `Step ${steps[lo]!.number} and Step ${steps[hi]!.number} are declared parallel, but ${chain} (steps run in the order written unless declared parallel)`, at.line, at.column, s.number);
    }
  });
  return graphWaves(tasks, index);
}

/** A chain of waits from step index `from` down to `to` (indexes = number - 1), if any. */
function waitPath(tasks: readonly GraphTask[], from: number, to: number, n: number): number[] | undefined {
  const parent = new Int32Array(n).fill(-1);
  const queue = [from];
  parent[from] = from;
  for (let h = 0; h < queue.length; h++) {
    const v = queue[h]!;
    for (const d of tasks[v]!.depends) {
      const u = d - 1;
      if (parent[u] !== -1) continue;
      parent[u] = v;
      if (u === to) {
        const path = [u];
        for (let x = v; ; x = parent[x]!) {
          path.push(x);
          if (x === from) break;
        }
        return path.reverse();
      }
      queue.push(u);
    }
  }
  return undefined;
}
