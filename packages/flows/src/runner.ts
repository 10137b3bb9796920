/**
 * The I/O shell around the engine: every command is one locked read-modify-write of the session
 * document, and the view (content + directive) is built only after the write returned. So whatever
 * prints the view prints it after the state is on disk (invariant 2). A gate that does not hold
 * aborts the update: nothing is written, the view says what is missing (exit 1 in the CLI).
 */
import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { NotFoundError, StoreError, readTextFileSync } from '@ratchet/store';
import {
  SESSION_ID,
  addNotes,
  applyAdvance,
  assertGatePaths,
  createSession,
  entryArtifacts,
  findBranch,
  branchGates,
  findStep,
  halt,
  learningsGates,
  recordVerdict,
  failedBefore,
  verdictGate,
  type ResolvedGate,
  landingStep,
  markBranch,
  planAdvance,
  recordOutput,
  recordQuestions,
  resume,
  setVars,
  stepGates,
  varsAt,
  type AdvanceKind,
} from './engine.js';
import { FlowError } from './errors.js';
import { contentDigest, snapshot } from './fresh.js';
import { ARTIFACT_MAX_BYTES, evaluateGates, shapeProblems, type GateResult } from './gates.js';
import { findVerdict, reportDigest } from './verdict.js';
import { claimArtifacts, type LedgerEntry } from './ledger.js';
import { isFinished, nextStatus } from './status.js';
import type { LoadedFlow } from './parse.js';
import { handoffOf, nextCommand, prerequisites } from './directive.js';
import { renderTemplate } from './template.js';
import { directiveText, renderDirective, renderView, type GateLine } from './render.js';
import { openSession, SESSIONS_DIR, sessionPath } from './session-file.js';
import type { DirectiveText, Flow, FlowKind, SessionMode, SessionState, Step, StepType, Verdict } from './types.js';
import { withMemoryFiles, type MemoryFileNames } from './settings.js';
import { checkFixedVars, checkFlowNames, checkValues, needsCatalogue } from './values.js';

export interface RunnerOptions {
  /** Absolute project root: sessions live in `<root>/.ratchet/flows/`, artifacts must be inside it. */
  root: string;
  /** Load the flow a session was started with, from the `ref` the session stored. */
  /** The flow a session runs, from the ref it was started with; `sessionId` lets the caller serve the copy pinned for that session. */
  loadFlow: (ref: string, sessionId?: string) => Promise<LoadedFlow>;
  /** Milliseconds since the epoch (history timestamps). Default Date.now. */
  clock?: () => number;
  /** How directives spell the CLI. Default `ratchet`. */
  command?: string;
  /**
   * Directive wording for flows that set no `directive` of their own: a project-wide default (the
   * CLI reads it from `protocols/flow-settings.json`). A flow's own `directive` wins over it.
   */
  defaultDirective?: Partial<DirectiveText>;
  /** Replaces the directive wording of every flow (after the flow's own `directive`). */
  directive?: Partial<DirectiveText>;
  /**
   * The project's memory-file names (the CLI: `memoryFiles` in protocols/flow-settings.json): the
   * path templates of every flow's agent, transition and learnings gates.
   */
  memoryFiles?: MemoryFileNames;
  /**
   * The names of the flows the caller can start (the CLI: project and built-in flows). Variables
   * declared `values: "flows"` (the reasoning protocol's `route`) must name one of them; without
   * this option they are not checked. Called only when such a variable is given.
   */
  flows?: () => readonly string[] | Promise<readonly string[]>;
}

export type Outcome = 'started' | 'advanced' | 'looped' | 'remediated' | 'learnings-pending' | 'completed' | 'halted' | 'resumed' | 'branch-completed' | 'declined' | 'refused' | 'status';

export interface StepView {
  id: string;
  title: string;
  type: StepType;
  content: string;
  agent?: string;
  atomicSkill?: string;
  branches: { id: string; title: string; agent?: string; done: boolean }[];
}

export interface FlowView {
  outcome: Outcome;
  /** False when the command refused (gates, limits): exit 1. */
  ok: boolean;
  session: SessionState;
  /** The session file. */
  file: string;
  flow: { id: string; title: string; kind: FlowKind };
  step: StepView | null;
  /** What must be produced before the current step can be left. */
  gates: GateLine[];
  /** Why the command refused. */
  missing: string[];
  /** The mandatory next command, what must happen before it (agents to invoke, files to write), and its full text. */
  directive: { command: string; before: string[]; text: string };
  /** Everything an agent should read, Markdown. */
  text: string;
}

/** Thrown inside a document update to abort it (nothing is written); never escapes the runner. */
class Refusal extends Error {
  constructor(
    readonly missing: string[],
    readonly command: string,
  ) {
    super('refused');
  }
}

const now = (opts: RunnerOptions): string => new Date((opts.clock ?? Date.now)()).toISOString();
const cli = (opts: RunnerOptions): string => opts.command ?? 'ratchet';

export interface StartInput {
  flow: LoadedFlow;
  /** Stored in the session so later commands find the same flow. */
  ref: string;
  sessionId: string;
  inputs?: Readonly<Record<string, string>>;
  mode?: SessionMode;
  /** Flows to run after this one, in order (dynamic skill sequencing). */
  then?: readonly string[];
}

/** The flow catalogue, when `vars` holds a variable that must name a flow or `then` names flows (and the caller gave one). */
async function catalogue(opts: RunnerOptions, flow: Flow, vars: Readonly<Record<string, string>> | undefined, then: readonly string[] = []): Promise<readonly string[] | undefined> {
  if (opts.flows === undefined) return undefined;
  return then.length > 0 || (vars !== undefined && needsCatalogue(flow, vars)) ? await opts.flows() : undefined;
}

/** The flow as this project runs it: with its memory-file names. */
function projectFlow(opts: RunnerOptions, loaded: LoadedFlow): LoadedFlow {
  return opts.memoryFiles === undefined ? loaded : { ...loaded, flow: withMemoryFiles(loaded.flow, opts.memoryFiles) };
}

export async function startFlow(opts: RunnerOptions, raw: StartInput): Promise<FlowView> {
  const input = { ...raw, flow: projectFlow(opts, raw.flow) };
  const flows = await catalogue(opts, input.flow.flow, input.inputs, input.then);
  checkFlowNames(input.then ?? [], flows);
  const doc = openSession(opts.root, input.sessionId);
  const state = await doc.update(async (draft) => {
    if (draft.revision > 0) {
      throw new FlowError('session-exists', `session ${input.sessionId} already exists (flow ${draft.flow.id}, ${draft.status}${draft.current !== null ? ` at step ${draft.current}` : ''}); continue it with \`${cli(opts)} flow status --session ${input.sessionId}\` or pick another --session`, { path: doc.path });
    }
    const fresh = createSession(input.flow.flow, { sessionId: input.sessionId, ref: input.ref, mode: input.mode ?? 'normal', inputs: input.inputs ?? {}, now: now(opts), ...(flows !== undefined ? { flows } : {}) });
    assertGatePaths(input.flow.flow, fresh, opts.root);
    fresh.then = [...(input.then ?? [])];
    fresh.baseline = await snapshot(opts.root, entryArtifacts(input.flow.flow, fresh, opts.root));
    return fresh;
  });
  return view(opts, input.flow, state, 'started', `Started flow ${input.flow.flow.id} (${input.flow.flow.title}) as session ${state.sessionId}.`);
}

export interface AdvanceInput {
  sessionId: string;
  /** ITERATIVE: go back to the loop target. REMEDIATION: go back to the remediation target. */
  kind?: AdvanceKind;
  /** Session variables to set (e.g. the routing decision), saved with the advance. */
  set?: Readonly<Record<string, string>>;
  notes?: readonly string[];
  /** Clarifying questions: on a step with haltOnQuestions, the session halts instead of advancing. */
  questions?: readonly string[];
  /** What the step hands in (its reasoning, as text), kept in the session's stepOutputs. */
  output?: string;
  /** Flows to run after this one (appended to the session's `then`): a skill naming the next skill. */
  then?: readonly string[];
}

/** A step output larger than this is refused (the session file holds every one). */
export const MAX_OUTPUT_CHARS = 256 * 1024;

export async function advanceFlow(opts: RunnerOptions, input: AdvanceInput): Promise<FlowView> {
  const { doc, loaded } = await openExisting(opts, input.sessionId);
  const requested = input.kind ?? 'next';
  // A FAIL verdict turns a plain advance into a remediation: the outcome reports what happened.
  let kind: AdvanceKind = requested;
  const flows = await catalogue(opts, loaded.flow, input.set, input.then);
  checkFlowNames(input.then ?? [], flows);
  const again = `${cli(opts)} flow advance --session ${input.sessionId}${requested === 'loop' ? ' --loop' : requested === 'remediate' ? ' --remediate' : ''}`;
  let from: string | null = null;
  try {
    const state = await doc.update(async (draft) => {
      requireSession(draft, input.sessionId, doc.path);
      from = draft.current;
      const t = now(opts);
      // A value outside what the flow declares is refused before anything else: nothing is saved.
      checkValues(loaded.flow, input.set ?? {}, '--set', flows);
      checkFixedVars(loaded.flow, draft, input.set ?? {});
      if (input.output !== undefined && input.output.length > MAX_OUTPUT_CHARS) throw new FlowError('bad-input', `the step output has ${input.output.length} characters; at most ${MAX_OUTPUT_CHARS}`);
      draft.then.push(...(input.then ?? []));
      if (input.questions !== undefined && input.questions.length > 0) {
        // An output is handed in when the step is left; a halt leaves it open.
        if (input.output !== undefined) throw new FlowError('bad-input', '--output is handed in when the step is left; with --question the session halts at the step instead: give the output after the user answers');
        nextStatus(draft, 'halt');
        setVars(draft, input.set ?? {}, t);
        addNotes(draft, input.notes ?? []);
        recordQuestions(loaded.flow, draft, input.questions, t);
        assertGatePaths(loaded.flow, draft, opts.root);
        await topUpBaseline(opts, loaded.flow, draft);
        return;
      }
      if (draft.status === 'LEARNINGS_PENDING') {
        await finishLearnings(opts, loaded.flow, draft, requested, input, t, again);
        return;
      }
      nextStatus(draft, requested === 'next' ? 'advance' : requested);
      const step = findStep(loaded.flow, draft.current);
      const judged = step.type === 'REMEDIATION' && requested !== 'loop' ? judgeVerdict(opts.root, loaded.flow, draft, step) : undefined;
      const verdict = judged !== undefined && 'verdict' in judged ? judged.verdict : undefined;
      if (verdict === 'FAIL' && requested === 'next') kind = 'remediate';
      if (verdict === 'FAIL' && (draft.remediations[step.id] ?? 0) >= step.maxRemediation) {
        await haltOnFailedValidation(opts, loaded.flow, draft, step, judged!.gate, 'report' in judged! ? judged.report : undefined, input, t, again);
        return;
      }
      const plan = planAdvance(loaded.flow, draft, kind, opts.root, input.set ?? {}, input.output);
      // A verdict file that is no gate of its own is still held to the same freshness.
      const gates = judged !== undefined && !plan.gates.some((g) => g.artifact === judged.gate.artifact) ? [...plan.gates, judged.gate] : plan.gates;
      const results = await evaluateGates(opts.root, gates, draft.baseline);
      const shape = plan.step.output !== undefined && input.output !== undefined ? shapeProblems(input.output, `the step ${plan.step.id} output`, plan.step.output.minLength, plan.step.output.headings, 'advance --output') : [];
      const verdictFileOk = judged !== undefined && results.every((r) => r.gate.artifact !== judged.gate.artifact || r.ok);
      const verdictProblem = verdictFileOk && 'problem' in judged ? [judged.problem] : [];
      // A PASS made of a report this step failed on, its verdict line changed: no validation ran again.
      if (verdictFileOk && verdict === 'PASS' && 'report' in judged && failedBefore(draft, step.id, judged.report)) {
        verdictProblem.push(`${judged.gate.artifact} is the report that failed at step ${step.id} with its verdict changed to PASS: a PASS after a FAIL must come from a new validation pass (${step.agent !== undefined ? `invoke ${step.agent} again` : 'run the validation again'})`);
      }
      const missing = [...results.flatMap((r) => r.problems), ...verdictProblem, ...shape, ...plan.blockers];
      if (missing.length > 0) throw new Refusal(missing, again);
      const claims = accepted(draft, plan.step.id, results, t);
      if (input.output !== undefined) {
        const digest = contentDigest(input.output);
        // Outputs are claimed like files: the same text handed in for another step, visit or session is a copy.
        claims.push({ digest, session: draft.sessionId, step: plan.step.id, visit: draft.visits[plan.step.id] ?? 1, artifact: `step ${plan.step.id} output`, at: t });
        recordOutput(draft, plan.step.id, input.output, digest, t);
      }
      if (verdict !== undefined) recordVerdict(draft, step.id, verdict, t, 'report' in judged! ? judged.report : undefined);
      setVars(draft, input.set ?? {}, t);
      addNotes(draft, input.notes ?? []);
      applyAdvance(loaded.flow, draft, plan, t);
      handOver(opts, loaded.flow, draft);
      assertGatePaths(loaded.flow, draft, opts.root);
      draft.baseline = await snapshot(opts.root, entryArtifacts(loaded.flow, draft, opts.root));
      // Last, so that nothing after it can abort the update once the ledger holds these files.
      const copies = await claimArtifacts(opts.root, claims);
      if (copies.length > 0) throw new Refusal(copies, again);
    });
    if (state.status === 'HALTED') return view(opts, loaded, state, 'halted', `Halted at step ${state.current ?? '?'}${state.haltReason !== null ? `: ${state.haltReason}` : ''}.`);
    if (isFinished(state.status)) {
      return view(opts, loaded, state, 'completed', from === null ? `Flow ${loaded.flow.id} is fully complete: its learnings are recorded.` : `Flow ${loaded.flow.id} completed (left step ${String(from)}).`);
    }
    if (state.status === 'LEARNINGS_PENDING') return view(opts, loaded, state, 'learnings-pending', `Every phase of ${loaded.flow.id} is done (left step ${String(from)}); its learnings come next.`);
    const outcome: Outcome = kind === 'loop' ? 'looped' : kind === 'remediate' ? 'remediated' : 'advanced';
    const verb = kind === 'loop' ? 'Looped back' : kind === 'remediate' ? `Sent back for remediation${kind !== requested ? ' (the verdict is FAIL)' : ''}` : 'Advanced';
    const skipped = state.history.filter((h) => h.event === 'skip' && h.step !== null).slice(-5);
    const lastLeave = state.history.map((h) => h.event).lastIndexOf(kind === 'next' ? 'leave' : kind);
    const skippedNow = skipped.filter((h) => state.history.indexOf(h) > lastLeave);
    const skipNote = skippedNow.length > 0 ? ` Skipped ${skippedNow.map((h) => `${h.step ?? ''} (${h.detail ?? ''})`).join(', ')}.` : '';
    return view(opts, loaded, state, outcome, `${verb} from step ${String(from)} to step ${state.current ?? '?'}.${skipNote}`);
  } catch (err) {
    if (!(err instanceof Refusal)) throw err;
    const state = await doc.read();
    const where = state.status === 'LEARNINGS_PENDING' ? 'Cannot finish yet: the learnings are missing.' : `Cannot leave step ${state.current ?? '?'} yet.`;
    return view(opts, loaded, state, 'refused', where, err.missing, { kind: requested });
  }
}

/** The verdict a REMEDIATION step's file states (with that file as a gate), or why it states none. */
function judgeVerdict(root: string, flow: Flow, state: SessionState, step: Step): ({ verdict: Verdict; report: string } | { problem: string }) & { gate: ResolvedGate } {
  const gate = verdictGate(flow, state, step, root);
  // checkFlow guarantees a verdict source for REMEDIATION steps; a flow built by hand may lack one.
  if (gate === undefined) throw new FlowError('invalid-flow', `REMEDIATION step ${step.id} has no verdict file: name its agent (with an agentGate) or "verdictFrom"`);
  let text: string;
  try {
    text = readTextFileSync(gate.path, { maxBytes: ARTIFACT_MAX_BYTES }).text;
  } catch (err) {
    const why = err instanceof NotFoundError ? 'does not exist' : 'cannot be read';
    return { problem: `${gate.artifact} ${why}: it holds the verdict of step ${step.id}`, gate };
  }
  const found = findVerdict(text);
  return 'verdict' in found ? { verdict: found.verdict, report: reportDigest(text), gate } : { problem: `${gate.artifact} ${found.problem} (verdict of step ${step.id})`, gate };
}

/**
 * FAIL with the remediations used up: the skill may not complete, and looping further is not
 * allowed, so the session halts for the user. The failed validation's files are accepted (they are
 * real work) and become the baseline: after a resume, only a new validation decides.
 */
async function haltOnFailedValidation(opts: RunnerOptions, flow: Flow, state: SessionState, step: Step, verdictFile: ResolvedGate, report: string | undefined, input: AdvanceInput, t: string, again: string): Promise<void> {
  const gates = stepGates(flow, state, step, opts.root);
  if (!gates.some((g) => g.artifact === verdictFile.artifact)) gates.push(verdictFile);
  const results = await evaluateGates(opts.root, gates, state.baseline);
  const missing = results.flatMap((r) => r.problems);
  if (missing.length > 0) throw new Refusal(missing, again);
  const claims = accepted(state, step.id, results, t);
  recordVerdict(state, step.id, 'FAIL', t, report);
  addNotes(state, input.notes ?? []);
  halt(state, `validation failed (verdict FAIL) and step ${step.id} has used ${step.maxRemediation} of ${step.maxRemediation} remediations: the skill cannot complete on a failed validation; the user decides how to go on`, t);
  state.baseline = await snapshot(opts.root, entryArtifacts(flow, state, opts.root));
  const copies = await claimArtifacts(opts.root, claims);
  if (copies.length > 0) throw new Refusal(copies, again);
}

/** LEARNINGS_PENDING -> FULLY_COMPLETE once the skill's learnings file holds (fresh, not a copy). */
async function finishLearnings(opts: RunnerOptions, flow: Flow, state: SessionState, kind: AdvanceKind, input: AdvanceInput, t: string, again: string): Promise<void> {
  if (kind !== 'next') throw new FlowError('wrong-step-type', `every phase of ${flow.id} is done: --loop and --remediate no longer apply; write the learnings, then advance`);
  if (input.output !== undefined) throw new FlowError('bad-input', `every phase of ${flow.id} is done: there is no step to hand an output in for; the learnings go into their file`);
  const results = await evaluateGates(opts.root, learningsGates(flow, state, opts.root), state.baseline);
  const missing = results.flatMap((r) => r.problems);
  if (missing.length > 0) throw new Refusal(missing, again);
  state.status = nextStatus(state, 'learnings');
  state.history.push({ event: 'learnings', step: null, at: t });
  handOver(opts, flow, state);
  addNotes(state, input.notes ?? []);
  state.baseline = {};
  state.revision++;
  const copies = await claimArtifacts(opts.root, accepted(state, LEARNINGS_STEP, results, t, 1));
  if (copies.length > 0) throw new Refusal(copies, again);
}

export async function completeBranch(opts: RunnerOptions, input: { sessionId: string; branch: string }): Promise<FlowView> {
  const { doc, loaded } = await openExisting(opts, input.sessionId);
  let label = input.branch;
  try {
    const state = await doc.update(async (draft) => {
      requireSession(draft, input.sessionId, doc.path);
      const { step, branch } = findBranch(loaded.flow, draft, input.branch);
      label = `${step.id}:${branch.id}`;
      const results = await evaluateGates(opts.root, branchGates(loaded.flow, draft, step, branch, opts.root), draft.baseline);
      const missing = results.flatMap((r) => r.problems);
      const again = `${cli(opts)} flow complete-branch ${label} --session ${input.sessionId}`;
      if (missing.length > 0) throw new Refusal(missing, again);
      const t = now(opts);
      markBranch(draft, step, branch, t);
      const copies = await claimArtifacts(opts.root, accepted(draft, step.id, results, t));
      if (copies.length > 0) throw new Refusal(copies, again);
    });
    return view(opts, loaded, state, 'branch-completed', `Branch ${label} completed.`);
  } catch (err) {
    if (!(err instanceof Refusal)) throw err;
    return view(opts, loaded, await doc.read(), 'refused', `Branch ${label} is not complete yet.`, err.missing, { command: err.command });
  }
}

/** A session that just finished records what its directive hands over to (the routed flow, the next queued one). */
function handOver(opts: RunnerOptions, flow: Flow, state: SessionState): void {
  if (!isFinished(state.status)) return;
  const handoff = handoffOf(opts, flow, state);
  if (handoff !== undefined) state.handoff = handoff;
}

/** The ledger's step name for a skill's learnings. */
const LEARNINGS_STEP = '(learnings)';

/** Ledger entries for the gates that just held at `step` (its current visit). */
function accepted(state: SessionState, step: string, results: readonly GateResult[], at: string, visit = state.visits[step] ?? 1): LedgerEntry[] {
  return results.filter((r) => r.digest !== undefined).map((r) => ({ digest: r.digest!, session: state.sessionId, step, visit, artifact: r.gate.artifact, at }));
}

/** Digest artifacts the baseline does not name yet (a variable set without leaving the step moved a gate path). */
async function topUpBaseline(opts: RunnerOptions, flow: Flow, state: SessionState): Promise<void> {
  const fresh = entryArtifacts(flow, state, opts.root).filter((g) => !Object.hasOwn(state.baseline, g.artifact));
  Object.assign(state.baseline, await snapshot(opts.root, fresh));
}

export async function haltFlow(opts: RunnerOptions, input: { sessionId: string; reason: string }): Promise<FlowView> {
  const { doc, loaded } = await openExisting(opts, input.sessionId);
  const state = await doc.update((draft) => {
    requireSession(draft, input.sessionId, doc.path);
    halt(draft, input.reason, now(opts));
  });
  return view(opts, loaded, state, 'halted', `Halted session ${state.sessionId} at step ${state.current ?? '?'}.`);
}

export interface ResumeInput {
  sessionId: string;
  /**
   * Who resumes. A halt hands the decision to the user (questions, a failed validation, a stop), so
   * only `user` may resume; a harness passes what pins its caller (the CLI: RATCHET_ACTOR).
   */
  actor: 'user' | 'agent';
  /** The user's answers to the open clarifying questions, one per question, in order. */
  answers?: readonly string[];
  notes?: readonly string[];
}

export async function resumeFlow(opts: RunnerOptions, input: ResumeInput): Promise<FlowView> {
  if (input.actor !== 'user') {
    throw new FlowError('user-required', `resuming session ${input.sessionId} is the user's decision: the agent asks the questions and stops; the user runs resume with the answers from their own shell`);
  }
  const { doc, loaded } = await openExisting(opts, input.sessionId);
  const state = await doc.update((draft) => {
    requireSession(draft, input.sessionId, doc.path);
    resume(draft, input.answers ?? [], now(opts));
    addNotes(draft, input.notes ?? []);
  });
  return view(opts, loaded, state, 'resumed', `Resumed session ${state.sessionId} at step ${state.current ?? '?'}.`);
}

/** A decline reason is a line, kept in the session: longer is refused. */
export const MAX_REASON_CHARS = 2000;

export interface DeclineInput {
  sessionId: string;
  /** Who declines: only the user (the agent that was told to start the flow does not excuse itself). */
  actor: 'user' | 'agent';
  reason: string;
}

/**
 * The user's decision not to start the flow a finished session hands over to (the reasoning
 * protocol's route): recorded in `handoff.declined`, after which nothing more is owed. Refused for
 * the agent, for a session that hands over to nothing, and once the flow was started.
 */
export async function declineFlow(opts: RunnerOptions, input: DeclineInput): Promise<FlowView> {
  if (input.actor !== 'user') {
    throw new FlowError('user-required', `declining what session ${input.sessionId} routed to is the user's decision: start it as its directive says, or ask the user, who runs decline from their own shell`);
  }
  if (input.reason.trim() === '' || /\p{Cc}/u.test(input.reason) || input.reason.length > MAX_REASON_CHARS) {
    throw new FlowError('bad-input', `a decline reason must be one non-empty line of at most ${MAX_REASON_CHARS} characters`);
  }
  const { doc, loaded } = await openExisting(opts, input.sessionId);
  const state = await doc.update(async (draft) => {
    requireSession(draft, input.sessionId, doc.path);
    const handoff = draft.handoff;
    if (!isFinished(draft.status) || handoff === undefined) {
      throw new FlowError('bad-input', `session ${input.sessionId} is ${draft.status} and hands over to no flow: there is nothing to decline${isFinished(draft.status) ? '' : ' (it is not finished)'}`);
    }
    if (handoff.declined !== undefined) return;
    if ((await openSession(opts.root, handoff.session).read()).revision > 0) {
      throw new FlowError('bad-input', `session ${handoff.session} (flow ${handoff.flow}) was started already: it is no longer declined, it is run (ratchet flow status --session ${handoff.session})`);
    }
    const t = now(opts);
    handoff.declined = { reason: input.reason, at: t };
    draft.history.push({ event: 'decline', step: null, at: t, detail: `${handoff.flow}: ${input.reason}` });
    draft.revision++;
  });
  return view(opts, loaded, state, 'declined', `The user declined flow ${state.handoff?.flow ?? '?'} (session ${state.handoff?.session ?? '?'}): ${state.handoff?.declined?.reason ?? ''}`);
}

/** The current step again (after a crash or a lost context): reads only. */
export async function flowStatus(opts: RunnerOptions, sessionId: string): Promise<FlowView> {
  const { doc, loaded } = await openExisting(opts, sessionId);
  const state = await doc.read();
  requireSession(state, sessionId, doc.path);
  return view(opts, loaded, state, 'status', `Session ${state.sessionId}: flow ${loaded.flow.id}, ${state.status}${state.current !== null ? ` at step ${state.current}` : ''}.`);
}

export interface SessionSummary {
  sessionId: string;
  flow: string;
  status: SessionState['status'];
  current: string | null;
  file: string;
}

/** A session file that cannot be read: which, and why (its place when the file does not parse). */
export interface UnreadableSession {
  sessionId: string;
  file: string;
  /** The store's error code: `tampered`, `parse-error`, `validation-error`, `schema-version`, ... */
  code: string;
  reason: string;
  line?: number;
  column?: number;
  pointer?: string;
}

/**
 * Every session file under `.ratchet/flows/`, sorted by id: the readable ones, and each one that
 * cannot be read (tampered, malformed) with its place. One broken file never hides the others.
 */
export async function surveySessions(root: string): Promise<{ sessions: SessionSummary[]; unreadable: UnreadableSession[] }> {
  let names: string[];
  try {
    names = await readdir(join(root, SESSIONS_DIR));
  } catch {
    return { sessions: [], unreadable: [] };
  }
  const sessions: SessionSummary[] = [];
  const unreadable: UnreadableSession[] = [];
  for (const name of names.filter((n) => n.endsWith('.json')).sort()) {
    const id = name.slice(0, -5);
    if (!SESSION_ID.test(id)) continue;
    let state: SessionState;
    try {
      state = await openSession(root, id).read();
    } catch (err) {
      if (!(err instanceof StoreError)) throw err;
      unreadable.push({
        sessionId: id,
        file: err.path,
        code: err.code,
        reason: err.reason,
        ...(err.line !== undefined ? { line: err.line } : {}),
        ...(err.column !== undefined ? { column: err.column } : {}),
        ...(err.pointer !== undefined ? { pointer: err.pointer } : {}),
      });
      continue;
    }
    sessions.push({ sessionId: state.sessionId, flow: state.flow.id, status: state.status, current: state.current, file: sessionPath(root, id) });
  }
  return { sessions, unreadable };
}

/** Every session file under `.ratchet/flows/`, sorted by id. A file that cannot be read throws (with its place): see surveySessions. */
export async function listSessions(root: string): Promise<SessionSummary[]> {
  const { sessions, unreadable } = await surveySessions(root);
  const first = unreadable[0];
  // Read again to throw the store's own error, with every field it carries.
  if (first !== undefined) await openSession(root, first.sessionId).read();
  return sessions;
}

async function openExisting(opts: RunnerOptions, sessionId: string): Promise<{ doc: ReturnType<typeof openSession>; loaded: LoadedFlow }> {
  const doc = openSession(opts.root, sessionId);
  const state = await doc.read();
  requireSession(state, sessionId, doc.path);
  return { doc, loaded: projectFlow(opts, await opts.loadFlow(state.flow.ref, sessionId)) };
}

function requireSession(state: SessionState, sessionId: string, path: string): void {
  if (state.revision === 0) throw new FlowError('unknown-session', `no session ${sessionId}: start one with \`ratchet flow start <flow> --session ${sessionId}\``, { path });
  if (state.sessionId !== sessionId) throw new FlowError('unknown-session', `the file holds session ${state.sessionId}, not ${sessionId}`, { path });
}

function readContent(loaded: LoadedFlow, step: Step): string {
  const path = loaded.contents[step.id];
  if (path === undefined) throw new FlowError('missing-content', `step ${step.id} has no content file`, { path: loaded.path });
  try {
    return readTextFileSync(path).text;
  } catch (err) {
    if (err instanceof NotFoundError) throw new FlowError('missing-content', `content file of step ${step.id} disappeared: ${path}`, { path: loaded.path });
    throw err;
  }
}

/** What a refused command repeats: the advance it asked for (kind), or an exact command. */
interface Again {
  kind?: AdvanceKind;
  command?: string;
}

function view(opts: RunnerOptions, loaded: LoadedFlow, state: SessionState, outcome: Outcome, headline: string, missing: string[] = [], again: Again = {}): FlowView {
  const flow = loaded.flow;
  const step = state.current !== null ? findStep(flow, state.current) : undefined;
  // Content refers to "<session>" in example commands: show the real id so they can be run as printed.
  const content = step ? readContent(loaded, step).replaceAll('<session>', state.sessionId) : undefined;
  const gates: GateLine[] = [];
  if (step && state.status === 'EXECUTING') {
    for (const g of stepGates(flow, state, step, opts.root)) gates.push({ artifact: g.artifact, minLength: g.minLength, headings: g.headings, why: g.why });
    if (step.type === 'PARALLEL') {
      const done = new Set(state.branches[step.id] ?? []);
      for (const b of step.branches) {
        if (done.has(b.id)) continue;
        for (const g of branchGates(flow, state, step, b, opts.root)) gates.push({ artifact: g.artifact, minLength: g.minLength, headings: g.headings, why: g.why });
      }
    }
    const to = landingStep(flow, state, step.next);
    if (to !== null && flow.transitionGate) {
      const t = renderTemplate(flow.transitionGate.artifact, varsAt(flow, state, step.id, { from: step.id, to }));
      gates.push({ artifact: t, minLength: flow.transitionGate.minLength, headings: flow.transitionGate.headings, why: `memory-agent file for the transition ${step.id} -> ${to} (invoke the memory agent through the Task tool)` });
    }
  }
  if (state.status === 'LEARNINGS_PENDING') for (const g of learningsGates(flow, state, opts.root)) gates.push({ artifact: g.artifact, minLength: g.minLength, headings: g.headings, why: g.why });
  const directiveCommand = again.command ?? nextCommand(opts, loaded, state, again.kind);
  const before = again.command !== undefined ? [] : prerequisites(opts, loaded, state, again.kind);
  const text = renderDirective(directiveCommand, directiveText(opts.defaultDirective, flow.directive, opts.directive), before);
  const stepView: StepView | null = step
    ? {
        id: step.id,
        title: step.title,
        type: step.type,
        content: content ?? '',
        ...(step.agent !== undefined ? { agent: step.agent } : {}),
        ...(step.atomicSkill !== undefined ? { atomicSkill: step.atomicSkill } : {}),
        branches: step.branches.map((b) => ({ id: b.id, title: b.title, ...(b.agent !== undefined ? { agent: b.agent } : {}), done: (state.branches[step.id] ?? []).includes(b.id) })),
      }
    : null;
  return {
    outcome,
    ok: outcome !== 'refused',
    session: state,
    file: sessionPath(opts.root, state.sessionId),
    flow: { id: flow.id, title: flow.title, kind: flow.kind },
    step: stepView,
    gates,
    missing,
    directive: { command: directiveCommand, before, text },
    text: renderView({ flow, state, step, content, headline, gates, missing, directive: text }),
  };
}
