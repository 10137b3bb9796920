import { cp, mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, test } from 'vitest';
import type { Io } from '../src/context.js';
import { run } from '../src/main.js';
import { cliUsage } from '../src/commands/protocol/shared.js';

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

  test('embeds usage from the CLI definitions; --check exits 1 with a diff; same sources, same bytes', async () => {
    const dir = await demo();
    await writeFile(join(dir, 'AGENTS.md'), '# Mine\n\nKeep me.\n');
    expect(await run(['protocol', 'compile'], capture(dir).io)).toBe(0);
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

  test('usage provider: ratchet commands only, fixed width, unknown ones undefined', () => {
    const usage = cliUsage();
    expect(usage('ratchet plan lint')).toMatch(/^Usage: ratchet plan lint/);
    expect(usage('ratchet no-such-command')).toBeUndefined();
    expect(usage('google_search')).toBeUndefined();
    expect(usage('ratchet')).toBeUndefined();
  });
});
