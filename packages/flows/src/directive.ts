/**
 * What the agent must do next, from the saved state: the exact command (invariant 1), and what has
 * to happen before it can succeed. A directive that only says "advance" sends an agent straight to
 * a refusal; one that names the agent to invoke, the file it writes and the variables the step
 * needs sends it to the work.
 */
import { branchGates, findStep, landingStep, learningsGates, openQuestions, stepGates, transitionGate, varsAt, type AdvanceKind } from './engine.js';
import type { LoadedFlow } from './parse.js';
import type { RunnerOptions } from './runner.js';
import { isFinished } from './status.js';
import { placeholders, renderTemplate } from './template.js';
import { FLOW_ID, SESSION_ID } from './ids.js';
import type { Flow, Handoff, SessionState, Step } from './types.js';

export function shellQuote(value: string): string {
  return /^[A-Za-z0-9._/:=@%+,-]+$/.test(value) ? value : `'${value.replace(/'/g, `'\\''`)}'`;
}

/** `<flow>`, `<HIGH|MEDIUM|LOW>`, `<value>`: what a placeholder in a directive stands for. */
function placeholderFor(flow: Flow, name: string): string {
  const values = Object.hasOwn(flow.inputs, name) ? flow.inputs[name]!.values : undefined;
  return values === 'flows' ? 'flow' : values !== undefined ? values.join('|') : 'value';
}

/**
 * The exact command the agent must run next. `kind` is what a refused advance asked for, so the
 * directive repeats it. Placeholders are quoted: run as printed, they are refused with the allowed
 * values, never read by the shell as redirections.
 */
export function nextCommand(opts: Pick<RunnerOptions, 'command'>, loaded: LoadedFlow, state: SessionState, kind: AdvanceKind = 'next'): string {
  const c = opts.command ?? 'ratchet';
  const s = state.sessionId;
  if (state.status === 'HALTED') {
    const answers = openQuestions(state).map((_q, i) => ` --answer ${shellQuote(`<answer ${i + 1}>`)}`).join('');
    return `${c} flow resume --session ${s}${answers}`;
  }
  if (state.status === 'LEARNINGS_PENDING') return `${c} flow advance --session ${s}`;
  // The user declined what the session hands over to: nothing more is owed.
  if (isFinished(state.status)) return state.handoff?.declined !== undefined ? `${c} flow status --session ${s}` : completion(c, loaded.flow, state).command;
  const step = findStep(loaded.flow, state.current);
  const open = openBranch(step, state);
  if (open !== undefined && kind === 'next') return `${c} flow complete-branch ${step.id}:${open.id} --session ${s}`;
  const flag = kind === 'loop' ? ' --loop' : kind === 'remediate' ? ' --remediate' : '';
  const sets = step.requires.map((v) => ` --set ${shellQuote(`${v}=<${placeholderFor(loaded.flow, v)}>`)}`).join('');
  return `${c} flow advance --session ${s}${flag}${sets}${step.output !== undefined ? ` --output ${shellQuote('<file>')}` : ''}`;
}

function openBranch(step: Step, state: SessionState): Step['branches'][number] | undefined {
  if (step.type !== 'PARALLEL') return undefined;
  const done = new Set(state.branches[step.id] ?? []);
  return step.branches.find((b) => !done.has(b.id));
}

/** What a finished flow's directive says, and the flow and session it starts when it starts one. */
function completion(c: string, flow: Flow, state: SessionState): { command: string; start?: { flow: string; session: string } } {
  const vars = varsAt(flow, state, null);
  const passOn = (flows: readonly string[]): string => flows.map((f) => ` --then ${f}`).join('');
  // Only when every variable is known: a "<route>" left in a command would be read as shell redirections.
  if (flow.onComplete !== undefined && placeholders(flow.onComplete).every((name) => Object.hasOwn(vars, name))) {
    const rendered = renderTemplate(flow.onComplete, Object.fromEntries(Object.entries(vars).map(([k, v]) => [k, shellQuote(v)])));
    // The routed flow runs first; the flows queued after this one follow it.
    if (!/ flow start /.test(rendered)) return { command: rendered };
    const command = `${rendered}${passOn(state.then)}`;
    const m = / flow start (\S+)(?: .*?)? --session (\S+)(?: |$)/.exec(command);
    return m !== null && FLOW_ID.test(m[1]!) && SESSION_ID.test(m[2]!) ? { command, start: { flow: m[1]!, session: m[2]! } } : { command };
  }
  const [next, ...more] = state.then;
  if (next !== undefined) {
    const session = `${state.sessionId}-${next}`;
    return { command: `${c} flow start ${next} --session ${session} --input task=${shellQuote(vars.task!)}${passOn(more)}`, ...(SESSION_ID.test(session) ? { start: { flow: next, session } } : {}) };
  }
  return { command: `${c} flow status --session ${state.sessionId}` };
}

/**
 * What a finished session hands over to (see Handoff): the flow and session its completion
 * directive starts; undefined when it starts none.
 */
export function handoffOf(opts: Pick<RunnerOptions, 'command'>, flow: Flow, state: SessionState): Handoff | undefined {
  return completion(opts.command ?? 'ratchet', flow, state).start;
}

/**
 * What has to happen before the next command can succeed, one line each, in order: the agents to
 * invoke (through the Task tool, never directly) and the files they write, the memory agent's
 * transition file, the step's output. Empty when the command needs nothing first.
 */
export function prerequisites(opts: Pick<RunnerOptions, 'root'>, loaded: LoadedFlow, state: SessionState, kind: AdvanceKind = 'next'): string[] {
  const flow = loaded.flow;
  if (state.status === 'LEARNINGS_PENDING') {
    return learningsGates(flow, state, opts.root).map((g) => `First, write the learnings into \`${g.artifact}\`${headingsOf(g.headings)}. Then run:`);
  }
  if (state.status === 'HALTED') {
    const ask = openQuestions(state).length > 0 ? 'ask the user the questions above and wait for the answers' : 'tell the user why the session stopped (the reason above)';
    return [`Stop here: ${ask}. Resuming is the user's decision: they run this from their own shell (with RATCHET_ACTOR=agent it is refused):`];
  }
  if (state.status !== 'EXECUTING' || state.current === null) return [];
  const step = findStep(flow, state.current);
  const out: string[] = [];
  const open = openBranch(step, state);
  if (open !== undefined && kind === 'next') {
    const files = branchGates(flow, state, step, open, opts.root).map((g) => `\`${g.artifact}\``);
    const who = open.agent !== undefined ? `invoke \`${open.agent}\` through the Task tool (subagent_type: \`${open.agent}\`) for branch ${open.id}` : `do branch ${open.id} (${open.title})`;
    out.push(`First, ${who}${files.length > 0 ? `: it writes ${files.join(', ')}` : ''}. Then run:`);
    return out;
  }
  const gates = stepGates(flow, state, step, opts.root);
  for (const agent of [...(step.agent !== undefined ? [step.agent] : []), ...step.iterationAgents]) {
    const file = gates.find((g) => g.why === `memory file of agent ${agent}`);
    const verdict = step.type === 'REMEDIATION' && agent === step.agent && step.verdictFrom === undefined ? ', ending with its line `Verdict: PASS` or `Verdict: FAIL`' : '';
    out.push(`First, invoke \`${agent}\` through the Task tool (subagent_type: \`${agent}\`)${file !== undefined ? ` and wait until it has written \`${file.artifact}\`${verdict}` : ''}.`);
  }
  const target = kind === 'loop' ? (step.loopTo ?? step.id) : kind === 'remediate' ? (step.remediationTarget ?? null) : step.next;
  const landing = target === null ? null : landingStep(flow, state, target);
  const transition = landing === null ? undefined : transitionGate(flow, state, step.id, landing, opts.root);
  if (transition !== undefined) out.push(`${out.length > 0 ? 'Then' : 'First,'} invoke the memory agent through the Task tool: it writes \`${transition.artifact}\`.`);
  if (step.output !== undefined) out.push(`${out.length > 0 ? 'Then' : 'First,'} write this step's output to a file${headingsOf(step.output.headings)}, and pass it with --output (or pipe it with --output -).`);
  if (out.length > 0) out.push('Then run:');
  return out;
}

function headingsOf(headings: readonly string[]): string {
  return headings.length > 0 ? ` (sections ${headings.map((h) => `"${h}"`).join(', ')})` : '';
}
