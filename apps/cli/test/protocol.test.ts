import { existsSync, readdirSync } from 'node:fs';
import { cp, mkdir, mkdtemp, readFile, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, test } from 'vitest';
import type { Io } from '../src/context.js';
import { run } from '../src/main.js';
import { loadProtocolSet, renderProtocols } from '@ratchet/protocol-compiler';
import { cliUsage } from '../src/commands/protocol/shared.js';
import { buildProgram } from '../src/program.js';
import { DIST, chunksOf, loadedWith, sourcesOf } from './bundle.js';

const repoRoot = fileURLToPath(new URL('../../..', import.meta.url));

function capture(cwd: string): { io: Io; out: () => string; err: () => string } {
  let out = '';
  let err = '';
  return {
    io: { stdout: (t) => void (out += t), stderr: (t) => void (err += t), isTTY: false, env: {}, cwd, readStdin: () => Promise.resolve('') },
    out: () => out,
    err: () => err,
  };
}

async function demo(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'cli-protocol-'));
  await cp(join(repoRoot, 'examples/protocols/demo'), join(dir, 'protocols'), { recursive: true });
  return dir;
}

describe('ratchet protocol compile', () => {
  test("the repository's AGENTS.md is up to date with protocols/ (CI fails when it is stale)", async () => {
    const c = capture(repoRoot);
    const code = await run(['protocol', 'compile', '--check'], c.io);
    expect(code, `AGENTS.md is stale: run \`ratchet protocol compile\`\n${c.out()}`).toBe(0);
  });

  test("Ratchet's protocols/ carries the seed's protocol set and how flows, goals and turns are used, naming ratchet commands instead of Python scripts", async () => {
    const set = await loadProtocolSet(join(repoRoot, 'protocols'));
    expect(set.version).toMatch(/^\d+\.\d+\.\d+/);
    const rules = Object.fromEntries(set.sources.map((s) => [s.protocol.protocol_id, s.protocol.rules.map((r) => r.rule_id)]));
    // The seed's protocols and rules (its three research protocols are one here).
    const seed: Record<string, string[]> = {
      'aorp-header': ['aorp-identity', 'aorp-versioning'],
      'core-directive': ['mandatory-fdc-start'],
      decidability: ['non-turing-completeness', 'bounded-recursion', 'fsm-adherence'],
      'orientation-cascade': ['l1-self-awareness', 'l2-repository-sync', 'l3-environmental-probing', 'l4-deep-research-cycle'],
      fdc: ['fdc-entry-point', 'fdc-state-transitions', 'phase1-deconstruction', 'phase2-planning', 'phase3-execution', 'phase4-post-mortem'],
      'standing-orders': ['aorp-mandate', 'rag-mandate', 'toolchain-mandate'],
      cfdc: ['hierarchical-planning-via-call-plan', 'max-recursion-depth'],
      'plan-registry': ['registry-definition', 'registry-first-resolution', 'registry-management-tool'],
      'self-correction': ['structured-lessons', 'programmatic-updates', 'automated-orchestration', 'programmatic-rule-refinement', 'autonomous-code-suggestion'],
      research: ['specialized-fsm', 'executable-plans', 'mandate-research-tools', 'structured-research-phases', 'l4-invocation'],
      // Beyond seed 000: how an agent uses flows (seed 001), goals and turns (seed 002).
      'flows-goals-turns': ['reason-before-work', 'start-the-route', 'route-by-meaning', 'questions-halt', 'agents-write-fresh-work', 'validation-decides', 'goals-across-turns'],
    };
    expect(Object.keys(rules)).toEqual(Object.keys(seed));
    for (const [id, ids] of Object.entries(seed)) expect(rules[id], id).toEqual(ids);
    for (const source of set.sources) {
      const text = `${JSON.stringify(source.protocol)}\n${source.prose?.text ?? ''}`;
      expect(text, source.file).not.toMatch(/\.py\b|python|tooling\//i);
      for (const tool of source.protocol.associated_tools ?? []) expect(tool, source.file).toMatch(/^ratchet /);
    }
  });

  test('embeds usage from the CLI definitions; --check exits 1 with a diff; same sources, same bytes', async () => {
    const dir = await demo();
    await writeFile(join(dir, 'AGENTS.md'), '# Mine\n\nKeep me.\n');
    // Full detail embeds the usage; a plain recompile and --check then keep to it.
    expect(await run(['protocol', 'compile', '--detail', 'full'], capture(dir).io)).toBe(0);
    const first = await readFile(join(dir, 'AGENTS.md'), 'utf8');
    expect(first.startsWith('# Mine\n\nKeep me.\n')).toBe(true);
    expect(first).toContain('### `ratchet plan lint`\n\n```text\nUsage: ratchet plan lint [options] <plan>');
    expect(await run(['protocol', 'compile'], capture(dir).io)).toBe(0);
    expect(await readFile(join(dir, 'AGENTS.md'), 'utf8')).toBe(first);

    const upd = capture(dir);
    expect(await run(['protocol', 'update', 'add-tool', 'greeting', 'ratchet fsm check'], upd.io)).toBe(0);
    const check = capture(dir);
    expect(await run(['protocol', 'compile', '--check'], check.io)).toBe(1);
    expect(check.out()).toContain('AGENTS.md: stale');
    expect(check.out()).toMatch(/^\+### `ratchet fsm check`$/m);
    expect(await readFile(join(dir, 'AGENTS.md'), 'utf8')).toBe(first);
    const json = capture(dir);
    expect(await run(['--json', 'protocol', 'compile', '--check'], json.io)).toBe(1);
    expect(JSON.parse(json.out())).toMatchObject({ ok: false, protocols: ['greeting'], targets: [{ path: 'AGENTS.md', status: 'stale' }] });
  });

  test('several targets with --out', async () => {
    const dir = await demo();
    expect(await run(['protocol', 'compile', '--out', 'AGENTS.md', '--out', 'CLAUDE.md'], capture(dir).io)).toBe(0);
    expect(await readFile(join(dir, 'CLAUDE.md'), 'utf8')).toBe(await readFile(join(dir, 'AGENTS.md'), 'utf8'));
  });

  test('bad input: exit 2 with file:line:col, nothing written', async () => {
    const dir = await demo();
    await writeFile(join(dir, 'protocols/20-bad.protocol.json'), '{\n  "protocol_id": "bad",\n  oops\n}\n');
    const c = capture(dir);
    expect(await run(['protocol', 'compile'], c.io)).toBe(2);
    expect(c.err()).toMatch(/20-bad\.protocol\.json:3:\d+: /);
    await writeFile(join(dir, 'protocols/20-bad.protocol.json'), '{\n  "protocol_id": "greeting",\n  "description": "d",\n  "rules": []\n}\n');
    const dup = capture(dir);
    expect(await run(['protocol', 'compile'], dup.io)).toBe(2);
    expect(dup.err()).toContain('already used by');
    await writeFile(join(dir, 'protocols/20-bad.protocol.json'), '{\n  "protocol_id": "x",\n  "description": 5,\n  "rules": []\n}\n');
    const schema = capture(dir);
    expect(await run(['protocol', 'compile'], schema.io)).toBe(2);
    expect(schema.err()).toMatch(/20-bad\.protocol\.json:3:\d+: \/description: must be string/);
  });

  test('protocol update: unknown rule is exit 2; --dry-run shows the diff and writes nothing', async () => {
    const dir = await demo();
    const source = join(dir, 'protocols/10-greeting.protocol.json');
    const before = await readFile(source, 'utf8');
    const bad = capture(dir);
    expect(await run(['protocol', 'update', 'update-rule', 'greeting', 'nope', 'x'], bad.io)).toBe(2);
    expect(bad.err()).toContain('no rule "nope"');
    const dry = capture(dir);
    expect(await run(['protocol', 'update', 'update-rule', 'greeting', 'greet-politely', 'Say hello.', '--dry-run'], dry.io)).toBe(0);
    expect(dry.out()).toContain('+      "description": "Say hello.",');
    expect(await readFile(source, 'utf8')).toBe(before);
  });

  test('every problem is listed, each with its relative file:line:col, pointer and message (exit 2)', async () => {
    const dir = await demo();
    await writeFile(join(dir, 'protocols/20-bad.protocol.json'), '{\n  "protocol_id": "Bad",\n  "description": "",\n  "rules": []\n}\n');
    await writeFile(join(dir, 'protocols/30-worse.protocol.json'), '{\n  "protocol_id": "worse",\n');
    const c = capture(dir);
    expect(await run(['protocol', 'compile'], c.io)).toBe(2);
    expect(c.err().trim().split('\n')).toEqual([
      'protocols/20-bad.protocol.json:2:18: /protocol_id: must match pattern "^[a-z0-9-]+$"',
      'protocols/20-bad.protocol.json:3:18: /description: must NOT have fewer than 1 characters',
      "protocols/30-worse.protocol.json:1:1: unclosed object: '{' is never closed",
    ]);
    expect(existsSync(join(dir, 'AGENTS.md'))).toBe(false);
    const json = capture(dir);
    expect(await run(['--json', 'protocol', 'compile'], json.io)).toBe(2);
    const doc = JSON.parse(json.out()) as { ok: boolean; error: { file: string; line: number }; problems: { file: string; pointer?: string }[] };
    expect(doc.ok).toBe(false);
    expect(doc.error).toMatchObject({ code: 'schema-violation', file: 'protocols/20-bad.protocol.json', line: 2, pointer: '/protocol_id' });
    expect(doc.problems.map((p) => p.pointer ?? null)).toEqual(['/protocol_id', '/description', null]);
  });

  test('a protocol naming a ratchet command that does not exist fails the compile, and update refuses to add one', async () => {
    const dir = await demo();
    const source = join(dir, 'protocols/10-greeting.protocol.json');
    const before = await readFile(source, 'utf8');
    const add = capture(dir);
    expect(await run(['protocol', 'update', 'add-tool', 'greeting', 'ratchet plan lnit'], add.io)).toBe(2);
    expect(add.err()).toContain('"ratchet plan lnit" is not a ratchet command');
    expect(await readFile(source, 'utf8')).toBe(before);
    await writeFile(source, before.replace('"ratchet plan lint"', '"ratchet plan lnit"'));
    const c = capture(dir);
    expect(await run(['protocol', 'compile'], c.io)).toBe(2);
    expect(c.err()).toMatch(/^protocols\/10-greeting\.protocol\.json:\d+:\d+: \/associated_tools\/0: "ratchet plan lnit" is not a command of this CLI/);
  });

  test('the embedded usage follows the command definitions: change a definition, the compiled docs change with it', async () => {
    const dir = await demo();
    const set = await loadProtocolSet(join(dir, 'protocols'));
    const render = (usage: (tool: string) => string | undefined): string => renderProtocols(set, { usageFor: usage });
    const program = await buildProgram(capture(dir).io, { exitCode: 0 });
    const before = render(await cliUsage(program));
    const lint = program.commands.find((c) => c.name() === 'plan')!.commands.find((c) => c.name() === 'lint')!;
    lint.option('--brand-new-flag', 'a flag added to the definition');
    const after = render(await cliUsage(program));
    expect(before).not.toContain('--brand-new-flag');
    expect(after).toMatch(/^ {2}--brand-new-flag +a flag added to the definition$/m);
    // And for the repository's protocols, `protocol show <id>` gives every ratchet tool each names with
    // exactly the CLI's help, while the (compact) AGENTS.md names each tool.
    const agents = await readFile(join(repoRoot, 'AGENTS.md'), 'utf8');
    const usage = await cliUsage();
    const repoSet = await loadProtocolSet(join(repoRoot, 'protocols'));
    const tools = new Set(repoSet.sources.flatMap((s) => s.protocol.associated_tools ?? []).filter((t) => t.startsWith('ratchet ')));
    expect(tools.size).toBeGreaterThan(10);
    for (const source of repoSet.sources) {
      const shown = capture(repoRoot);
      expect(await run(['protocol', 'show', source.protocol.protocol_id], shown.io)).toBe(0);
      for (const tool of (source.protocol.associated_tools ?? []).filter((t) => t.startsWith('ratchet '))) {
        expect(agents, tool).toContain(`\`${tool}\``);
        expect(shown.out(), tool).toContain(`### \`${tool}\`\n\n\`\`\`text\n${usage(tool)!.replace(/[ \t]+$/gm, '').trim()}\n\`\`\``);
      }
    }
  });

  test('protocol update keeps the file as written: 4-space indent, unusual key order, one-line arrays, no final newline', async () => {
    const dir = await demo();
    const source = join(dir, 'protocols/10-greeting.protocol.json');
    const text = '{\n    "rules": [ { "rule_id": "greet-politely", "description": "Be nice.", "enforcement": "Review." } ],\n    "associated_tools": ["ratchet plan lint"],\n    "description": "Greets.",\n    "protocol_id": "greeting"\n}';
    await writeFile(source, text);
    expect(await run(['protocol', 'update', 'add-tool', 'greeting', 'ratchet plan analyze'], capture(dir).io)).toBe(0);
    expect(await run(['protocol', 'update', 'update-rule', 'greeting', 'greet-politely', 'Be nice, always.'], capture(dir).io)).toBe(0);
    expect(await readFile(source, 'utf8')).toBe(
      '{\n    "rules": [ { "rule_id": "greet-politely", "description": "Be nice, always.", "enforcement": "Review." } ],\n    "associated_tools": ["ratchet plan lint", "ratchet plan analyze"],\n    "description": "Greets.",\n    "protocol_id": "greeting"\n}',
    );
  });

  test('--timestamp stamps the block; --check still passes; an empty protocols directory is said', async () => {
    const dir = await demo();
    expect(await run(['protocol', 'compile', '--timestamp'], capture(dir).io)).toBe(0);
    expect(await readFile(join(dir, 'AGENTS.md'), 'utf8')).toMatch(/\*\*Compiled at:\*\* \d{4}-/);
    expect(await run(['protocol', 'compile', '--check'], capture(dir).io)).toBe(0);
    const empty = await mkdtemp(join(tmpdir(), 'cli-protocol-empty-'));
    await mkdir(join(empty, 'protocols'));
    const c = capture(empty);
    expect(await run(['protocol', 'compile'], c.io)).toBe(0);
    expect(c.err()).toContain('has no *.protocol.json sources');
  });

  test('protocols/compile.json names the targets once: compile, --check and lessons apply all keep every target in step', async () => {
    const dir = await demo();
    await writeFile(join(dir, 'protocols/compile.json'), '{"targets": ["AGENTS.md", "docs/CLAUDE.md"]}\n');
    const c = capture(dir);
    expect(await run(['protocol', 'compile'], c.io)).toBe(0);
    expect(c.out()).toContain('docs/CLAUDE.md: created');
    expect(await readFile(join(dir, 'docs/CLAUDE.md'), 'utf8')).toBe(await readFile(join(dir, 'AGENTS.md'), 'utf8'));
    await writeFile(join(dir, 'pm.md'), "## Lessons Learned\n\n**Lesson:** a lesson worth keeping\n**Action:** add tool 'ratchet fsm check' to protocol 'greeting'\n");
    expect(await run(['lessons', 'extract', 'pm.md', '--task', 't'], capture(dir).io)).toBe(0);
    const apply = capture(dir);
    expect(await run(['lessons', 'apply'], apply.io)).toBe(0);
    expect(apply.out()).toContain('recompiled AGENTS.md: updated');
    expect(apply.out()).toContain('recompiled docs/CLAUDE.md: updated');
    expect(await run(['protocol', 'compile', '--check'], capture(dir).io)).toBe(0);
    // --out still wins: a person chose it.
    const only = capture(dir);
    expect(await run(['protocol', 'compile', '--out', 'ONLY.md'], only.io)).toBe(0);
    expect(only.out().trim().split('\n')).toEqual(['ONLY.md: created (1 protocols, version 0.1.0, compact)']);
  });

  test('compile.json targets outside the project are refused with their place (absolute, "..", through a symlink)', async () => {
    const dir = await demo();
    const outside = await mkdtemp(join(tmpdir(), 'cli-protocol-outside-'));
    await symlink(outside, join(dir, 'docs'));
    for (const [target, why] of [['/tmp/x.md', 'not absolute'], ['../x.md', '".." segments'], ['docs/AGENTS.md', 'through a symbolic link to']] as const) {
      await writeFile(join(dir, 'protocols/compile.json'), `{\n  "targets": [\n    ${JSON.stringify(target)}\n  ]\n}\n`);
      const c = capture(dir);
      expect(await run(['protocol', 'compile'], c.io), target).toBe(2);
      expect(c.err(), target).toMatch(/^protocols\/compile\.json(:3:5)?: \/targets\/0: /);
      expect(c.err(), target).toContain(why);
    }
    expect(readdirSync(outside)).toEqual([]);
  });

  test.skipIf(!existsSync(DIST))('start-up: the bundled protocol commands load neither zod nor the Markdown parser', () => {
    const entries = chunksOf(/src\/commands\/protocol\/(compile|update)\.ts$/);
    expect(entries).toHaveLength(2);
    for (const entry of entries) {
      const sources = [...loadedWith(entry)].flatMap(sourcesOf);
      expect(sources.some((s) => s.includes('protocol-compiler/src/compile.ts') || s.includes('protocol-compiler/src/edit.ts')), entry).toBe(true);
      expect(sources.filter((s) => /markdown-it|micromark|mdast|\/zod\//.test(s)), entry).toEqual([]);
    }
  });

  test("coming from Jules: a protocols/security sub-folder compiles against protocols/protocol.schema.json; generated leftovers are noted, not fatal", async () => {
    const dir = await mkdtemp(join(tmpdir(), 'cli-protocol-jules-'));
    await cp(join(repoRoot, 'packages/protocol-compiler/test/fixtures/jules-underscore/protocols'), join(dir, 'protocols'), { recursive: true });
    const root = capture(dir);
    expect(await run(['protocol', 'compile'], root.io), root.err()).toBe(0);
    expect(root.err()).toContain('protocols/_z_child_summary_core.protocol.md: skipped, a child summary');
    // Compact: each protocol under its prose's title.
    expect(await readFile(join(dir, 'AGENTS.md'), 'utf8')).toContain('## `aorp-header`: Agent Protocol: A Layered Development Cycle\n');
    const security = capture(dir);
    expect(await run(['--json', 'protocol', 'compile', '--protocols', 'protocols/security', '--out', 'SECURITY.md'], security.io), security.err()).toBe(0);
    expect(JSON.parse(security.out())).toMatchObject({ ok: true, protocols: ['security-header', 'vulnerability-reporting'], skipped: [] });
    // The nearest schema is the original's, which requires `version`: a source without one is refused, with its place.
    await writeFile(join(dir, 'protocols/security/02_new.protocol.json'), '{\n  "protocol_id": "new",\n  "description": "d",\n  "rules": []\n}\n');
    const refused = capture(dir);
    expect(await run(['protocol', 'compile', '--protocols', 'protocols/security', '--out', 'SECURITY.md'], refused.io)).toBe(2);
    expect(refused.err()).toBe("protocols/security/02_new.protocol.json:1:1: (document root): must have required property 'version'\n");
  });

  test('usage provider: ratchet commands only, fixed width, unknown ones undefined', async () => {
    const usage = await cliUsage();
    expect(usage('ratchet plan lint')).toMatch(/^Usage: ratchet plan lint/);
    expect(usage('ratchet no-such-command')).toBeUndefined();
    expect(usage('google_search')).toBeUndefined();
    expect(usage('ratchet')).toBeUndefined();
  });
});
