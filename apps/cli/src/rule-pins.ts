/**
 * Rule files pinned by content when work starts (DESIGN.md principle 11). A task reads the lifecycle
 * FSM, the plan dialects and their FSMs, and the hooks read the project config; a flow session reads
 * its flow. If those changed while the work runs (an agent's edit that slipped past the hooks, or a
 * person's), the rails would move under it: mapping `read_file` to `close_op` would let a plan with
 * no close run, a flow with phases removed would jump ahead. So when a task starts, the rule files it
 * will read are copied into `.ratchet/pins/task-<session>/` (their project-relative layout kept, so
 * a dialect's relative `fsm` still resolves), and every read of one while that task runs gets the
 * pinned copy; a flow session's flow is pinned the same way the first time it is loaded. A change
 * applies to the next task or flow, never to the running one; `ratchet doctor` lists pinned files
 * that differ from the live ones.
 *
 * Each copy is checked against the SHA-256 recorded for it (in `.ratchet/pins.json`) when read: a
 * pinned copy edited by hand is refused like any tampered state.
 */
import { existsSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { defineDocument, digestPathFor, openDocument, previousPathFor, recordRemoval, sha256Hex, writeFileAtomic, type SafeParseResult, type SchemaIssue } from '@ratchet/store';
import { readSessionSync } from '@ratchet/orchestrator/session-view';
import { CliError } from './errors.js';

export const PINS_FILE = '.ratchet/pins.json';
const PINS_DIR = '.ratchet/pins';
/** Pinned as absent: the project had no such file when the work started (the bundled default ran). */
const ABSENT = 'absent';

/** One scope's pins: project-relative path -> SHA-256 of the content, or "absent". */
type Pins = Record<string, string>;

interface PinsDoc {
  /** The running task's pins, by its session id. */
  task: { sessionId: string; files: Pins } | null;
  /** Each flow session's pinned flow: the ref it was started with and the pinned copy's digest. */
  flows: Record<string, { ref: string; sha256: string; file: string }>;
}

const isObj = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const isPins = (v: unknown): v is Pins => isObj(v) && Object.values(v).every((s) => typeof s === 'string');

const pinsSchema = {
  safeParse(input: unknown): SafeParseResult<PinsDoc> {
    const issues: SchemaIssue[] = [];
    if (!isObj(input)) return { success: false, error: { issues: [{ path: [], message: 'expected an object' }] } };
    const task = input.task;
    if (task !== null && !(isObj(task) && typeof task.sessionId === 'string' && isPins(task.files))) issues.push({ path: ['task'], message: 'expected null or {sessionId, files}' });
    if (!isObj(input.flows) || !Object.values(input.flows).every((f) => isObj(f) && typeof f.ref === 'string' && typeof f.sha256 === 'string' && typeof f.file === 'string')) {
      issues.push({ path: ['flows'], message: 'expected {<session>: {ref, sha256, file}}' });
    }
    for (const key of Object.keys(input)) if (key !== 'task' && key !== 'flows') issues.push({ path: [key], message: 'unknown property' });
    return issues.length > 0 ? { success: false, error: { issues } } : { success: true, data: input as unknown as PinsDoc };
  },
};

const definition = defineDocument<PinsDoc>({ schema: pinsSchema, version: 1, initial: { task: null, flows: {} } });
const openPins = (root: string) => openDocument(join(root, PINS_FILE), definition, { createParentDirs: true });

/** The rule files a task reads, project-relative: every FSM and dialect under protocols/, and the project config. */
export function taskRuleFiles(root: string): string[] {
  const out = ['ratchet.config.json', 'protocols/orchestrator.fsm.json', 'protocols/orchestrator.fsm.yaml', 'protocols/orchestrator.fsm.yml', 'protocols/fdc.dialect.json', 'protocols/research.dialect.json'];
  let names: string[] = [];
  try {
    names = readdirSync(join(root, 'protocols'));
  } catch {
    // No protocols directory: the bundled rules run, and their absence is pinned.
  }
  for (const name of names) if (/\.(?:fsm\.(?:json|ya?ml)|dialect\.json)$/.test(name)) out.push(`protocols/${name}`);
  return [...new Set(out)].sort();
}

const scopeDir = (root: string, scope: string): string => join(root, PINS_DIR, scope.replace(/[^A-Za-z0-9_.-]/g, '_'));

/** Copy `rels` (those that exist) into the scope's directory; the digests of what was pinned. */
async function snapshot(root: string, scope: string, rels: readonly string[]): Promise<Pins> {
  const dir = scopeDir(root, scope);
  rmSync(dir, { recursive: true, force: true });
  const pins: Pins = {};
  for (const rel of rels) {
    let text: string;
    try {
      text = readFileSync(join(root, rel), 'utf8');
    } catch {
      pins[rel] = ABSENT;
      continue;
    }
    pins[rel] = sha256Hex(text);
    await writeFileAtomic(join(dir, rel), text, { createParentDirs: true });
  }
  return pins;
}

/** Pin the task's rule files when task `sessionId` starts (a re-start replaces its pins). */
export async function pinTaskRules(root: string, sessionId: string): Promise<void> {
  const files = await snapshot(root, `task-${sessionId}`, taskRuleFiles(root));
  // Earlier tasks' copies go: only the running task reads pins.
  for (const name of safeList(join(root, PINS_DIR))) if (name.startsWith('task-') && name !== `task-${sessionId.replace(/[^A-Za-z0-9_.-]/g, '_')}`) rmSync(join(root, PINS_DIR, name), { recursive: true, force: true });
  await openPins(root).update((doc) => ({ ...doc, task: { sessionId, files } }));
}

function safeList(dir: string): string[] {
  try {
    return readdirSync(dir);
  } catch {
    return [];
  }
}

function readPinsSafe(root: string): PinsDoc | undefined {
  if (!existsSync(join(root, PINS_FILE))) return undefined;
  return openPins(root).readSync();
}

/**
 * The running task's session id (between start and DONE), whose pins the task's rule reads get; a
 * session that cannot be read pins nothing here (the command that reads it reports it).
 */
export function activeTaskSessionId(root: string): string | undefined {
  if (!existsSync(join(root, PINS_FILE))) return undefined;
  try {
    const session = readSessionSync(join(root, '.ratchet', 'session.json'));
    return session === undefined || session.state === 'START' || session.state === 'DONE' ? undefined : session.sessionId;
  } catch {
    return undefined;
  }
}

/**
 * The project file a pinned copy was taken from (`protocols/fdc.dialect.json`), or undefined when
 * `path` is not a pinned copy: messages name that file, the copy's own path means nothing to a person.
 */
export function pinnedSource(root: string, path: string): string | undefined {
  const rel = relative(join(root, PINS_DIR), path).split(sep);
  return rel.length < 2 || rel[0] === '..' || rel[0] === '' ? undefined : rel.slice(1).join('/');
}

/** Where the running task (if any) reads rule file `abs` (see taskRulePath). */
export function ruleFile(root: string, abs: string): { path: string; exists: boolean } {
  return taskRulePath(root, abs, activeTaskSessionId(root));
}

/** The pinned copy's path for `abs` while task `sessionId` runs, "absent" when the task ran without it, else undefined (read the live file). */
function pinnedFor(root: string, abs: string, sessionId: string | undefined): string | undefined {
  if (sessionId === undefined) return undefined;
  const rel = relative(root, abs).split(sep).join('/');
  if (rel.startsWith('..')) return undefined;
  const doc = readPinsSafe(root);
  if (doc?.task?.sessionId !== sessionId) return undefined;
  const sha = doc.task.files[rel];
  if (sha === undefined) return undefined;
  if (sha === ABSENT) return ABSENT;
  const copy = join(scopeDir(root, `task-${sessionId}`), rel);
  verifyCopy(copy, sha, rel);
  return copy;
}

function verifyCopy(copy: string, sha: string, rel: string): void {
  let text: string;
  try {
    text = readFileSync(copy, 'utf8');
  } catch {
    throw new CliError(`${rel}: its pinned copy ${relative(dirname(dirname(dirname(copy))), copy)} is missing; a person runs \`ratchet doctor\``, { code: 'tampered', file: rel });
  }
  if (sha256Hex(text) !== sha) throw new CliError(`${rel}: its pinned copy was changed outside Ratchet; refusing to use it (a person runs \`ratchet doctor\`)`, { code: 'tampered', file: rel });
}

/**
 * Where to read rule file `abs` from: the running task's pinned copy, else the file itself.
 * `exists` answers as the pin does (a file added after the task started does not exist for it).
 */
export function taskRulePath(root: string, abs: string, sessionId: string | undefined): { path: string; exists: boolean } {
  const pinned = pinnedFor(root, resolve(abs), sessionId);
  if (pinned === ABSENT) return { path: abs, exists: false };
  if (pinned !== undefined) return { path: pinned, exists: true };
  return { path: abs, exists: existsSync(abs) };
}

/** The pinned copy of the flow session `sessionId` runs (checked against its digest), or undefined when none was pinned for `ref`. */
export function pinnedFlow(root: string, sessionId: string, ref: string): string | undefined {
  const pin = readPinsSafe(root)?.flows[sessionId];
  if (pin === undefined || pin.ref !== ref) return undefined;
  const file = join(root, pin.file);
  verifyCopy(file, pin.sha256, pin.file);
  return file;
}

/**
 * Pin the flow a session runs: the flow file and the step content files beside it (`files`, relative
 * to the flow's directory). Returns the pinned copy's path, or the live path where nothing can be
 * written (a read-only command inside the agent's sandbox).
 */
export async function pinFlow(root: string, sessionId: string, ref: string, livePath: string, files: readonly string[]): Promise<string> {
  const dir = join(scopeDir(root, `flow-${sessionId}`), 'flow');
  const liveDir = dirname(livePath);
  const name = livePath.slice(liveDir.length + 1);
  try {
    rmSync(dir, { recursive: true, force: true });
    for (const rel of [...new Set([name, ...files])]) await writeFileAtomic(join(dir, rel), readFileSync(join(liveDir, rel), 'utf8'), { createParentDirs: true });
    const copy = join(dir, name);
    const file = relative(root, copy).split(sep).join('/');
    await openPins(root).update((d) => ({ ...d, flows: { ...d.flows, [sessionId]: { ref, sha256: sha256Hex(readFileSync(copy, 'utf8')), file } } }));
    return copy;
  } catch {
    return livePath;
  }
}

/**
 * Forget the flow pinned for `sessionId`: a start that was refused leaves nothing behind. `hadPins`
 * says whether `.ratchet/pins.json` existed before the start; if not, it is removed again (and the
 * removal told to the store's journal, so its absence is not read as tampering).
 */
export async function dropFlowPin(root: string, sessionId: string, hadPins: boolean): Promise<void> {
  rmSync(scopeDir(root, `flow-${sessionId}`), { recursive: true, force: true });
  const file = join(root, PINS_FILE);
  if (!hadPins) {
    for (const path of [file, digestPathFor(file), previousPathFor(file)]) rmSync(path, { force: true });
    if (existsSync(join(root, PINS_DIR))) rmSync(join(root, PINS_DIR), { recursive: true, force: true });
    await recordRemoval(file);
    return;
  }
  if (readPinsSafe(root)?.flows[sessionId] === undefined) return;
  await openPins(root).update((d) => {
    const flows = { ...d.flows };
    delete flows[sessionId];
    return { ...d, flows };
  });
}

/** Pinned rule files whose live content differs now (for `ratchet doctor`): the change waits for the next task or flow. */
export function pinDrift(root: string): { file: string; scope: string }[] {
  let doc: PinsDoc | undefined;
  try {
    doc = readPinsSafe(root);
  } catch {
    return [];
  }
  const out: { file: string; scope: string }[] = [];
  if (doc?.task !== null && doc?.task !== undefined) {
    for (const [rel, sha] of Object.entries(doc.task.files)) {
      let live: string = ABSENT;
      try {
        live = sha256Hex(readFileSync(join(root, rel), 'utf8'));
      } catch {
        // Gone: differs from a pinned copy, not from a pinned absence.
      }
      if (live !== sha) out.push({ file: rel, scope: `task session ${doc.task.sessionId}` });
    }
  }
  return out;
}
