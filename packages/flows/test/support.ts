import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { advanceFlow, loadFlowFile, openSession, type AdvanceInput, type FlowView, type LoadedFlow, type RunnerOptions, type Step } from '../src/index.js';

export const REPO = fileURLToPath(new URL('../../../', import.meta.url));
export const BUILTIN = join(REPO, 'protocols', 'flows');
export const REASONING = join(BUILTIN, 'reasoning.flow.json');
export const SKILL = join(BUILTIN, 'develop-feature.flow.json');
export const HEADINGS = ['## Section 0: Context Loaded', '## Section 1: Step Overview', '## Section 2: Johari Summary', '## Section 3: Downstream Directives'];

export function tmpProject(): string {
  return mkdtempSync(join(tmpdir(), 'flows-test-'));
}

/** Runner options whose flow refs are plain file paths. */
export function runner(root: string, extra: Partial<RunnerOptions> = {}): RunnerOptions {
  let tick = 0;
  return { root, loadFlow: (ref) => loadFlowFile(ref), clock: () => Date.UTC(2030, 0, 1) + tick++ * 1000, ...extra };
}

export function write(root: string, rel: string, text: string): string {
  const path = join(root, rel);
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, text);
  return path;
}

let written = 0;

/**
 * A memory file that satisfies the agent gate. Every call writes different text (`extra`, then a
 * counter): gates refuse a file identical to one accepted before, as a copy.
 */
export function memoryText(extra = ''): string {
  written++;
  return `${HEADINGS.map((h) => `${h}\n\nSome findings that matter for the next phase.\n`).join('\n')}${extra}\nWritten for this step (${written}).\n`;
}

/** `extra` goes at the end: a validation agent's `Verdict: PASS` line, say. */
export function writeAgentMemory(root: string, task: string, agent: string, extra = ''): string {
  return write(root, `.claude/memory/${task}-${agent}-memory.md`, memoryText(`By ${agent}.\n\n${extra}`));
}

export function writeLearnings(root: string, task: string): string {
  return write(root, `.claude/memory/${task}-learnings-memory.md`, memoryText(['## What worked', '## What failed', '## Next time'].map((h) => `${h}\n\nA lesson from this run.\n`).join('\n')));
}

/** The memory agent's file for a phase transition: the same four sections as every agent's. */
export function writeTransition(root: string, task: string, from: string, to: string): string {
  return write(root, `.claude/memory/${task}-memory-phase-${from}-to-${to}-memory.md`, memoryText(`memory agent: phase ${from} -> ${to}`));
}

/** Write a flow (JSON) and its content files into dir; returns the loaded flow. */
export async function flowIn(dir: string, flow: Record<string, unknown>, name = 'test.flow.json'): Promise<LoadedFlow> {
  const steps = (flow.steps as { content?: string }[] | undefined) ?? [];
  for (const s of steps) if (typeof s.content === 'string') write(dir, s.content, `# ${s.content}\n\nDo the thing.\n`);
  const path = write(dir, name, JSON.stringify(flow, null, 2));
  return loadFlowFile(path);
}

/** The directive must name a `ratchet flow ...` command in backticks. */
export function directiveCommand(view: FlowView): string {
  const m = /`(ratchet [^`]+)`\n\n-/.exec(view.text);
  if (!m) throw new Error(`no directive in:\n${view.text}`);
  return m[1]!;
}

/** An output that passes `step`'s output gate, different on every call (copies are refused). */
export function outputText(step: Pick<Step, 'id' | 'output'>, extra = ''): string {
  written++;
  const headings = step.output?.headings ?? [];
  const body = `Worked through step ${step.id} for this request (${written}). ${extra}`.padEnd(step.output?.minLength ?? 1, '.');
  return `${headings.map((h) => `${h}\n\n${body}\n`).join('\n')}${headings.length === 0 ? body : ''}\n`;
}

/** `advanceFlow` handing in an output for the current step when it needs one (a reasoning step's work). */
export async function think(opts: RunnerOptions, input: AdvanceInput): Promise<FlowView> {
  const state = await openSession(opts.root, input.sessionId).read();
  const step = state.current === null ? undefined : (await opts.loadFlow(state.flow.ref)).flow.steps.find((s) => s.id === state.current);
  const output = step?.output !== undefined && input.questions === undefined ? { output: outputText(step) } : {};
  return advanceFlow(opts, { ...output, ...input });
}
