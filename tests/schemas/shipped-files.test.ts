/**
 * The shipped JSON Schemas describe what Ratchet really reads and writes: every example and
 * protocol in the repository, every file `ratchet init` and `ratchet quickstart` write, and every
 * JSON or YAML block in a README is checked against the schema it names. A file in none of Ratchet's
 * formats must be listed below with the reason, so a new format cannot slip in without a schema.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { parse as parseYaml } from 'yaml';
import { beforeAll, describe, expect, test } from 'vitest';
import { ratchet, repoRoot, tempDir } from '../helpers.js';
import { SchemaRegistry } from './registry.js';

const U = 'https://unpkg.com/@ratchet';

/** Files that name no `$schema`, by path (relative to the tree they are in): their schema, or why they have none. */
const BY_PATH: [RegExp, string | { foreign: string }][] = [
  [/^(?:examples\/)?campaign\/(?:cyclic-)?plan\.json$/u, `${U}/campaign-dag/schemas/plan.schema.json`],
  [/(?:^|\/)knowledge_core\/lessons\.jsonl$/u, `${U}/self-correction/schemas/lesson.schema.json`],
  [/(?:^|\/)logs\/activity\.log\.jsonl$/u, `${U}/orchestrator/schemas/activity-log-entry.schema.json`],
  [/(?:^|\/)\.ratchet\/refusals\.log\.jsonl$/u, `${U}/cli/schemas/refusal-log-entry.schema.json`],
  [/(?:^|\/)\.ratchet\/queues\/.+\.json$/u, `${U}/store/schemas/file-queue.schema.json`],
  [/(?:^|\/)examples\/campaign\/prior-knowledge\.json$/u, { foreign: "FTL's memory export (what `ratchet memory import` reads), not a Ratchet file" }],
  [/(?:^|\/)examples\/fsm\/broken\.fsm\.json$/u, { foreign: 'deliberately broken: `ratchet fsm check` reports its problems' }],
  [/(?:^|\/)examples\/hooks\/[^/]+\.json$/u, { foreign: "Claude Code's hook payloads (stdin of `ratchet hook`), Claude Code's format" }],
  [/(?:^|\/)\.claude\/settings\.json$/u, { foreign: "Claude Code's settings file" }],
  [/(?:^|\/)\.mcp\.json$/u, { foreign: "Claude Code's project MCP servers file (`ratchet init --claude` adds Ratchet's server)" }],
  [/(?:^|\/)\.ratchet\/pins\.json$/u, `${U}/cli/schemas/pins.schema.json`],
  [/(?:^|\/)\.ratchet\/hooks\/opened\.json$/u, `${U}/cli/schemas/opened-ledger.schema.json`],
  [/(?:^|\/)\.ratchet\/pins\/.+$/u, { foreign: "copies of the project's rule files, pinned when a task or flow started (each is its original's format, checked there)" }],
  [/(?:^|\/)protocols\/protocol\.schema\.json$/u, { foreign: 'a JSON Schema itself (the protocol schema, copied for editors)' }],
];

function walk(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    if (name === 'node_modules' || name === '.git') return [];
    const path = join(dir, name);
    return statSync(path).isDirectory() ? walk(path) : [path];
  });
}

const registry = new SchemaRegistry();

interface Checked {
  file: string;
  schema: string;
  problems: string[];
}

/** Check one file; returns what it was checked against, or throws when it cannot be classified. */
function checkFile(root: string, path: string): Checked | undefined {
  const rel = relative(root, path).split('\\').join('/');
  const isYaml = /\.ya?ml$/u.test(path);
  if (!/\.(json|jsonl|ya?ml)$/u.test(path) || /\.(digest|prev)$/u.test(path)) return undefined;
  const text = readFileSync(path, 'utf8');
  const mapped = BY_PATH.find(([re]) => re.test(rel))?.[1];
  if (mapped !== undefined && typeof mapped !== 'string') return undefined;
  if (path.endsWith('.jsonl')) {
    if (mapped === undefined) throw new Error(`${rel}: a JSONL file with no schema mapped`);
    const problems = text
      .split('\n')
      .map((line, i) => ({ line, i }))
      .filter(({ line }) => line.trim() !== '')
      .flatMap(({ line, i }) => registry.check(mapped, JSON.parse(line)).map((p) => `line ${i + 1}: ${p}`));
    return { file: rel, schema: mapped, problems };
  }
  const value: unknown = isYaml ? parseYaml(text) : JSON.parse(text);
  let named: string | undefined;
  if (isYaml) named = /^# yaml-language-server: \$schema=(\S+)/mu.exec(text)?.[1];
  else if (typeof value === 'object' && value !== null && '$schema' in value) named = String((value).$schema);
  if (named === undefined) {
    if (mapped === undefined) throw new Error(`${rel}: names no schema (${isYaml ? 'no `# yaml-language-server: $schema=` line' : 'no $schema'}) and is not in BY_PATH`);
    return { file: rel, schema: mapped, problems: registry.check(mapped, value) };
  }
  const shipped = registry.resolve(named, path);
  if (shipped === undefined) throw new Error(`${rel}: $schema ${named} is no schema Ratchet ships`);
  return { file: rel, schema: shipped.id, problems: registry.check(shipped.id, value) };
}

function checkTree(root: string, dirs: string[] = ['.']): Checked[] {
  return dirs.flatMap((d) => walk(join(root, d))).flatMap((path) => checkFile(root, path) ?? []);
}

describe('shipped JSON Schemas against real files', () => {
  let initDir: string;
  let tourDir: string;
  beforeAll(() => {
    initDir = tempDir('ratchet-schemas-init-');
    const init = ratchet(['init', '--claude', '--cwd', initDir]);
    if (init.status !== 0) throw new Error(`ratchet init failed: ${init.stderr}`);
    tourDir = join(tempDir('ratchet-schemas-tour-'), 'tour');
    const tour = ratchet(['quickstart', '--dir', tourDir]);
    if (tour.status !== 0) throw new Error(`ratchet quickstart failed: ${tour.stderr}${tour.stdout.slice(-2000)}`);
  }, 300_000);

  test('every example and protocol in the repository matches its schema', () => {
    const checked = checkTree(repoRoot, ['examples', 'protocols']);
    expect(checked.filter((c) => c.problems.length > 0)).toEqual([]);
    // The formats the examples cover: a check that silently skipped files would see fewer.
    expect(new Set(checked.map((c) => c.schema.replace(/^.*\/schemas\//u, ''))).size).toBeGreaterThanOrEqual(10);
  });

  test('every file `ratchet init --claude` writes matches its schema', () => {
    const checked = checkTree(initDir);
    expect(checked.filter((c) => c.problems.length > 0)).toEqual([]);
    expect(checked.map((c) => c.file)).toEqual(expect.arrayContaining(['knowledge_core/agent_meta.json', 'protocols/fdc.fsm.json', 'protocols/compile.json']));
  });

  test('every file `ratchet quickstart` writes (state, logs, lessons, archives) matches its schema', () => {
    const checked = checkTree(tourDir);
    expect(checked.filter((c) => c.problems.length > 0)).toEqual([]);
    const files = checked.map((c) => c.file);
    for (const f of ['.ratchet/session.json', '.ratchet/goals.json', '.ratchet/memory.json', '.ratchet/flow-artifacts.json', 'knowledge_core/lessons.jsonl', 'logs/activity.log.jsonl']) expect(files).toContain(f);
    expect(files.some((f) => f.startsWith('.ratchet/archive/'))).toBe(true);
    expect(files.some((f) => f.startsWith('.ratchet/flows/'))).toBe(true);
  });

  test('the check refuses a file that drifts from its schema (it is not vacuous)', () => {
    const id = `${U}/goals/schemas/action-types.schema.json`;
    const good = JSON.parse(readFileSync(join(repoRoot, 'protocols/action_types.json'), 'utf8')) as { action_types: Record<string, unknown>[] };
    expect(registry.check(id, good)).toEqual([]);
    const bad = structuredClone(good);
    bad.action_types[0]!.allowed_owners = ['robot'];
    expect(registry.check(id, bad).join('\n')).toContain('/action_types/0/allowed_owners/0');
  });
});

/** ```json / ```yaml blocks in every README, each with the schema it names or a reason it has none. */
describe('README blocks against the shipped schemas', () => {
  const readmes = ['README.md', ...['packages', 'apps'].flatMap((top) => readdirSync(join(repoRoot, top)).map((name) => `${top}/${name}/README.md`))].filter((f) => {
    try {
      return statSync(join(repoRoot, f)).isFile();
    } catch {
      return false;
    }
  });

  interface Block {
    readme: string;
    line: number;
    lang: string;
    body: string;
    hint: string | undefined;
  }

  /** Top-level fenced blocks only (a fence inside another, as in a rendered example, is its content). */
  const blocks: Block[] = readmes.flatMap((readme) => {
    const lines = readFileSync(join(repoRoot, readme), 'utf8').split('\n');
    const found: Block[] = [];
    let open: { fence: string; lang: string; start: number } | undefined;
    lines.forEach((line, i) => {
      if (open === undefined) {
        const m = /^(`{3,}|~{3,})\s*([\w-]*)/u.exec(line);
        if (m !== null) open = { fence: m[1]!, lang: m[2]!.toLowerCase(), start: i };
        return;
      }
      if (line.trim() !== open.fence) return;
      if (['json', 'jsonc', 'yaml', 'yml'].includes(open.lang)) {
        const hint = /^<!-- schema: (.*?) -->$/u.exec(lines[open.start - 1] ?? '')?.[1];
        found.push({ readme, line: open.start + 1, lang: open.lang, body: lines.slice(open.start + 1, i).join('\n'), hint });
      }
      open = undefined;
    });
    return found;
  });

  test('every block names its schema (in the block, or in a `<!-- schema: URL -->` comment) or says why it has none', () => {
    const unclassified = blocks.filter((b) => {
      if (b.hint !== undefined) return false;
      if (b.lang.startsWith('y')) return !/^# yaml-language-server: \$schema=/mu.test(b.body);
      return !/^\s*\{\s*"\$schema"/u.test(b.body);
    });
    expect(unclassified.map((b) => `${b.readme}:${b.line}`)).toEqual([]);
  });

  test('every block that names a schema is valid against it', () => {
    const results = blocks.flatMap((b) => {
      if (b.hint?.startsWith('none') === true) return [];
      const value: unknown = b.lang.startsWith('y') ? parseYaml(b.body) : JSON.parse(b.body);
      const named = b.hint ?? (b.lang.startsWith('y') ? /^# yaml-language-server: \$schema=(\S+)/mu.exec(b.body)?.[1] : (value as { $schema?: string }).$schema);
      if (named === undefined || registry.resolve(named, join(repoRoot, b.readme)) === undefined) return [{ at: `${b.readme}:${b.line}`, problems: [`names ${String(named)}, which Ratchet does not ship`] }];
      return [{ at: `${b.readme}:${b.line}`, problems: registry.check(named, value) }];
    });
    expect(results.filter((r) => r.problems.length > 0)).toEqual([]);
    expect(results.length).toBeGreaterThanOrEqual(10);
  });
});
