/**
 * The flows area's read operations as typed operations (`ratchet flow list`, `flow status`; the MCP
 * tools `flow_list`, `flow_status`): what they find, and the document `--json` prints for it with
 * the command's exit code. The commands render the same findings for people.
 */
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import {
  advanceFlow,
  completeBranch,
  flowStatus,
  haltFlow,
  listFlowFiles,
  loadFlowFile,
  loadFlowSettings,
  sessionPath,
  startFlow,
  surveySessions,
  type FlowView,
  type SessionSummary,
  type UnreadableSession,
} from '@ratchet/flows';
import { journalEntry } from '@ratchet/store';
import { FLOW_SETTINGS, flowDirs, guard, loadRef, placed, resolveFlow, runnerOptions, unreadableRow } from '../commands/flow/project.js';
import type { Context } from '../context.js';
import { CliError } from '../errors.js';
import { recordOpened } from '../hook/opened.js';
import { PINS_FILE, dropFlowPin } from '../rule-pins.js';
import { EXIT_OK, EXIT_PROBLEMS } from '../exit-codes.js';
import { versioned, type OutputName } from '../output/json-output.js';
import { displayPath } from '../paths.js';
import type { FlowAdvanceInput, FlowBranchInput, FlowHaltInput, FlowStartInput, FlowStatusInput } from './flows-input.js';
import type { OperationResult } from './invoke.js';

export type { FlowAdvanceInput, FlowBranchInput, FlowHaltInput, FlowStartInput, FlowStatusInput } from './flows-input.js';

/** One flow of `flow list`: project flows hide built-in ones of the same name. */
export interface FlowRow {
  name: string;
  source: 'project' | 'built-in';
  file: string;
  title?: string;
  kind?: string;
  steps?: string[];
  /** The routing table: what the flow is for, and not for. */
  semanticTrigger?: string;
  notFor?: string;
  /** Why the flow does not load (file:line:col: reason). */
  error?: string;
}

export interface FlowList {
  flows: FlowRow[];
  /** The project's flow settings: a broken file stops every other flow command, so it is shown here. */
  settings: { file: string; present: boolean; error?: string };
  sessions: SessionSummary[];
  /** Sessions that cannot be read (tampered, malformed); the others are still listed. */
  unreadable: UnreadableSession[];
}

/** Every flow, checked, with what it is for and not for; the project's flow settings; the sessions. */
export async function listFlows(ctx: Context): Promise<FlowList> {
  const flows: FlowRow[] = [];
  for (const file of listFlowFiles(flowDirs(ctx))) {
    const row: FlowRow = { name: file.name, source: file.source === 0 ? 'project' : 'built-in', file: displayPath(ctx, file.path) };
    try {
      const { flow } = await loadFlowFile(file.path);
      Object.assign(row, { title: flow.title, kind: flow.kind, steps: flow.steps.map((s) => s.id) });
      if (flow.semanticTrigger !== undefined) row.semanticTrigger = flow.semanticTrigger;
      if (flow.notFor !== undefined) row.notFor = flow.notFor;
    } catch (err) {
      row.error = placed(row.file, err);
    }
    flows.push(row);
  }
  let settings: FlowList['settings'] = { file: FLOW_SETTINGS, present: false };
  try {
    settings.present = (await loadFlowSettings(resolve(ctx.cwd, FLOW_SETTINGS))) !== undefined;
  } catch (err) {
    settings = { file: FLOW_SETTINGS, present: true, error: placed(FLOW_SETTINGS, err) };
  }
  const { sessions, unreadable } = await guard(ctx, () => surveySessions(ctx.cwd));
  return { flows, settings, sessions, unreadable };
}

/** Exit 1 when a flow, the settings or a session does not read. */
export function flowListResult(ctx: Context, list: FlowList): OperationResult {
  const ok = list.flows.every((r) => r.error === undefined) && list.settings.error === undefined && list.unreadable.length === 0;
  return { exitCode: ok ? EXIT_OK : EXIT_PROBLEMS, document: { ok, flows: list.flows, settings: list.settings, ...sessionsDocument(ctx, list.sessions, list.unreadable) } };
}

function sessionsDocument(ctx: Context, sessions: readonly SessionSummary[], unreadable: readonly UnreadableSession[]): Record<string, unknown> {
  return { sessions: sessions.map((s) => ({ ...s, file: displayPath(ctx, s.file) })), unreadableSessions: unreadable.map((u) => unreadableRow(ctx, u)) };
}

/** A flow session's view as its document (naming its schema when `schema` is given); exit 1 when it refused. */
export function flowViewResult(ctx: Context, view: FlowView, schema?: OutputName): OperationResult {
  const doc = {
    ok: view.ok,
    outcome: view.outcome,
    flow: view.flow,
    session: { id: view.session.sessionId, status: view.session.status, current: view.session.current, mode: view.session.mode, file: displayPath(ctx, view.file), state: view.session },
    step: view.step,
    gates: view.gates,
    missing: view.missing,
    directive: view.directive,
    text: view.text,
  };
  return { exitCode: view.ok ? EXIT_OK : EXIT_PROBLEMS, document: schema === undefined ? doc : versioned(schema, doc) };
}

/** One session's current step again, or every session (exit 1 when one cannot be read). */
export async function flowStatusResult(ctx: Context, input: FlowStatusInput): Promise<OperationResult> {
  const { session } = input;
  if (session !== undefined) return flowViewResult(ctx, await guard(ctx, async () => flowStatus(await runnerOptions(ctx), session)));
  const { sessions, unreadable } = await guard(ctx, async () => surveySessions(ctx.cwd));
  return { exitCode: unreadable.length === 0 ? EXIT_OK : EXIT_PROBLEMS, document: { ok: unreadable.length === 0, ...sessionsDocument(ctx, sessions, unreadable) } };
}

/** Pairs as the library takes them: a null-prototype copy, so a `__proto__` name is just a key (the library decides whether it is allowed). */
function pairs(values: Readonly<Record<string, string>> | undefined, flag: string): Record<string, string> {
  const out = Object.create(null) as Record<string, string>;
  for (const [key, value] of Object.entries(values ?? {})) {
    if (key === '') throw new CliError(`${flag} ${JSON.stringify(`=${value}`)}: expected key=value`);
    out[key] = value;
  }
  return out;
}

/**
 * Start a session of a flow. The session runs the copy pinned now: an edit of the flow applies to
 * the next session. A session Ratchet has written (or that vanished) keeps its pin: the start is
 * refused, and re-pinning would let a second `flow start` swap the running session's flow. The
 * agent then owes the flow: it is recorded for the Stop hook, whichever face started it.
 */
export async function startFlowSession(ctx: Context, input: FlowStartInput): Promise<FlowView> {
  const { session: sessionId } = input;
  const view = await guard(ctx, async () => {
    const { ref } = await resolveFlow(ctx, input.flow);
    const file = sessionPath(ctx.cwd, sessionId);
    const fresh = !existsSync(file) && (journalEntry(file)?.removed ?? true);
    const runner = await runnerOptions(ctx);
    const hadPins = existsSync(join(ctx.cwd, PINS_FILE));
    const loaded = await loadRef(ctx, ref, fresh ? sessionId : undefined, true);
    try {
      return await startFlow(runner, { flow: loaded, ref, sessionId, inputs: pairs(input.inputs, '--input'), mode: input.agent === true ? 'agent' : 'normal', then: [...(input.then ?? [])] });
    } catch (err) {
      if (fresh) await dropFlowPin(ctx.cwd, sessionId, hadPins);
      throw err;
    }
  });
  await recordOpened(ctx.cwd, ctx.io.env, { kind: 'flow', key: view.session.sessionId });
  return view;
}

/** What `flow advance` does: next, or back to the loop or the remediation target (not both). */
export function advanceKind(input: Pick<FlowAdvanceInput, 'loop' | 'remediate'>): 'next' | 'loop' | 'remediate' {
  if (input.loop === true && input.remediate === true) throw new CliError('--loop and --remediate cannot be combined');
  return input.loop === true ? 'loop' : input.remediate === true ? 'remediate' : 'next';
}

/** Leave the current step once its gates hold; the view says what is missing when they do not. */
export async function advanceFlowSession(ctx: Context, input: FlowAdvanceInput): Promise<FlowView> {
  const kind = advanceKind(input);
  return guard(ctx, async () =>
    advanceFlow(await runnerOptions(ctx), {
      sessionId: input.session,
      kind,
      set: pairs(input.set, '--set'),
      notes: [...(input.notes ?? [])],
      questions: [...(input.questions ?? [])],
      ...(input.output !== undefined ? { output: input.output } : {}),
      then: [...(input.then ?? [])],
    }),
  );
}

/** Mark a branch of the current parallel step complete once its files exist. */
export async function completeFlowBranch(ctx: Context, input: FlowBranchInput): Promise<FlowView> {
  return guard(ctx, async () => completeBranch(await runnerOptions(ctx), { sessionId: input.session, branch: input.branch }));
}

/** Stop a session with a reason; only the user resumes it (`flow resume`, no MCP tool). */
export async function haltFlowSession(ctx: Context, input: FlowHaltInput): Promise<FlowView> {
  return guard(ctx, async () => haltFlow(await runnerOptions(ctx), { sessionId: input.session, reason: input.reason }));
}
