/**
 * The orientation cascade `ratchet task start` runs before any planning (the seed's AORP):
 *   L1 self-awareness: knowledge_core/agent_meta.json must exist and be valid, else the task fails
 *      orientation (OrientationError, naming the file and place);
 *   L2 repository sync: every artifact under knowledge_core/ is loaded and summarised (a broken
 *      artifact is reported, not fatal: the agent should know, and L1 is the only hard gate), and
 *      what the last tasks left is reviewed: the most recent post-mortem, the pending and manual
 *      lessons, the open code suggestions (measured by the caller's `review`: the CLI passes
 *      @ratchet/self-correction's `reviewSelfCorrection`; this package does not import it);
 *   L3 environment probe: file-system write/read/delete with latency, network reachability with a
 *      hard timeout (it can never hang the task), which standard environment variables are set
 *      (names only: values may be secrets).
 * I/O is confined here and injectable (clock, env, network target), so tests run it for real.
 */
import { readdir, rm, stat } from 'node:fs/promises';
import type { Socket } from 'node:net';
import { join, relative, sep } from 'node:path';
import { NotFoundError, readJsonFile, readTextFile, writeFileAtomic } from '@ratchet/store';
import type { z } from 'zod';
import type { AgentMetaSchema, OrientationReportSchema } from './schema.js';
import type { Clock } from './types.js';
import { ORIENTATION_REPORT_SCHEMA_URL } from './urls.js';

export const KNOWLEDGE_CORE = 'knowledge_core';
export const AGENT_META_PATH = 'knowledge_core/agent_meta.json';
/** Standard variables the probe looks for; their values are never read into the report. */
export const PROBED_ENV = ['PATH', 'HOME', 'SHELL', 'USER', 'LANG', 'TMPDIR', 'CI'] as const;
export const DEFAULT_NETWORK_TARGET = { host: 'registry.npmjs.org', port: 443 };
export const DEFAULT_NETWORK_TIMEOUT_MS = 1500;
/** L2 stops summarising after this many artifacts (a knowledge_core is a handful of files). */
const MAX_ARTIFACTS = 500;

/**
 * knowledge_core/agent_meta.json as orientation returns it: the file's type (its zod schema; other
 * keys are kept) narrowed to a `name`, which a Jules file's `model_name` stands in for when absent.
 */
export type AgentMeta = z.infer<typeof AgentMetaSchema> & { name: string };

/** The orientation report as the file `task start` writes (.ratchet/orientation.json; schemas/orientation-report.schema.json). */
export type OrientationReportFile = z.infer<typeof OrientationReportSchema>;

/** One knowledge_core/ artifact, loaded and summarised (L2): `items` are the records of a .jsonl, top-level keys of a .json, headings of a .md. */
export type ArtifactSummary = OrientationReportFile['level2']['artifacts'][number];

export type NetworkProbe = OrientationReportFile['level3']['network'];

/**
 * What the last tasks left, as the orientation report records it. The caller measures it: the CLI
 * composes @ratchet/self-correction's `reviewSelfCorrection`, which this package does not import
 * (DESIGN.md's dependency direction).
 */
export type OrientationReview = OrientationReportFile['level2']['review'];

/** What the cascade found, before the file's envelope (`$schema`, `schemaVersion`, `taskId`, `sessionId`) is put around it. */
export type OrientationReport = Omit<OrientationReportFile, '$schema' | 'schemaVersion' | 'taskId' | 'sessionId' | 'level1'> & {
  level1: { path: string; agent: AgentMeta };
};

export interface OrientationOptions extends Clock {
  /** Project root. */
  root: string;
  env: Readonly<Record<string, string | undefined>>;
  /** Where the file-system probe writes its scratch file (default: <root>/.ratchet). */
  scratchDir?: string;
  /** `false` skips the network probe (offline machines, tests). */
  network?: { host: string; port: number; timeoutMs: number } | false;
  /**
   * L2's review of what the last tasks left, given the project root. Called only here, so the
   * caller can load its lessons parser lazily (only `task start` needs it).
   */
  review: (root: string) => Promise<OrientationReview>;
}

export type OrientationErrorCode = 'agent-meta-missing' | 'agent-meta-invalid';

/** L1 failed: the agent cannot establish who it is. The task must not proceed to planning. */
export class OrientationError extends Error {
  readonly code: OrientationErrorCode;
  readonly path: string;
  readonly line: number | undefined;
  readonly column: number | undefined;
  constructor(code: OrientationErrorCode, path: string, message: string, place: { line?: number; column?: number } = {}) {
    super(message);
    this.name = 'OrientationError';
    this.code = code;
    this.path = path;
    this.line = place.line;
    this.column = place.column;
  }
}

export const ORIENTATION_REPORT_VERSION = 1;

export function orientationReportFile(report: OrientationReport, task: { taskId: string; sessionId?: string | undefined }): OrientationReportFile {
  return {
    $schema: ORIENTATION_REPORT_SCHEMA_URL,
    schemaVersion: ORIENTATION_REPORT_VERSION,
    taskId: task.taskId,
    ...(task.sessionId !== undefined ? { sessionId: task.sessionId } : {}),
    ...report,
  };
}

export async function orient(options: OrientationOptions): Promise<OrientationReport> {
  const generatedAt = options.now().toISOString();
  const agent = await readAgentMeta(options.root);
  const level2 = { ...(await loadArtifacts(options.root)), review: await options.review(options.root) };
  const [filesystem, network] = await Promise.all([probeFilesystem(options.scratchDir ?? join(options.root, '.ratchet')), probeNetwork(options.network)]);
  const present = PROBED_ENV.filter((name) => (options.env[name] ?? '') !== '');
  const missing = PROBED_ENV.filter((name) => !present.includes(name));
  return { generatedAt, level1: { path: AGENT_META_PATH, agent }, level2, level3: { filesystem, network, environment: { present, missing } } };
}

/** L1: read and check knowledge_core/agent_meta.json; throws OrientationError naming the place. */
export async function readAgentMeta(root: string): Promise<AgentMeta> {
  const path = join(root, AGENT_META_PATH);
  let doc;
  try {
    doc = await readJsonFile(path);
  } catch (err) {
    if (err instanceof NotFoundError) {
      throw new OrientationError('agent-meta-missing', path, `${AGENT_META_PATH} is missing: orientation level 1 needs it to know which agent runs (create it with \`ratchet init\`, or write {"name": "..."})`);
    }
    const e = err as { message?: string; line?: number; column?: number };
    throw new OrientationError('agent-meta-invalid', path, e.message ?? String(err), { ...(e.line ? { line: e.line } : {}), ...(e.column ? { column: e.column } : {}) });
  }
  const value = withJulesName(doc.value);
  const problem = agentMetaProblem(value);
  if (problem) {
    const place = doc.locate(problem.pointer);
    throw new OrientationError('agent-meta-invalid', path, `${AGENT_META_PATH}: ${problem.message}`, place ? { line: place.line, column: place.column } : {});
  }
  return value as AgentMeta;
}

/**
 * The original Jules system's agent_meta.json names the agent `model_name` (beside
 * `knowledge_cutoff` and others): read as `name` when there is no `name`, the other keys kept.
 */
function withJulesName(value: unknown): unknown {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return value;
  const meta = value as Record<string, unknown>;
  if (Object.hasOwn(meta, 'name') || typeof meta.model_name !== 'string' || meta.model_name === '') return value;
  return { name: meta.model_name, ...meta };
}

/** The first problem in an agent_meta value (same rules as AgentMetaSchema in schema.ts), or undefined. */
export function agentMetaProblem(input: unknown): { pointer: string; message: string } | undefined {
  // Jules' shape names the agent model_name: it stands in for a missing name.
  const value = withJulesName(input);
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return { pointer: '', message: 'expected a JSON object with a "name"' };
  const meta = value as Record<string, unknown>;
  if (typeof meta.name !== 'string' || meta.name === '') return { pointer: Object.hasOwn(meta, 'name') ? '/name' : '', message: '"name" must be a non-empty string' };
  for (const key of ['$schema', 'version', 'description', 'knowledge_cutoff'] as const) {
    if (Object.hasOwn(meta, key) && typeof meta[key] !== 'string') return { pointer: `/${key}`, message: `"${key}" must be a string` };
  }
  if (Object.hasOwn(meta, 'model_name') && (typeof meta.model_name !== 'string' || meta.model_name === '')) return { pointer: '/model_name', message: '"model_name" must be a non-empty string' };
  for (const key of ['capabilities', 'limitations'] as const) {
    if (!Object.hasOwn(meta, key)) continue;
    const list = meta[key];
    if (!Array.isArray(list)) return { pointer: `/${key}`, message: `"${key}" must be an array of strings` };
    const bad = list.findIndex((x) => typeof x !== 'string');
    if (bad >= 0) return { pointer: `/${key}/${bad}`, message: `"${key}" must be an array of strings` };
  }
  return undefined;
}

async function loadArtifacts(root: string): Promise<Omit<OrientationReport['level2'], 'review'>> {
  const base = join(root, KNOWLEDGE_CORE);
  const files: string[] = [];
  let truncated = false;
  const walk = async (dir: string): Promise<void> => {
    const entries = await readdir(dir, { withFileTypes: true }).catch(() => []);
    entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    for (const entry of entries) {
      if (files.length >= MAX_ARTIFACTS) {
        truncated = true;
        return;
      }
      const full = join(dir, entry.name);
      if (entry.isDirectory()) await walk(full);
      else if (entry.isFile()) files.push(full);
    }
  };
  await walk(base);
  const artifacts: ArtifactSummary[] = [];
  for (const file of files) artifacts.push(await summarise(root, file));
  return { artifacts, truncated };
}

async function summarise(root: string, file: string): Promise<ArtifactSummary> {
  const path = relative(root, file).split(sep).join('/');
  const kind: ArtifactSummary['kind'] = file.endsWith('.jsonl') ? 'jsonl' : file.endsWith('.json') ? 'json' : file.endsWith('.md') ? 'markdown' : 'other';
  const bytes = (await stat(file)).size;
  try {
    if (kind === 'json') {
      const { value } = await readJsonFile(file);
      const items = typeof value === 'object' && value !== null ? Object.keys(value).length : 1;
      return { path, kind, bytes, ok: true, items };
    }
    if (kind === 'jsonl') {
      const { text } = await readTextFile(file);
      let items = 0;
      const lines = text.split('\n');
      for (let i = 0; i < lines.length; i++) {
        if (lines[i]!.trim() === '') continue;
        try {
          JSON.parse(lines[i]!);
        } catch (err) {
          return { path, kind, bytes, ok: false, items, error: `line ${i + 1}: ${(err as Error).message}` };
        }
        items++;
      }
      return { path, kind, bytes, ok: true, items };
    }
    if (kind === 'markdown') {
      const { text } = await readTextFile(file);
      return { path, kind, bytes, ok: true, items: (text.match(/^#{1,6}\s/gm) ?? []).length };
    }
    return { path, kind, bytes, ok: true };
  } catch (err) {
    const e = err as { message?: string };
    return { path, kind, bytes, ok: false, error: e.message ?? String(err) };
  }
}

async function probeFilesystem(dir: string): Promise<OrientationReport['level3']['filesystem']> {
  const file = join(dir, `.probe-${process.pid}-${crypto.randomUUID()}`);
  const payload = `ratchet probe ${crypto.randomUUID()}\n`;
  try {
    let t = performance.now();
    await writeFileAtomic(file, payload, { createParentDirs: true });
    const writeMs = performance.now() - t;
    t = performance.now();
    const { text } = await readTextFile(file);
    const readMs = performance.now() - t;
    if (text !== payload) throw new Error('read back different bytes than were written');
    t = performance.now();
    await rm(file);
    const deleteMs = performance.now() - t;
    return { ok: true, writeMs: round(writeMs), readMs: round(readMs), deleteMs: round(deleteMs) };
  } catch (err) {
    await rm(file, { force: true }).catch(() => undefined);
    return { ok: false, error: (err as Error).message };
  }
}

export interface ProbeNetworkDependencies {
  /** The socket factory (tests pass one that never answers). */
  open?: (options: { host: string; port: number }) => Pick<Socket, 'once' | 'destroy'>;
  /** DNS servers for the name lookup (`host[:port]`); default the system's. */
  dnsServers?: readonly string[];
}

/**
 * Network reachability: resolve the host, then a TCP connect, both under one hard deadline. It
 * resolves (never rejects) within `timeoutMs`, and leaves nothing behind that could keep the process
 * alive: the name is looked up through a cancellable DNS resolver (c-ares with the same timeout),
 * not `getaddrinfo`, whose thread-pool request cannot be abandoned and would hold a CLI open for the
 * system resolver's own timeouts after the report was printed.
 */
export async function probeNetwork(
  target: OrientationOptions['network'] = { ...DEFAULT_NETWORK_TARGET, timeoutMs: DEFAULT_NETWORK_TIMEOUT_MS },
  dependencies: ProbeNetworkDependencies = {},
): Promise<NetworkProbe> {
  if (target === false) return { skipped: true };
  // Loaded here, not at module level: every orchestrator command shares this module's chunk in the
  // CLI bundle, and `run next` (called once per plan step) should not pay for the network stack.
  const [{ connect, isIP }, { Resolver }] = await Promise.all([import('node:net'), import('node:dns/promises')]);
  const open = dependencies.open ?? connect;
  const name = `${target.host}:${target.port}`;
  const started = performance.now();
  return new Promise((resolvePromise) => {
    let settled = false;
    let socket: Pick<Socket, 'once' | 'destroy'> | undefined;
    const host = target.host === 'localhost' ? '127.0.0.1' : target.host.replace(/^\[(.*)\]$/, '$1');
    const resolver = isIP(host) === 0 && dependencies.open === undefined ? new Resolver({ timeout: target.timeoutMs, tries: 1 }) : undefined;
    const finish = (result: Omit<NetworkProbe, 'skipped' | 'target' | 'ms'>): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolver?.cancel();
      socket?.destroy();
      resolvePromise({ skipped: false, target: name, ms: round(performance.now() - started), ...result });
    };
    const timer = setTimeout(() => finish({ ok: false, error: `no connection within ${target.timeoutMs} ms` }), target.timeoutMs);
    timer.unref();
    const connectTo = (host: string): void => {
      if (settled) return;
      socket = open({ host, port: target.port });
      socket.once('connect', () => finish({ ok: true }));
      socket.once('error', (err) => finish({ ok: false, error: err.message }));
    };
    if (resolver === undefined) {
      connectTo(host);
      return;
    }
    if (dependencies.dnsServers) resolver.setServers([...dependencies.dnsServers]);
    const lookups = [resolver.resolve4(host), resolver.resolve6(host)].map((p) => p.then((addresses) => addresses[0] ?? Promise.reject(new Error('no address'))));
    Promise.any(lookups).then(connectTo, (err: AggregateError) => {
      const first = err.errors[0] as { code?: string; message?: string } | undefined;
      if (first?.code !== 'ECANCELLED') finish({ ok: false, error: `cannot resolve ${target.host}: ${first?.code ?? first?.message ?? 'no address'}` });
    });
  });
}

const round = (ms: number): number => Math.round(ms * 100) / 100;
