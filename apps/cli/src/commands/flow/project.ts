/**
 * What every `ratchet flow` command shares: where flows are found (the project's protocols/flows/,
 * then the bundled copy), how a session's flow is found again, the runner options, and printing a view.
 */
import { existsSync } from 'node:fs';
import { dirname, isAbsolute, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { FlowError, findFlowFile, listFlowFiles, loadFlowFile, loadFlowSettings, type FlowView, type LoadedFlow, type RunnerOptions, type SessionSummary, type UnreadableSession } from '@ratchet/flows';
import type { Context } from '../../context.js';
import { CliError } from '../../errors.js';
import { EXIT_OK, EXIT_PROBLEMS } from '../../exit-codes.js';
import type { OutputName } from '../../output/json-output.js';
import { assetPath, displayPath } from '../../paths.js';
import { pinFlow, pinnedFlow } from '../../rule-pins.js';

export const PROJECT_FLOWS = 'protocols/flows';

/** The built-in flows: assets/protocols/flows in the bundle; the repository's protocols/flows when run from source before a build. */
export function bundledFlowsDir(): string {
  const bundled = assetPath('protocols', 'flows');
  if (existsSync(bundled)) return bundled;
  return fileURLToPath(new URL('../../../../../protocols/flows/', import.meta.url));
}

export function flowDirs(ctx: Context): string[] {
  return [resolve(ctx.cwd, PROJECT_FLOWS), bundledFlowsDir()];
}

/** A file path (has a separator or a flow extension) or a flow name. */
export function isFlowPath(spec: string): boolean {
  return spec.includes('/') || spec.includes('\\') || /\.(json|ya?ml)$/i.test(spec);
}

/** Resolve what the user typed to a loaded flow and the ref the session keeps to find it again. */
export async function resolveFlow(ctx: Context, spec: string): Promise<{ loaded: LoadedFlow; ref: string }> {
  if (isFlowPath(spec)) {
    const abs = resolve(ctx.cwd, spec);
    const rel = relative(ctx.cwd, abs);
    const ref = rel.startsWith('..') || isAbsolute(rel) ? `file:${abs}` : `file:${rel.split('\\').join('/')}`;
    return { loaded: await loadFlowFile(abs), ref };
  }
  const found = findFlowFile(flowDirs(ctx), spec);
  return { loaded: await loadFlowFile(found.path), ref: `name:${spec}` };
}

/** The live flow file a ref names. */
function refPath(ctx: Context, ref: string): string {
  if (ref.startsWith('name:')) return findFlowFile(flowDirs(ctx), ref.slice(5)).path;
  if (ref.startsWith('file:')) return resolve(ctx.cwd, ref.slice(5));
  throw new CliError(`the session names its flow as ${JSON.stringify(ref)}, which is neither name:<flow> nor file:<path>`, { code: 'bad-session' });
}

/**
 * The flow a session runs. With the session id, the copy pinned for that session (pinned the first
 * time it is loaded): an edit of the project's flow applies to the next session, not this one.
 */
export async function loadRef(ctx: Context, ref: string, sessionId?: string, starting = false): Promise<LoadedFlow> {
  const existing = sessionId === undefined || starting ? undefined : pinnedFlow(ctx.cwd, sessionId, ref);
  if (existing !== undefined) return loadFlowFile(existing);
  const live = refPath(ctx, ref);
  const loaded = await loadFlowFile(live);
  if (sessionId === undefined) return loaded;
  // The step content files live beside the flow: they are pinned with it.
  const contents = Object.values(loaded.contents).map((abs) => relative(dirname(live), abs));
  const pinned = await pinFlow(ctx.cwd, sessionId, ref, live, contents);
  return pinned === live ? loaded : loadFlowFile(pinned);
}

/** Project-wide flow settings (the directive wording); absent: Ratchet's defaults. */
export const FLOW_SETTINGS = 'protocols/flow-settings.json';

/**
 * How every flow command runs: the project root, how a session finds its flow, the flows a route may
 * name (what `ratchet flow start <name>` can find), the project's directive wording and memory-file names. A settings
 * file that does not parse or validate stops the command (its place, exit 2) before anything is saved.
 */
export async function runnerOptions(ctx: Context): Promise<RunnerOptions> {
  const settings = await loadFlowSettings(resolve(ctx.cwd, FLOW_SETTINGS));
  return {
    root: ctx.cwd,
    loadFlow: (ref, sessionId) => loadRef(ctx, ref, sessionId),
    flows: () => listFlowFiles(flowDirs(ctx)).map((f) => f.name),
    ...(settings?.directive !== undefined ? { defaultDirective: settings.directive } : {}),
    ...(settings?.memoryFiles !== undefined ? { memoryFiles: settings.memoryFiles } : {}),
  };
}

/**
 * Library errors become usage errors (exit 2): without a file, the reason; with one (an invalid flow
 * or settings file), `file:line:col: reason` relative to --cwd, then every further problem on its
 * own line in the same form.
 */
export async function guard<T>(ctx: Context, fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (err) {
    if (!(err instanceof FlowError)) throw err;
    if (err.path === undefined) throw new CliError(err.reason, { code: err.code });
    const file = displayPath(ctx, err.path);
    const more = err.problems.slice(1).map((p) => `${file}${p.line !== undefined ? `:${p.line}:${p.column ?? 1}` : ''}: ${p.message}${p.pointer ? ` (at ${p.pointer})` : ''}`);
    throw new CliError([err.reason, ...more].join('\n'), { code: err.code, file, line: err.line, column: err.column });
  }
}

/** Print a view: its Markdown (human) or one JSON document (naming its schema when `schema` is given); exit 1 when it refused. */
export async function printView(ctx: Context, view: FlowView, schema?: OutputName): Promise<number> {
  if (!ctx.json) {
    ctx.out(view.text.trimEnd());
    return view.ok ? EXIT_OK : EXIT_PROBLEMS;
  }
  const { flowViewResult } = await import('../../operations/flows.js');
  const result = flowViewResult(ctx, view, schema);
  ctx.emitJson(result.document);
  return result.exitCode;
}

/** A problem as `file:line:col: reason`. */
export function placed(file: string, err: unknown): string {
  const e = err as { reason?: string; line?: number; column?: number; message: string };
  return `${file}${e.line !== undefined ? `:${e.line}:${e.column ?? 1}` : ''}: ${e.reason ?? e.message}`;
}

/** An unreadable session as `--json` shows it: its id, file (relative to --cwd), code, reason and place. */
export function unreadableRow(ctx: Context, u: UnreadableSession): UnreadableSession {
  return { ...u, file: displayPath(ctx, u.file) };
}

/** One line per session; an unreadable one as `INVALID: file:line:col: reason` (repair: ratchet doctor). */
export function printSessions(ctx: Context, sessions: readonly SessionSummary[], unreadable: readonly UnreadableSession[], indent = ''): void {
  const rows = [
    ...sessions.map((s) => ({ id: s.sessionId, line: `${indent}${s.sessionId}  ${s.flow}  ${s.status}${s.current !== null ? `  step ${s.current}` : ''}` })),
    ...unreadable.map((u) => ({ id: u.sessionId, line: `${indent}${u.sessionId}  INVALID: ${placed(displayPath(ctx, u.file), u)} (ratchet doctor)` })),
  ];
  for (const r of rows.sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0))) ctx.out(r.line);
}
