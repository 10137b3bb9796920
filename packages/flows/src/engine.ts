/**
 * The functional core: session state transitions over a checked Flow. No I/O: gates are resolved to
 * project paths here and evaluated by the caller (runner.ts), the clock is a parameter.
 */
import { FlowError } from './errors.js';
import { SESSION_ID, checkSessionId } from './ids.js';
import { nextStatus } from './status.js';
import { placeholders, renderTemplate, resolveInside, valuePathProblem, VAR_NAME } from './template.js';
import type { Branch, Flow, Gate, SessionMode, SessionState, SkipCondition, Step, Verdict } from './types.js';
import { describeCondition } from './render.js';
import { checkValues } from './values.js';

export { SESSION_ID, checkSessionId };
/** The seed's Johari ASK: at most five clarifying questions. */
export const MAX_QUESTIONS = 5;
const CONTROL = /\p{Cc}/u;

/** A gate with its path filled in: what must exist, and why. */
export interface ResolvedGate {
  /** Project-relative path, variables filled in. */
  artifact: string;
  /** Absolute path (inside the project). */
  path: string;
  minLength: number;
  headings: string[];
  /** What the gate stands for: `agent analysis-agent`, `memory-agent 1 -> 2`, `step gate`, `branch design`. */
  why: string;
}


/** Check user-supplied variables (--input, --set): names are identifiers, values are one line. */
export function checkVars(vars: Readonly<Record<string, string>>, what: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(vars)) {
    if (!VAR_NAME.test(name)) throw new FlowError('bad-input', `${what} name ${JSON.stringify(name)} must start with a letter and use letters, digits and "_"`);
    if (typeof value !== 'string' || CONTROL.test(value)) throw new FlowError('bad-input', `${what} ${name} must be one line of text without control characters`);
    out[name] = value;
  }
  return out;
}

export function findStep(flow: Flow, id: string | null): Step {
  const step = flow.steps.find((s) => s.id === id);
  if (!step) throw new FlowError('flow-changed', `the session is at step "${String(id)}", which flow "${flow.id}" no longer has (was the flow file edited?)`);
  return step;
}

export interface NewSession {
  sessionId: string;
  /** How to find the flow again (the runner's lookup key). */
  ref: string;
  mode?: SessionMode;
  inputs?: Readonly<Record<string, string>>;
  now: string;
  /** The flow names the caller knows, to check inputs declared `values: "flows"` (unchecked without it). */
  flows?: readonly string[];
}

/** A fresh session positioned at the start step (OPTIONAL steps after it are skipped as they are reached). */
export function createSession(flow: Flow, input: NewSession): SessionState {
  checkSessionId(input.sessionId);
  const given = checkVars(input.inputs ?? {}, 'input');
  for (const name of Object.keys(given)) {
    if (name !== 'task' && !Object.hasOwn(flow.inputs, name)) {
      const known = ['task', ...Object.keys(flow.inputs)].join(', ');
      throw new FlowError('bad-input', `flow "${flow.id}" has no input "${name}" (inputs: ${known})`);
    }
  }
  checkValues(flow, given, '--input', input.flows);
  const vars: Record<string, string> = {};
  for (const [name, decl] of Object.entries(flow.inputs)) {
    const value = given[name] ?? decl.default;
    if (value === undefined) {
      if (decl.required) throw new FlowError('bad-input', `flow "${flow.id}" needs --input ${name}=...${decl.description ? ` (${decl.description})` : ''}`);
    } else vars[name] = value;
  }
  if (given.task !== undefined) vars.task = given.task;
  const state: SessionState = {
    sessionId: input.sessionId,
    flow: { id: flow.id, ref: input.ref },
    mode: input.mode ?? 'normal',
    status: 'EXECUTING',
    current: null,
    vars,
    visits: {},
    iterations: {},
    remediations: {},
    branches: {},
    notes: {},
    haltReason: null,
    clarificationQuestions: [],
    clarificationAnswers: [],
    history: [{ event: 'start', step: null, at: input.now }],
    revision: 1,
    baseline: {},
    stepOutputs: {},
    then: [],
    verdicts: {},
  };
  enter(flow, state, flow.start, input.now);
  return state;
}

/** Move to `target` (null: complete). OPTIONAL steps whose skip condition holds are passed over. */
export function enter(flow: Flow, state: SessionState, target: string | null, now: string): void {
  let id = target;
  const seen = new Set<string>();
  while (id !== null) {
    const step = findStep(flow, id);
    if (step.type === 'OPTIONAL' && step.skip !== undefined && holds(step.skip, state) && !seen.has(id)) {
      seen.add(id);
      state.history.push({ event: 'skip', step: id, at: now, detail: describeSkip(step.skip) });
      id = step.next;
      continue;
    }
    state.current = id;
    state.visits[id] = (state.visits[id] ?? 0) + 1;
    if (step.type === 'PARALLEL') state.branches[id] = [];
    state.history.push({ event: 'enter', step: id, at: now });
    return;
  }
  state.current = null;
  // A skill's learnings come before it is fully complete (the original's LEARNINGS_PENDING).
  state.status = nextStatus(state, flow.learningsGate !== undefined ? 'phases-done' : 'complete');
  state.history.push({ event: 'complete', step: null, at: now });
}

/** The step the session actually lands on when moving to `target` (OPTIONAL steps whose condition holds are passed over); null: the flow completes. */
export function landingStep(flow: Flow, state: SessionState, target: string | null): string | null {
  let id = target;
  const seen = new Set<string>();
  while (id !== null) {
    const step = findStep(flow, id);
    if (step.type !== 'OPTIONAL' || step.skip === undefined || !holds(step.skip, state) || seen.has(id)) return id;
    seen.add(id);
    id = step.next;
  }
  return null;
}

export function holds(cond: SkipCondition, state: SessionState): boolean {
  if ('not' in cond) return !holds(cond.not, state);
  if ('mode' in cond) return state.mode === cond.mode;
  const value = Object.hasOwn(state.vars, cond.input) ? state.vars[cond.input] : undefined;
  return cond.equals === undefined ? value !== undefined && value !== '' : value === cond.equals;
}

/** What the variable a condition names holds now: ` (confidence is "MEDIUM")`. */
function describeNow(cond: SkipCondition, vars: Readonly<Record<string, string>>): string {
  if ('not' in cond) return describeNow(cond.not, vars);
  if ('mode' in cond) return '';
  return Object.hasOwn(vars, cond.input) ? ` (${cond.input} is ${JSON.stringify(vars[cond.input])})` : ` (${cond.input} is not set)`;
}

function describeSkip(cond: SkipCondition): string {
  if ('not' in cond) return `not (${describeSkip(cond.not)})`;
  if ('mode' in cond) return `mode is ${cond.mode}`;
  return cond.equals === undefined ? `input ${cond.input} is set` : `input ${cond.input} is "${cond.equals}"`;
}

/** The variables templates see at a step. */
export function varsAt(flow: Flow, state: SessionState, step: string | null, extra: Record<string, string> = {}): Record<string, string> {
  const vars: Record<string, string> = Object.create(null) as Record<string, string>;
  Object.assign(vars, state.vars);
  vars.task = state.vars.task ?? state.sessionId;
  vars.session = state.sessionId;
  vars.flow = flow.id;
  if (step !== null) {
    vars.step = step;
    vars.iteration = String(state.visits[step] ?? 1);
  }
  Object.assign(vars, extra);
  // The original's spellings: {task-id}, and {role}, the agent's name without "-agent" (clarification).
  vars['task-id'] = vars.task;
  if (vars.agent !== undefined) vars.role = vars.agent.replace(/-agent$/, '');
  return vars;
}

function resolveGate(gate: Gate, vars: Record<string, string>, root: string, why: string): ResolvedGate {
  for (const name of placeholders(gate.artifact)) {
    const value = Object.hasOwn(vars, name) ? vars[name]! : undefined;
    const problem = value === undefined ? undefined : valuePathProblem(value);
    if (problem !== undefined) {
      throw new FlowError('artifact-outside-project', `{${name}} is ${JSON.stringify(value)}, which ${problem}: it cannot go into the artifact path ${gate.artifact} (${why})`);
    }
  }
  const artifact = renderTemplate(gate.artifact, vars);
  return { artifact, path: resolveInside(root, artifact), minLength: gate.minLength, headings: gate.headings, why };
}

/** Every artifact gate of a step: the agent memory file of each agent it invokes, then its own gates. */
export function stepGates(flow: Flow, state: SessionState, step: Step, root: string): ResolvedGate[] {
  const out: ResolvedGate[] = [];
  const agents = [...(step.agent !== undefined ? [step.agent] : []), ...step.iterationAgents];
  if (flow.agentGate) for (const agent of agents) out.push(resolveGate(flow.agentGate, varsAt(flow, state, step.id, { agent }), root, `memory file of agent ${agent}`));
  const extra: Record<string, string> = step.agent !== undefined ? { agent: step.agent } : {};
  for (const gate of step.gates) out.push(resolveGate(gate, varsAt(flow, state, step.id, extra), root, `step ${step.id} artifact`));
  return out;
}

export function branchGates(flow: Flow, state: SessionState, step: Step, branch: Branch, root: string): ResolvedGate[] {
  const out: ResolvedGate[] = [];
  const extra: Record<string, string> = { branch: branch.id, ...(branch.agent !== undefined ? { agent: branch.agent } : {}) };
  // Branches name their own files: the agentGate path ({task}-{agent}) would collide with other phases of the same agent.
  for (const gate of branch.gates) out.push(resolveGate(gate, varsAt(flow, state, step.id, extra), root, `branch ${branch.id} artifact`));
  return out;
}

/** A skill's learnings file, checked in LEARNINGS_PENDING. */
export function learningsGates(flow: Flow, state: SessionState, root: string): ResolvedGate[] {
  return flow.learningsGate ? [resolveGate(flow.learningsGate, varsAt(flow, state, null), root, `learnings of skill ${flow.id}`)] : [];
}

/**
 * The file whose verdict line decides a REMEDIATION step: `verdictFrom`, else the memory file of the
 * step's agent (the validation agent writes its verdict there).
 */
export function verdictGate(flow: Flow, state: SessionState, step: Step, root: string): ResolvedGate | undefined {
  const template = step.verdictFrom ?? (step.agent !== undefined ? flow.agentGate?.artifact : undefined);
  if (template === undefined) return undefined;
  return resolveGate({ artifact: template, minLength: 1, headings: [] }, varsAt(flow, state, step.id, step.agent !== undefined ? { agent: step.agent } : {}), root, `verdict of step ${step.id}`);
}

/** The memory-agent's file for the transition from -> to (invariant 6), if the flow declares one. */
export function transitionGate(flow: Flow, state: SessionState, from: string, to: string, root: string): ResolvedGate | undefined {
  if (!flow.transitionGate) return undefined;
  return resolveGate(flow.transitionGate, varsAt(flow, state, from, { from, to }), root, `memory-agent file for the transition ${from} -> ${to}`);
}

/**
 * Resolve every artifact path the current step will check, so a variable that moves one outside
 * the project is refused before the state that would need it is saved.
 */
export function assertGatePaths(flow: Flow, state: SessionState, root: string): void {
  if (state.current === null) return;
  const step = findStep(flow, state.current);
  stepGates(flow, state, step, root);
  for (const b of step.branches) branchGates(flow, state, step, b, root);
  const to = landingStep(flow, state, step.next);
  if (to !== null) transitionGate(flow, state, step.id, to, root);
}

/**
 * Every artifact leaving the current step may check, whichever way it leaves (next, loop-back,
 * remediation, each branch): what the runner digests when the step is entered (fresh.ts).
 */
export function entryArtifacts(flow: Flow, state: SessionState, root: string): ResolvedGate[] {
  if (state.status === 'LEARNINGS_PENDING') return learningsGates(flow, state, root);
  if (state.current === null) return [];
  const step = findStep(flow, state.current);
  const out = stepGates(flow, state, step, root);
  for (const b of step.branches) out.push(...branchGates(flow, state, step, b, root));
  const verdict = step.type === 'REMEDIATION' ? verdictGate(flow, state, step, root) : undefined;
  if (verdict !== undefined && !out.some((g) => g.artifact === verdict.artifact)) out.push(verdict);
  const exits = [step.next, step.type === 'ITERATIVE' ? (step.loopTo ?? step.id) : null, step.type === 'REMEDIATION' ? (step.remediationTarget ?? null) : null];
  for (const exit of exits) {
    const to = exit === null ? null : landingStep(flow, state, exit);
    if (to === null) continue;
    const t = transitionGate(flow, state, step.id, to, root);
    if (t) out.push(t);
  }
  return out;
}

export type AdvanceKind = 'next' | 'loop' | 'remediate';

export interface AdvancePlan {
  step: Step;
  kind: AdvanceKind;
  /** Where the session goes; null completes the flow. */
  target: string | null;
  /** Gates that must hold, in the order they are reported. */
  gates: ResolvedGate[];
  /** Problems that are not files: variables not set, branches not completed, a limit reached. */
  blockers: string[];
}

/** What leaving the current step needs. Throws FlowError for misuse (wrong step type, inactive session). */
export function planAdvance(flow: Flow, state: SessionState, kind: AdvanceKind, root: string, pendingVars: Readonly<Record<string, string>> = {}, output?: string): AdvancePlan {
  nextStatus(state, kind === 'next' ? 'advance' : kind);
  const step = findStep(flow, state.current);
  const blockers: string[] = [];
  let target: string | null;
  if (kind === 'loop') {
    if (step.type !== 'ITERATIVE') throw new FlowError('wrong-step-type', `--loop only applies to ITERATIVE steps; step ${step.id} is ${step.type}`);
    target = step.loopTo ?? step.id;
    const used = state.iterations[step.id] ?? 0;
    if (used >= step.maxIterations) blockers.push(`iteration limit reached: step ${step.id} has looped back ${used} of ${step.maxIterations} times; advance without --loop, or halt`);
  } else if (kind === 'remediate') {
    if (step.type !== 'REMEDIATION') throw new FlowError('wrong-step-type', `--remediate only applies to REMEDIATION steps; step ${step.id} is ${step.type}`);
    target = step.remediationTarget!;
    const used = state.remediations[step.id] ?? 0;
    if (used >= step.maxRemediation) blockers.push(`remediation limit reached: step ${step.id} has sent the session back ${used} of ${step.maxRemediation} times; advance without --remediate, or halt`);
  } else target = step.next;

  const gates = stepGates(flow, state, step, root);
  for (const name of step.requires) {
    const set = (Object.hasOwn(pendingVars, name) ? pendingVars[name] : Object.hasOwn(state.vars, name) ? state.vars[name] : undefined) ?? '';
    if (set === '') blockers.push(`variable "${name}" is not set: pass --set ${name}=...`);
  }
  if (step.output !== undefined && output === undefined) {
    blockers.push(`step ${step.id} hands in its output: pass --output FILE (or --output - to read it from standard input)`);
  }
  if (step.haltUnless !== undefined) {
    const vars = { ...state.vars, ...pendingVars };
    if (!holds(step.haltUnless, { ...state, vars })) {
      blockers.push(`step ${step.id} goes on only when ${describeCondition(step.haltUnless)}${describeNow(step.haltUnless, vars)}: do not guess; ask the user with --question "..." (the session halts until they answer)`);
    }
  }
  if (step.type === 'PARALLEL') {
    const done = new Set(state.branches[step.id] ?? []);
    for (const b of step.branches) if (!done.has(b.id)) blockers.push(`branch ${step.id}:${b.id} (${b.title}) is not completed: run complete-branch ${step.id}:${b.id}`);
  }
  const landing = landingStep(flow, state, target);
  if (landing !== null) {
    const t = transitionGate(flow, state, step.id, landing, root);
    if (t) gates.push(t);
  }
  return { step, kind, target, gates, blockers };
}

/** Apply a plan whose gates held. */
export function applyAdvance(flow: Flow, state: SessionState, plan: AdvancePlan, now: string): void {
  const { step, kind, target } = plan;
  if (kind === 'loop') state.iterations[step.id] = (state.iterations[step.id] ?? 0) + 1;
  if (kind === 'remediate') state.remediations[step.id] = (state.remediations[step.id] ?? 0) + 1;
  state.history.push({ event: kind === 'next' ? 'leave' : kind, step: step.id, to: target, at: now });
  enter(flow, state, target, now);
  state.revision++;
}

export function setVars(state: SessionState, vars: Readonly<Record<string, string>>, now: string): void {
  for (const [name, value] of Object.entries(checkVars(vars, '--set'))) {
    if (['session', 'flow', 'step', 'iteration', 'agent', 'role', 'from', 'to', 'branch'].includes(name)) throw new FlowError('bad-input', `--set ${name}: "${name}" is a reserved variable`);
    state.vars[name] = value;
    state.history.push({ event: 'set', step: state.current, at: now, detail: name });
  }
}

/** Keep the verdict a REMEDIATION step read, for its current visit. */
export function recordVerdict(state: SessionState, step: string, verdict: Verdict, at: string, report?: string): void {
  (state.verdicts[step] ??= []).push({ visit: state.visits[step] ?? 1, verdict, at, ...(report !== undefined ? { report } : {}) });
}

/** Whether `report` (reportDigest) is a report this step already failed on: a PASS made of it is an edited FAIL. */
export function failedBefore(state: SessionState, step: string, report: string): boolean {
  return (state.verdicts[step] ?? []).some((v) => v.verdict === 'FAIL' && v.report === report);
}

/** Keep what `step` handed in, for its current visit. */
export function recordOutput(state: SessionState, step: string, text: string, digest: string, at: string): void {
  (state.stepOutputs[step] ??= []).push({ visit: state.visits[step] ?? 1, text, digest, at });
}

export function addNotes(state: SessionState, notes: readonly string[]): void {
  if (notes.length === 0) return;
  const key = state.current ?? '(end)';
  for (const note of notes) if (note.includes('\0')) throw new FlowError('bad-input', 'a note must not contain NUL characters');
  (state.notes[key] ??= []).push(...notes);
}

/** Record clarifying questions: halts the session when the step asks for it (the Johari step 0). */
export function recordQuestions(flow: Flow, state: SessionState, questions: readonly string[], now: string): void {
  const step = findStep(flow, state.current);
  if (!step.haltOnQuestions) throw new FlowError('bad-input', `step ${step.id} does not take clarifying questions (--question)`);
  if (questions.length > MAX_QUESTIONS) throw new FlowError('bad-input', `at most ${MAX_QUESTIONS} clarifying questions, got ${questions.length}: ask only what is critical`);
  for (const q of questions) if (q.trim() === '' || CONTROL.test(q)) throw new FlowError('bad-input', 'a question must be one non-empty line');
  halt(state, `clarification needed at step ${step.id}: ${questions.length} question${questions.length > 1 ? 's' : ''} for the user`, now);
  state.clarificationQuestions = [...questions];
  state.clarificationAnswers = [];
}

/** Questions asked at the last clarification halt that have no answers yet. */
export function openQuestions(state: SessionState): string[] {
  return state.clarificationAnswers.length === 0 ? state.clarificationQuestions : [];
}

export function halt(state: SessionState, reason: string, now: string): void {
  const to = nextStatus(state, 'halt');
  if (reason.trim() === '' || CONTROL.test(reason)) throw new FlowError('bad-input', 'a halt reason must be one non-empty line');
  state.status = to;
  state.haltReason = reason;
  state.history.push({ event: 'halt', step: state.current, at: now, detail: reason });
  state.revision++;
}

/**
 * Continue a halted session. A halt with questions is resumed with the user's answers, one per
 * question: the questions stay, the answers are kept beside them and noted on the step (a later
 * clarification halt replaces both, the notes keep every round).
 */
export function resume(state: SessionState, answers: readonly string[], now: string): void {
  const status = nextStatus(state, 'resume');
  const open = openQuestions(state);
  if (answers.length !== open.length) {
    const asked = open.map((q, i) => `${i + 1}. ${q}`).join(' ');
    throw new FlowError(
      'bad-input',
      open.length === 0
        ? `session ${state.sessionId} halted without questions: there is nothing to --answer`
        : `session ${state.sessionId} halted with ${open.length} question${open.length > 1 ? 's' : ''} for the user: resume needs one --answer per question, in order (got ${answers.length}): ${asked}`,
    );
  }
  for (const a of answers) if (a.trim() === '' || CONTROL.test(a)) throw new FlowError('bad-input', 'an answer must be one non-empty line of text');
  state.status = status;
  state.history.push({ event: 'resume', step: state.current, at: now, detail: state.haltReason ?? undefined });
  state.haltReason = null;
  if (open.length > 0) {
    state.clarificationAnswers = [...answers];
    (state.notes[state.current ?? '(end)'] ??= []).push(...open.map((q, i) => `Q: ${q} A: ${answers[i]!}`));
  }
  state.revision++;
}

/** `P:B` or `B` (in the current step) -> the PARALLEL step and the branch. */
export function findBranch(flow: Flow, state: SessionState, spec: string): { step: Step; branch: Branch } {
  nextStatus(state, 'branch');
  const current = findStep(flow, state.current);
  const colon = spec.lastIndexOf(':');
  const stepId = colon >= 0 ? spec.slice(0, colon) : current.id;
  const branchId = colon >= 0 ? spec.slice(colon + 1) : spec;
  if (stepId !== current.id) throw new FlowError('unknown-branch', `branch ${spec}: the session is at step ${current.id}, not ${stepId}`);
  if (current.type !== 'PARALLEL') throw new FlowError('wrong-step-type', `step ${current.id} is ${current.type}, not PARALLEL: it has no branches`);
  const branch = current.branches.find((b) => b.id === branchId);
  if (!branch) throw new FlowError('unknown-branch', `step ${current.id} has no branch "${branchId}" (branches: ${current.branches.map((b) => b.id).join(', ')})`);
  return { step: current, branch };
}

export function markBranch(state: SessionState, step: Step, branch: Branch, now: string): void {
  const done = (state.branches[step.id] ??= []);
  if (!done.includes(branch.id)) done.push(branch.id);
  state.history.push({ event: 'branch', step: step.id, at: now, detail: branch.id });
  state.revision++;
}
