/**
 * SessionStart and UserPromptSubmit: what the agent must know before it acts, as additional
 * context. SessionStart: the task's state and next command, open flows, claims and locks (the
 * obligations Stop will hold it to), this session's runner name, the top of `turn assess` and the
 * pending lessons, in at most 1,500 characters. UserPromptSubmit: where the project chose it
 * (`hooks.reasoningFlow`, `ratchet init --reasoning-flow`), every prompt runs the reasoning flow
 * (seed 001) unless it starts with the bypass prefix; the flow's mandatory directive goes back.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { storageKind } from '@ratchet/store';
import type { Context } from '../context.js';
import { LESSONS_FILE } from '../operations/lessons.js';
import type { HookAnswer } from './answer.js';
import { boundaryNote } from './boundary-mode.js';
import { loadHookConfig } from './config.js';
import { openHookMemory, remember } from './memory.js';
import { describeObligations, openObligations } from './obligations.js';
import type { HookPayload } from './payload.js';
import { defaultRunner, sessionRunners } from './runner.js';

export const SESSION_CONTEXT_MAX = 1500;

/** Whether the project's state is in a shared database (goals there, no local goals.json); a bad setting is not (the commands report it). */
function sharedStore(ctx: Context): boolean {
  try {
    return storageKind(ctx.cwd, ctx.io.env) !== 'file';
  } catch {
    return false;
  }
}
/** The directive of a started flow is long; the prompt's context keeps its head. */
const PROMPT_CONTEXT_MAX = 4000;
/** The prompt as the flow's `query` input: enough to route it, never a whole pasted file. */
const QUERY_MAX = 2000;

/** Flow inputs are one line of text: a multi-line prompt becomes one line, control characters spaces. */
function oneLine(prompt: string): string {
  // eslint-disable-next-line no-control-regex -- exactly the characters a flow input refuses
  return clip(prompt.replace(/[\u0000-\u001f\u007f\u2028\u2029]+/g, ' ').trim(), QUERY_MAX) || '(empty prompt)';
}

function clip(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max - 1)}…`;
}

export async function sessionStart(ctx: Context, payload: HookPayload): Promise<HookAnswer> {
  const memory = openHookMemory(ctx.cwd, payload.sessionId ?? 'unknown').readSync();
  const runner = defaultRunner(ctx.io.env, payload.sessionId);
  const parts: string[] = ['Ratchet keeps this project on rails: state changes go through `ratchet` commands, never by hand.', boundaryNote(ctx.cwd)];
  const obligations = await openObligations(ctx, memory, sessionRunners(ctx.io.env, payload.sessionId, memory));
  parts.push(obligations.length > 0 ? `Open now (you cannot stop until each is done):\n${describeObligations(obligations)}` : 'No task is open: start one with `ratchet task start --task-id <id>`.');
  parts.push(`Your runner name: ${runner} (claim campaign work with \`ratchet campaign ready --claim ${runner}\`).`);
  // The same operations the commands run, read as typed results (never their printed text). What
  // cannot be read here (a broken or hand-edited file) the commands report; the context goes without it.
  if (existsSync(join(ctx.cwd, '.ratchet', 'goals.json')) || sharedStore(ctx)) {
    const [{ assessTurn }, { assessmentLines }] = await Promise.all([import('../operations/goals.js'), import('../commands/goals/assessment-lines.js')]);
    const assessment = await assessTurn(ctx, { actions: 3 }).catch(() => undefined);
    if (assessment !== undefined) parts.push(`Top of \`ratchet turn assess\`:\n${clip(assessmentLines(assessment).join('\n'), 400)}`);
  }
  if (existsSync(join(ctx.cwd, LESSONS_FILE))) {
    const { listLessons } = await import('../operations/lessons.js');
    const pending = (await listLessons(ctx, { lessonsFile: LESSONS_FILE, status: 'pending' }).catch(() => undefined))?.lessons ?? [];
    // One line per lesson, whatever its insight holds (an original system's insight may span lines).
    const lines = pending.slice(0, 3).map((l) => oneLine(`${l.lesson_id}  ${l.action.command}  ${l.insight}`));
    if (pending.length > 0) parts.push(`${pending.length} pending lesson(s) (apply with \`ratchet lessons apply\`):\n${clip(lines.join('\n'), 300)}`);
  }
  return { kind: 'note', event: 'session-start', context: clip(parts.join('\n\n'), SESSION_CONTEXT_MAX) };
}

export async function userPromptSubmit(ctx: Context, payload: HookPayload): Promise<HookAnswer> {
  const config = loadHookConfig(ctx.cwd);
  const prompt = payload.prompt ?? '';
  if (config.reasoningFlow === false || prompt.startsWith(config.bypassPrefix) || payload.sessionId === undefined) return { kind: 'none' };
  const sessionId = payload.sessionId;
  const { isFinished, startFlow } = await import('@ratchet/flows');
  const { resolveFlow, runnerOptions } = await import('../commands/flow/project.js');
  const { flowView } = await import('./flow-obligations.js');
  const options = await runnerOptions(ctx);
  const doc = openHookMemory(ctx.cwd, sessionId);
  const memory = doc.readSync();

  // Continue this session's open (or halted) reasoning flow rather than starting a second one.
  for (const id of [...memory.flows].reverse()) {
    const view = await flowView(options, id);
    if (view === undefined) continue;
    if (view.flow.id !== config.reasoningFlow || isFinished(view.session.status)) continue;
    const lead =
      view.session.status === 'HALTED'
        ? `Ratchet: reasoning flow session ${id} is halted for the user's clarification. If this prompt answers its questions, the user resumes it with \`${view.directive.command}\`; do not work around it.`
        : `Ratchet: reasoning flow session ${id} is still open; continue it before other work.`;
    return { kind: 'note', event: 'user-prompt-submit', context: clip(`${lead}\n\n${view.text.trim()}`, PROMPT_CONTEXT_MAX) };
  }

  const flowSession = `cc-${sessionId.replace(/[^A-Za-z0-9]/g, '').slice(0, 8) || 'session'}-${memory.flows.length + 1}`;
  const { loaded, ref } = await resolveFlow(ctx, config.reasoningFlow);
  const view = await startFlow(options, { flow: loaded, ref, sessionId: flowSession, inputs: { query: oneLine(prompt) } });
  await doc.update((m) => ({ ...m, sessionId, flows: remember(m.flows, flowSession) }));
  const lead = `Ratchet: this prompt runs the reasoning protocol as flow session ${flowSession} (start a prompt with \`${config.bypassPrefix.trim()}\` to skip it). You MUST follow its directive; you cannot stop while it is open.`;
  return { kind: 'note', event: 'user-prompt-submit', context: clip(`${lead}\n\n${view.text.trim()}`, PROMPT_CONTEXT_MAX) };
}
