/**
 * The reasoning gate (seed 001: the reasoning protocol runs before any task). While a reasoning flow
 * session of this Claude Code session is open, no project file is written, as none is before a plan
 * is accepted (PLANNING): notes and step outputs under `planningWrites` only. Once it completes, the
 * work still waits, for writes and for Stop, until the flow it routed to is started (the session its
 * directive names exists) or the user declined it (`ratchet flow decline`, refused for the agent).
 *
 * `reasoningHold` is the decision, a pure function over the sessions' states; the readers around it
 * load this Claude Code session's flow sessions through `@ratchet/flows/session-view` (no engine:
 * this runs on every tool call). Which flows are reasoning flows: the one the project's prompts run
 * (`hooks.reasoningFlow`), and the built-in `reasoning`, however a session of it was started.
 */
import { compileGlob } from '@ratchet/plan-lint/glob';
import { handoffStatus, readSessionSync, type Handoff, type SessionState } from '@ratchet/flows/session-view';
import { StoreError } from '@ratchet/store';
import type { HookAnswer } from './answer.js';
import type { HookConfig } from './config.js';
import { openHookMemory } from './memory.js';
import { corruptObligation, type Obligation } from './obligations.js';
import { insideProject, type ProjectRoot } from './state-files.js';

/** A reasoning flow session as the gate sees it. */
export interface ReasoningSession {
  id: string;
  status: SessionState['status'];
  current: string | null;
  handoff?: Handoff;
  /** Where its handoff stands (handoffStatus). */
  routed: 'none' | 'pending' | 'started' | 'declined';
}

/** Why the work waits, and what moves it on. */
export interface ReasoningHold {
  session: string;
  kind: 'open' | 'halted' | 'routed';
  /** One line: what is open. */
  what: string;
  /** What to do, with the command. */
  next: string;
}

/** The built-in reasoning protocol's flow id: its sessions are gated however they were started. */
export const BUILT_IN_REASONING = 'reasoning';

export function reasoningFlowIds(config: Pick<HookConfig, 'reasoningFlow'>): Set<string> {
  return new Set([BUILT_IN_REASONING, ...(config.reasoningFlow === false ? [] : [config.reasoningFlow])]);
}

/**
 * The first reasoning session (newest first) that holds the work: one still reasoning (EXECUTING, or
 * HALTED for the user's answers), or one that completed and routed to a flow nobody started and the
 * user did not decline. Undefined: nothing holds.
 */
export function reasoningHold(sessions: Iterable<ReasoningSession>): ReasoningHold | undefined {
  for (const s of sessions) {
    if (s.status === 'EXECUTING' || s.status === 'LEARNINGS_PENDING') {
      return {
        session: s.id,
        kind: 'open',
        what: `reasoning flow session ${s.id} is ${s.status}${s.current !== null ? ` at step ${s.current}` : ''}`,
        next: `finish the reasoning first: \`ratchet flow status --session ${s.id}\` shows the step and its exact next command`,
      };
    }
    if (s.status === 'HALTED') {
      return {
        session: s.id,
        kind: 'halted',
        what: `reasoning flow session ${s.id} is HALTED at step ${s.current ?? '?'} for the user's answers`,
        next: `ask the user the questions and stop; the user resumes it from their own shell (\`ratchet flow status --session ${s.id}\` shows the command)`,
      };
    }
    if (s.routed === 'pending' && s.handoff !== undefined) {
      return {
        session: s.id,
        kind: 'routed',
        what: `reasoning flow session ${s.id} routed this request to flow ${s.handoff.flow}, which has not been started`,
        next:
          `start it as the reasoning's directive says (session ${s.handoff.session}: \`ratchet flow status --session ${s.id}\` prints the exact command), ` +
          `or ask the user, who may decline it from their own shell: \`ratchet flow decline --session ${s.id} --reason "..."\``,
      };
    }
  }
  return undefined;
}

type Read = (root: string, sessionId: string) => SessionState | undefined;

/** A session file's state as the gate sees it; undefined when it was never started (or is no reasoning flow). */
export function reasoningView(root: string, id: string, flows: ReadonlySet<string>, read: Read = readSessionSync): ReasoningSession | undefined {
  const state = read(root, id);
  if (state === undefined || !flows.has(state.flow.id)) return undefined;
  return { id, status: state.status, current: state.current, ...(state.handoff !== undefined ? { handoff: state.handoff } : {}), routed: handoffStatus(root, state, read) };
}

/**
 * This Claude Code session's reasoning sessions, newest first, read as they are asked for: the gate
 * stops at the first that holds, so a write during the newest prompt's reasoning reads one session
 * file, not the whole history (this runs on every tool call). Throws the store's errors for a file
 * that cannot be read.
 */
export function* readReasoningSessions(root: string, claudeSession: string, config: Pick<HookConfig, 'reasoningFlow'>): Generator<ReasoningSession> {
  const memory = openHookMemory(root, claudeSession).readSync();
  const flows = reasoningFlowIds(config);
  // A routed skill is remembered too: read each session file once.
  const seen = new Map<string, SessionState | undefined>();
  const read: Read = (r, id) => {
    if (!seen.has(id)) seen.set(id, readSessionSync(r, id));
    return seen.get(id);
  };
  for (const id of [...memory.flows].reverse()) {
    const view = reasoningView(root, id, flows, read);
    if (view !== undefined) yield view;
  }
}

/**
 * PreToolUse: deny a write of a project file while reasoning holds the work, except the notes and
 * step outputs `planningWrites` allows. A flow session that cannot be read denies every write,
 * naming the file. Undefined: the gate has nothing to say.
 */
export function reasoningWriteGate(root: string, project: ProjectRoot, cwd: string, claudeSession: string | undefined, tool: string, targets: readonly string[], config: HookConfig): HookAnswer | undefined {
  if (claudeSession === undefined || targets.length === 0) return undefined;
  let hold: ReasoningHold | undefined;
  try {
    hold = reasoningHold(readReasoningSessions(root, claudeSession, config));
  } catch (err) {
    if (!(err instanceof StoreError)) throw err;
    const o = corruptObligation(root, err);
    return { kind: 'deny', reason: `Ratchet: ${o.what}. Nothing is written until it is repaired: ${o.command}.` };
  }
  if (hold === undefined) return undefined;
  const allowed = config.planningWrites.map((g) => compileGlob(g));
  for (const target of targets) {
    const rel = insideProject(project, cwd, target);
    if (rel === undefined || rel === '' || allowed.some((re) => re.test(rel))) continue;
    return { kind: 'deny', reason: `Ratchet: ${tool} of ${rel} refused: ${hold.what}; no project file is written until then (notes and step outputs may go under ${config.planningWrites.join(', ')}). Next: ${hold.next}.` };
  }
  return undefined;
}

/**
 * Stop: a finished reasoning session whose route nobody started (and the user did not decline) is an
 * obligation, with its directive's exact command; one whose route was started hands the agent on to
 * that session (`follow`), which Stop then holds it to like any other open flow.
 */
export function routedObligation(root: string, state: SessionState, command: string, flows: ReadonlySet<string>): { obligation?: Obligation; follow?: string } {
  if (!flows.has(state.flow.id) || state.handoff === undefined) return {};
  const status = handoffStatus(root, state);
  if (status === 'started') return { follow: state.handoff.session };
  if (status !== 'pending') return {};
  return {
    obligation: {
      kind: 'flow',
      what: `flow ${state.flow.id} session ${state.sessionId} routed this request to flow ${state.handoff.flow}, which has not been started (or ask the user to decline it: ratchet flow decline --session ${state.sessionId} --reason "...")`,
      command,
    },
  };
}
