/**
 * What an agent reads after every call: the step's content, what it must produce, and the mandatory
 * directive naming the exact next command (invariant 1). Pure string building.
 */
import type { DirectiveText, Flow, SessionState, SkipCondition, Step } from './types.js';

/**
 * Ratchet's own wording. A project default (`RunnerOptions.defaultDirective`, the CLI's
 * protocols/flow-settings.json), then a flow's own `directive`, then `RunnerOptions.directive`
 * replace it, each field (heading, warnings) on its own.
 */
export const DEFAULT_DIRECTIVE: DirectiveText = {
  heading: '**NEXT COMMAND (required): run it before doing anything else:**',
  warnings: [
    '- Do not skip it, reorder it or replace it with another command: the flow refuses steps out of order.',
    '- Your progress is already saved; if you lose context, `status` shows this step again.',
    '- If the command refuses, do what it says is missing, then run the same command again. There is no override.',
  ],
};

export function directiveText(text: Partial<DirectiveText> | undefined, ...overrides: (Partial<DirectiveText> | undefined)[]): DirectiveText {
  const out = { ...DEFAULT_DIRECTIVE };
  for (const o of [text, ...overrides]) {
    if (o?.heading !== undefined) out.heading = o.heading;
    if (o?.warnings !== undefined) out.warnings = o.warnings;
  }
  return out;
}

/** The directive: its heading, what must happen first (one paragraph each), the command, the warnings. */
export function renderDirective(command: string, text: DirectiveText, before: readonly string[] = []): string {
  return [text.heading, '', ...before.flatMap((line) => [line, '']), `\`${command}\``, '', ...text.warnings].join('\n');
}

export interface GateLine {
  artifact: string;
  minLength: number;
  headings: string[];
  why: string;
}

export interface RenderInput {
  flow: Flow;
  state: SessionState;
  step: Step | undefined;
  /** The step's Markdown. */
  content: string | undefined;
  /** A line saying what just happened ("Advanced from 2 to 3."). */
  headline: string;
  gates: GateLine[];
  /** Why the command refused (exit 1), one line each. */
  missing: string[];
  directive: string | undefined;
}

export function renderView(r: RenderInput): string {
  const { flow, state, step } = r;
  const out: string[] = [];
  out.push(`<!-- ratchet flow ${flow.id} · session ${state.sessionId} · ${state.status}${step ? ` · step ${step.id}` : ''} -->`);
  out.push(r.headline, '');
  if (r.missing.length > 0) {
    out.push('### Not yet: what is missing', '', ...r.missing.map((m) => `- ${m}`), '');
  }
  if (state.status === 'HALTED') {
    out.push(`### Halted`, '', `Reason: ${state.haltReason ?? 'none given'}`, '');
    const open = state.clarificationAnswers.length === 0 ? state.clarificationQuestions : [];
    if (open.length > 0) out.push('Ask the user these questions and wait for the answers:', '', ...open.map((q, i) => `${i + 1}. ${q}`), '');
  }
  if (state.status === 'LEARNINGS_PENDING') {
    out.push('### Learnings', '', `Every phase of ${flow.id} is done. Before it is fully complete, record what this run taught: what worked, what failed, what to do differently next time.`, '');
    if (r.gates.length > 0) out.push('### Required before finishing', '', ...r.gates.map(gateLine), '');
  }
  if (step && r.content !== undefined && state.status === 'EXECUTING' && r.missing.length === 0) {
    out.push(`## Step ${step.id}: ${step.title} (${step.type})`, '', r.content.trimEnd(), '');
    // The inputs (the user's query, the task, a route) survive a lost context with the session.
    const vars = Object.entries(state.vars).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    if (vars.length > 0) out.push('### Session inputs', '', ...vars.map(([k, v]) => `- ${k}: ${JSON.stringify(v)}`), '');
    const agents = [...(step.agent ? [step.agent] : []), ...step.iterationAgents];
    if (agents.length > 0) {
      out.push('### Agent', '');
      for (const agent of agents) {
        out.push(`Invoke \`${agent}\` through the Task tool (subagent_type: \`${agent}\`)${step.atomicSkill ? ` for the atomic skill \`${step.atomicSkill}\`` : ''}. Never run an agent's entry point yourself.`);
      }
      out.push('');
    }
    if (step.type === 'PARALLEL') {
      const done = new Set(state.branches[step.id] ?? []);
      out.push('### Branches (all must complete)', '');
      for (const b of step.branches) out.push(`- [${done.has(b.id) ? 'x' : ' '}] ${step.id}:${b.id} ${b.title}${b.agent ? ` (Task tool, subagent_type: \`${b.agent}\`)` : ''}`);
      out.push('');
    }
    if (step.type === 'ITERATIVE') out.push(`Loop back with \`advance --loop\` (used ${state.iterations[step.id] ?? 0} of ${step.maxIterations}).`, '');
    if (step.type === 'REMEDIATION') {
      out.push(
        `The verdict decides: the validation writes a line \`Verdict: PASS\` or \`Verdict: FAIL\` into ${step.verdictFrom !== undefined ? `\`${step.verdictFrom}\`` : 'its memory file'}. ` +
          `On FAIL, \`advance\` sends the work back to step ${step.remediationTarget ?? '?'} (used ${state.remediations[step.id] ?? 0} of ${step.maxRemediation}); past the limit the session halts for the user. A FAIL never completes the flow.`,
        '',
      );
    }
    if (step.haltOnQuestions) out.push('If you have clarifying questions (at most 5), record them with `advance --question "..."`: the flow halts until the user answers.', '');
    if (step.requires.length > 0) out.push(`Before advancing, set: ${step.requires.map((v) => `\`--set ${v}=...\``).join(', ')}.`, '');
    if (step.haltUnless !== undefined) out.push(`Go on only when ${describeCondition(step.haltUnless)}; otherwise do not guess: ask the user with \`advance --question "..."\` (the session halts until they answer).`, '');
    if (step.output !== undefined) {
      const o = step.output;
      const shape = [`at least ${o.minLength} characters`, ...(o.headings.length > 0 ? [`the heading lines ${o.headings.map((h) => `"${h}"`).join(', ')}`] : [])];
      out.push(`Hand in this step's output with \`advance --output FILE\` (or \`--output -\` to read it from standard input): ${shape.join('; ')}. It is kept in the session; text handed in before (here or in another session) is refused as a copy.`, '');
    }
    if (r.gates.length > 0) {
      out.push('### Required before advancing', '');
      out.push(...r.gates.map(gateLine));
      out.push('');
    }
  }
  if (r.directive !== undefined) out.push(r.directive);
  return `${out.join('\n').trimEnd()}\n`;
}

/** A condition in words: `confidence is "HIGH"`. */
export function describeCondition(cond: SkipCondition): string {
  if ('not' in cond) return `not (${describeCondition(cond.not)})`;
  if ('mode' in cond) return `the session runs in ${cond.mode} mode`;
  return cond.equals === undefined ? `${cond.input} is set` : `${cond.input} is "${cond.equals}"`;
}

function gateLine(g: GateLine): string {
  const details = [g.minLength > 1 ? `at least ${g.minLength} characters` : undefined, g.headings.length > 0 ? `headings ${g.headings.map((h) => `"${h}"`).join(', ')}` : undefined].filter(Boolean);
  return `- \`${g.artifact}\`: ${g.why}${details.length > 0 ? `; ${details.join('; ')}` : ''}`;
}
