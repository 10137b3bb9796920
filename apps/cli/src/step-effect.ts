/**
 * `run done` checks what a step can be checked for, on disk, before it is recorded. The dialect says
 * what each command does (`effect`, `path`, `to`, `doneMessage`); the session keeps, for the current
 * step, its file as it was when the step became current (`stepBaseline`, taken by `baselineFor` each
 * time a step becomes current). So:
 * - a read needs its file to exist;
 * - a create needs its file to exist; a write or an edit needs it changed since the step began;
 * - a step of a code-change plan (`<dir>/<name>.plan` with `<name>.diff` beside it, as
 *   `ratchet lessons apply` writes them) needs the file to be exactly what applying that diff gives;
 * - a delete needs the file gone, a move the destination there and the source gone;
 * - a command whose work is only words (`doneMessage`, e.g. research scoping) needs `--message`.
 * Anything else (a tool run, a search, set_plan) leaves nothing Ratchet can observe: it is taken on
 * trust, and the reply and the activity log say so.
 */
import { createHash } from 'node:crypto';
import { readFileSync, statSync } from 'node:fs';
import { currentStep, type CurrentStep, type Session, type StepBaseline } from '@ratchet/orchestrator';
import { actionFor, type Dialect } from '@ratchet/plan-lint';
import { resolveInsideRoot } from '@ratchet/store';
import type { Context } from './context.js';
import { loadDialectFile, loadProjectDialect, researchDialectPath } from './plan-project.js';

export type StepCheck =
  /** Seen: `detail` says what (`src/a.ts changed`). */
  | { verified: 'disk'; effect: string; detail: string }
  /** The step's words were given (`--message`), as its command requires. */
  | { verified: 'message'; detail: string }
  /** Nothing to observe: `detail` says why. */
  | { verified: 'trust'; detail: string }
  | { verified: 'refused'; problem: string };

/** The dialect a step is in: the research plan's in RESEARCHING, the project's otherwise. */
export function stepDialect(ctx: Context, session: Session): Dialect {
  return session.state === 'RESEARCHING' ? loadDialectFile(ctx, researchDialectPath(ctx.cwd)) : loadProjectDialect(ctx);
}

interface ParsedStep {
  name: string;
  raw: string;
  args: string[];
}

function parseLine(line: string): ParsedStep {
  const space = line.search(/\s/);
  const raw = space < 0 ? '' : line.slice(space).trim();
  return { name: space < 0 ? line : line.slice(0, space), raw, args: raw === '' ? [] : raw.split(/\s+/) };
}

const sha256 = (bytes: Buffer | string): string => createHash('sha256').update(bytes).digest('hex');

/** The file at project-relative `p`: its bytes, or undefined when it is not a file inside the project. */
function fileBytes(ctx: Context, p: string): Buffer | undefined {
  try {
    const abs = resolveInsideRoot(ctx.cwd, p);
    return statSync(abs).isFile() ? readFileSync(abs) : undefined;
  } catch {
    return undefined; // missing, or outside the project (lint refused it): nothing there counts
  }
}

function exists(ctx: Context, p: string): boolean {
  try {
    statSync(resolveInsideRoot(ctx.cwd, p));
    return true;
  } catch {
    return false;
  }
}

/**
 * The session with `stepBaseline` for its current step (or without one when the step names no file
 * it writes): called wherever a step becomes current, inside the same locked update.
 */
export function withBaseline(ctx: Context, session: Session, dialect: Dialect, patch?: Patcher): Session {
  const { stepBaseline: _old, ...rest } = session;
  const step = currentStep(session);
  const baseline = step === undefined ? undefined : baselineFor(ctx, step, dialect, patch);
  return baseline === undefined ? rest : { ...rest, stepBaseline: baseline };
}

/** A diff applied to a file's text (undefined: it does not apply, or names another file). */
export type Patcher = (diff: string, path: string, current: string | undefined) => string | undefined;

/**
 * The patcher, loaded only when one of `planPaths` is a code-change plan (a `<name>.diff` beside
 * `<name>.plan`): the diff code comes with @ratchet/self-correction, which no other step needs.
 */
export async function patcherFor(ctx: Context, planPaths: Iterable<string>): Promise<Patcher | undefined> {
  let any = false;
  for (const p of planPaths) if (p.endsWith('.plan') && exists(ctx, diffBeside(p))) any = true;
  if (!any) return undefined;
  const { applyPatch, parsePatch } = await import('@ratchet/self-correction');
  return (diff, path, current) => {
    try {
      const patch = parsePatch(diff, path);
      const named = [patch.oldPath, patch.newPath].filter((p): p is string => p !== undefined && p !== '/dev/null').map((p) => p.replace(/^[ab]\//, '').replace(/^\.\//, ''));
      if (named.length > 0 && !named.includes(path)) return undefined;
      // A BOM is not part of the first line a diff talks about: patch without it, keep it after (as `lessons apply` does).
      const bom = current?.startsWith('\uFEFF') === true ? '\uFEFF' : '';
      return `${bom}${applyPatch(bom === '' ? current : current!.slice(1), patch, path)}`;
    } catch {
      return undefined;
    }
  };
}

function diffBeside(planPath: string): string {
  return `${planPath.slice(0, -'.plan'.length)}.diff`;
}

function baselineFor(ctx: Context, step: CurrentStep, dialect: Dialect, patch: Patcher | undefined): StepBaseline | undefined {
  const { name, raw, args } = parseLine(step.line);
  const command = dialect.commands.get(name);
  if (command === undefined) return undefined;
  const action = actionFor(command, raw);
  if (action.effect !== 'create' && action.effect !== 'write' && action.effect !== 'edit') return undefined;
  const path = action.path === undefined ? undefined : args[action.path];
  if (path === undefined) return undefined;
  const before = fileBytes(ctx, path);
  const baseline: StepBaseline = { planPath: step.planPath, index: step.index, line: step.line, path, sha256: before === undefined ? null : sha256(before) };
  const known = patch === undefined ? undefined : knownDiff(ctx, step.planPath, path, before, patch);
  return known === undefined ? baseline : { ...baseline, ...known };
}

/**
 * A code-change plan's diff: `<dir>/<name>.plan` with `<dir>/<name>.diff` beside it naming `path`.
 * Returns what the file must hash to once it is applied, or undefined (no such diff, or it does not
 * apply to the file as it is now: then the step is checked for a change only).
 */
function knownDiff(ctx: Context, planPath: string, path: string, before: Buffer | undefined, patch: Patcher): { expected: string; diff: string } | undefined {
  if (!planPath.endsWith('.plan')) return undefined;
  const diff = diffBeside(planPath);
  const text = fileBytes(ctx, diff)?.toString('utf8');
  if (text === undefined) return undefined;
  const patched = patch(text, path, before === undefined ? undefined : before.toString('utf8'));
  return patched === undefined ? undefined : { expected: sha256(Buffer.from(patched, 'utf8')), diff };
}

/** What `run done` can tell about `step`, given the baseline taken when it became current and the reply's message. */
export function checkStep(ctx: Context, session: Session, step: CurrentStep, dialect: Dialect, message: string | undefined): StepCheck {
  const { name, raw, args } = parseLine(step.line);
  const command = dialect.commands.get(name);
  if (command === undefined) return { verified: 'trust', detail: `${name} is no command of the ${dialect.id} dialect, so nothing says what it does` };
  const action = actionFor(command, raw);
  if (command.doneMessage !== undefined) {
    if (message === undefined || message.trim() === '') return { verified: 'refused', problem: `${name} leaves only words: report ${command.doneMessage} with --message` };
    return { verified: 'message', detail: `${command.doneMessage} given with --message` };
  }
  const effect = action.effect;
  const path = action.path !== undefined ? args[action.path] : undefined;
  if (effect === undefined || path === undefined) return { verified: 'trust', detail: `a ${action.symbol} step leaves nothing on disk to check` };
  const refuse = (problem: string): StepCheck => ({ verified: 'refused', problem });
  const seen = (detail: string): StepCheck => ({ verified: 'disk', effect, detail });
  switch (effect) {
    case 'read':
      return exists(ctx, path) ? seen(`${path} exists`) : refuse(`${path} does not exist`);
    case 'create':
    case 'write':
    case 'edit': {
      const now = fileBytes(ctx, path);
      if (now === undefined) return refuse(`${path} does not exist`);
      const b = session.stepBaseline;
      const base = b !== undefined && b.planPath === step.planPath && b.index === step.index && b.line === step.line && b.path === path ? b : undefined;
      const hash = sha256(now);
      if (base?.expected !== undefined) {
        return hash === base.expected ? seen(`${base.diff ?? 'the diff'} applied to ${path}`) : refuse(`${path} is not what applying ${base.diff ?? 'the diff'} gives (apply that diff, exactly)`);
      }
      if (base === undefined) return seen(`${path} exists`); // a session from before baselines: existence is all there is
      if (effect === 'create') return base.sha256 === null ? seen(`${path} created`) : seen(`${path} exists`);
      return hash !== base.sha256 ? seen(`${path} ${base.sha256 === null ? 'created' : 'changed'}`) : refuse(`${path} is unchanged since this step began`);
    }
    case 'delete':
      return exists(ctx, path) ? refuse(`${path} still exists`) : seen(`${path} is gone`);
    case 'move': {
      const to = action.to !== undefined ? args[action.to] : undefined;
      if (to === undefined) return { verified: 'trust', detail: 'the move names no destination' };
      const problems = [...(exists(ctx, to) ? [] : [`${to} does not exist`]), ...(exists(ctx, path) ? [`${path} still exists`] : [])];
      return problems.length > 0 ? refuse(problems.join(' and ')) : seen(`${path} moved to ${to}`);
    }
    default:
      return { verified: 'trust', detail: `a ${action.symbol} step leaves nothing on disk to check` };
  }
}
