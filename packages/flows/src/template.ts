/**
 * `{name}` templates for artifact paths and completion commands, and the rule that keeps every
 * artifact inside the project: a template that escapes statically is refused when the flow loads,
 * one that escapes through a variable's value is refused when it is resolved.
 */
import { OutsideRootError, resolveInsideRoot } from '@ratchet/store';
import { FlowError } from './errors.js';

export const VAR_NAME = /^[A-Za-z][A-Za-z0-9_]*$/;
const PLACEHOLDER = /\{([^{}]*)\}/g;

/** Names used in a template, in order of first use. A malformed `{...}` is returned as is (the validator reports it). */
export function placeholders(template: string): string[] {
  const out: string[] = [];
  for (const m of template.matchAll(PLACEHOLDER)) if (!out.includes(m[1]!)) out.push(m[1]!);
  return out;
}

/** Fill a template. Missing variables stay visible as `<name>` (a directive must still be readable). */
export function renderTemplate(template: string, vars: Readonly<Record<string, string>>): string {
  return template.replace(PLACEHOLDER, (_m, name: string) => (Object.hasOwn(vars, name) ? vars[name]! : `<${name}>`));
}

/** Why a path template could point outside the project regardless of its variables, if it could. */
export function staticPathProblem(template: string): string | undefined {
  if (template.includes('\0')) return 'contains a NUL character';
  const path = template.replace(/\\/g, '/');
  if (path.startsWith('/') || /^[A-Za-z]:/.test(path) || path.startsWith('~')) return 'must be relative to the project root';
  const segments = path.replace(PLACEHOLDER, 'x').split('/');
  if (segments.includes('..')) return 'must not contain ".." segments: artifacts stay inside the project';
  if (path.trim() === '') return 'is empty';
  return undefined;
}

/**
 * Why a variable's value may not be put into a path template, if it may not. Even when the result
 * would stay inside the project, a value that climbs (`..`) or starts over (`/etc/x`) moves the
 * artifact out of the directory the flow chose for it (`.claude/memory/`), so it is refused.
 */
export function valuePathProblem(value: string): string | undefined {
  const v = value.replace(/\\/g, '/');
  if (v.includes('\0')) return 'contains a NUL character';
  if (v.startsWith('/') || /^[A-Za-z]:/.test(v)) return 'is an absolute path';
  if (v.split('/').includes('..')) return 'contains a ".." segment';
  return undefined;
}

/**
 * Resolve a rendered, project-relative path (an artifact, or a content file under the flow's
 * directory): through the store's check, so a symbolic link on the way out is refused like `..`.
 * Throws `artifact-outside-project`, or `bad-input` for a NUL byte.
 */
export function resolveInside(root: string, relPath: string, what = 'artifact'): string {
  try {
    return resolveInsideRoot(root, relPath);
  } catch (err) {
    if (!(err instanceof OutsideRootError)) throw err;
    if (err.kind === 'nul') throw new FlowError('bad-input', `${what} path contains a NUL character`);
    throw new FlowError('artifact-outside-project', `${what} path ${JSON.stringify(relPath)} ${err.reason}`);
  }
}
