import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, test } from 'vitest';
import type { Io } from '../src/context.js';
import { run } from '../src/main.js';
import { CAMPAIGN_STEPS } from '../src/quickstart/campaign-steps.js';

const repoRoot = fileURLToPath(new URL('../../..', import.meta.url));

function temp(): string {
  return mkdtempSync(join(tmpdir(), 'ratchet-campaign-cli-'));
}

async function ratchet(cwd: string, args: string[], stdin = ''): Promise<{ code: number; out: string; err: string }> {
  let out = '';
  let err = '';
  const io: Io = { stdout: (t) => void (out += t), stderr: (t) => void (err += t), isTTY: false, env: {}, cwd, readStdin: () => Promise.resolve(stdin) };
  const code = await run(args, io);
  return { code, out, err };
}

const plan = (tasks: unknown[]): string => JSON.stringify({ objective: 'x', tasks }, null, 2);

describe('ratchet campaign', () => {
  test('the quickstart steps behave as described (exit codes and the key lines)', async () => {
    const dir = temp();
    const outputs: string[] = [];
    for (const step of CAMPAIGN_STEPS) {
      for (const example of step.examples ?? []) {
        mkdirSync(dirname(join(dir, 'examples', example)), { recursive: true });
        cpSync(join(repoRoot, 'examples', example), join(dir, 'examples', example));
      }
      const r = await ratchet(dir, [...step.args, '--cwd', dir]);
      expect({ step: step.title, code: r.code, err: r.code === step.expectExit ? '' : r.err }).toEqual({ step: step.title, code: step.expectExit, err: '' });
      outputs.push(r.out + r.err);
    }
    const all = outputs.join('\n');
    expect(all).toContain('dependency cycle: 001 -> 003 -> 002 -> 001');
    expect(all).toContain('examples/campaign/cyclic-plan.json:');
    expect(all).toContain('wave 2: 002 user-store (pending), 003 login-route (pending)');
    expect(all).toContain('claimed 002 user-store for builder-1');
    expect(all).toContain('claimed 003 login-route for builder-2');
    expect(all).toContain('sibling sibling-002_user-store_blocked: bcrypt native build fails: gyp ERR! on node 20');
    expect(all).toContain('005 blocked by 004 (root cause 002)');
    const archive = readdirSync(join(dir, '.ratchet', 'archive')).filter((f) => f.endsWith('.json'));
    expect(archive).toHaveLength(1);
    const entry = JSON.parse(readFileSync(join(dir, '.ratchet', 'archive', archive[0]!), 'utf8')) as { summary: { rootFailures: number[]; cascaded: number[] } };
    expect(entry.summary).toMatchObject({ rootFailures: [2], cascaded: [4, 5] });
  });

  test('add-tasks: malformed JSON exits 2 naming file:line:col; a bad shape exits 2 with every problem; a cycle exits 1', async () => {
    const dir = temp();
    expect((await ratchet(dir, ['campaign', 'create', 'x'])).code).toBe(0);
    writeFileSync(join(dir, 'broken.json'), '{\n  "objective": "x",\n  "tasks": [\n    { "seq": 1, }\n  ]\n}\n');
    const broken = await ratchet(dir, ['campaign', 'add-tasks', 'broken.json']);
    expect(broken.code).toBe(2);
    expect(broken.err).toMatch(/broken\.json:4:17: /);
    writeFileSync(join(dir, 'shape.json'), plan([{ seq: 'one', delta: ['/etc/passwd'], verify: 'v' }, { seq: 2, delta: ['a'] }]));
    const shape = await ratchet(dir, ['campaign', 'add-tasks', 'shape.json']);
    expect(shape.code).toBe(2);
    expect(shape.err).toContain('shape.json:5:14: "seq" must be a non-negative integer');
    expect(shape.err).toContain('[unsafe-path]');
    expect(shape.err).toContain('missing required "verify"');
    expect(shape.err).toContain('3 problems; nothing was added');
    const cyclic = plan([{ seq: 1, delta: ['a'], verify: 'v', depends: [2] }, { seq: 2, delta: ['a'], verify: 'v', depends: '001' }]);
    const cycle = await ratchet(dir, ['--json', 'campaign', 'add-tasks'], cyclic);
    expect(cycle.code).toBe(1);
    expect(JSON.parse(cycle.out)).toMatchObject({ ok: false, file: '<stdin>', problems: [{ rule: 'cycle', cycle: [1, 2, 1], line: 10 }] });
    const proto = await ratchet(dir, ['campaign', 'add-tasks', '-'], '{"objective":"x","tasks":[],"__proto__":{}}');
    expect(proto.code).toBe(2);
    expect(proto.err).toContain('__proto__');
    writeFileSync(join(dir, 'binary.json'), Buffer.from([0x7b, 0x00, 0xff, 0x7d]));
    const bin = await ratchet(dir, ['campaign', 'add-tasks', 'binary.json']);
    expect(bin.code).toBe(2);
    expect(bin.err).toMatch(/binary\.json:1:\d+: /);
    expect((await ratchet(dir, ['campaign', 'add-tasks', 'missing.json'])).code).toBe(2);
    // Nothing above reached the campaign.
    expect(JSON.parse((await ratchet(dir, ['--json', 'campaign', 'status'])).out)).toMatchObject({ summary: { total: 0 } });
  });

  test('ready/claim/update-task with --json; refusals exit 2 with a clear message', async () => {
    const dir = temp();
    expect((await ratchet(dir, ['campaign', 'ready'])).err).toContain('no active campaign');
    await ratchet(dir, ['campaign', 'create', 'x']);
    await ratchet(dir, ['campaign', 'add-tasks'], plan([{ seq: '001', delta: ['a'], verify: 'v' }, { seq: 2, delta: ['b'], verify: 'v', depends: 1 }]));
    const ready = await ratchet(dir, ['--json', 'campaign', 'ready']);
    expect(JSON.parse(ready.out)).toMatchObject({ ok: true, ready: [{ seq: 1, slug: 'task-001' }] });
    const illegal = await ratchet(dir, ['campaign', 'update-task', '1', 'complete']);
    expect(illegal.code).toBe(2);
    expect(illegal.err).toContain('task 001 is pending; it cannot become complete (legal: in_progress, blocked)');
    expect((await ratchet(dir, ['campaign', 'update-task', '2', 'in_progress'])).err).toContain('waits for 001');
    expect((await ratchet(dir, ['campaign', 'update-task', 'abc', 'blocked'])).code).toBe(2);
    expect((await ratchet(dir, ['campaign', 'update-task', '1', 'finished'])).code).toBe(2);
    const claim = await ratchet(dir, ['--json', 'campaign', 'ready', '--claim', 'r1']);
    expect(JSON.parse(claim.out)).toMatchObject({ claimed: { seq: 1, status: 'in_progress', runner: 'r1' } });
    expect(JSON.parse((await ratchet(dir, ['--json', 'campaign', 'ready', '--claim', 'r2'])).out)).toEqual({ $schema: 'https://unpkg.com/@ratchet/cli/schemas/output/campaign-ready.v1.schema.json', ok: true, claimed: null });
    const status = await ratchet(dir, ['--json', 'campaign', 'cascade-status']);
    expect(JSON.parse(status.out)).toMatchObject({ state: 'in_progress', inProgress: [1], pending: [2] });
    const dot = await ratchet(dir, ['campaign', 'graph', '--format', 'dot']);
    expect(dot.out).toContain('t001 -> t002;');
    expect((await ratchet(dir, ['campaign', 'status'])).out).toContain('runner r1');
    expect((await ratchet(dir, ['campaign', 'complete'])).code).toBe(2);
    // --force is about running tasks; the observer gate still holds.
    const gate = await ratchet(dir, ['campaign', 'complete', '--force']);
    expect(gate.code).toBe(2);
    expect(gate.err).toContain('ratchet memory observe');
    expect((await ratchet(dir, ['campaign', 'status'])).out).toContain('phase BUILD');
    const skipped = await ratchet(dir, ['campaign', 'complete', '--force', '--skip-observe', 'fixture campaign, nothing to learn']);
    expect(skipped.code, skipped.err).toBe(0);
    expect(skipped.out).toContain('(observer skipped: fixture campaign, nothing to learn)');
    const [archived] = readdirSync(join(dir, '.ratchet', 'archive')).filter((n) => n.endsWith('.json'));
    const entry = JSON.parse(readFileSync(join(dir, '.ratchet', 'archive', archived!), 'utf8')) as { campaign: { phase: string; phaseLog: { event: string; reason?: string }[] } };
    expect(entry.campaign.phase).toBe('COMPLETE');
    expect(entry.campaign.phaseLog.map((e) => e.event)).toEqual(['explored', 'planned', 'skip_observe', 'complete']);
    expect(entry.campaign.phaseLog[2]!.reason).toBe('fixture campaign, nothing to learn');
    expect(existsSync(join(dir, '.ratchet', 'campaign.json'))).toBe(false);
  });

  test('a long plan is summarised, not echoed; find-similar --framework filters an objective-only search', async () => {
    const dir = temp();
    await ratchet(dir, ['campaign', 'create', 'x', '--framework', 'express']);
    const added = await ratchet(dir, ['campaign', 'add-tasks'], plan(Array.from({ length: 20 }, (_, i) => ({ seq: i + 1, delta: [`f${i}.ts`], verify: 'v' }))));
    expect(added.out).toBe('added 20 tasks (001, 002, 003, 004, 005, ... 10 more ..., 016, 017, 018, 019, 020); 20 in the campaign, 1 wave\n');
    // The observer (no workspaces: nothing learned) records the OBSERVE phase; then complete may archive.
    const observed = await ratchet(dir, ['memory', 'observe']);
    expect(observed.out).toMatch(/phase OBSERVE/);
    expect((await ratchet(dir, ['campaign', 'phase'])).out).toMatch(/phase OBSERVE\n.*explored.*\n.*planned.*\n.*observed/);
    expect((await ratchet(dir, ['campaign', 'complete'])).code).toBe(0);
    const express = await ratchet(dir, ['--json', 'campaign', 'find-similar', '--objective', 'x', '--framework', 'express']);
    expect((JSON.parse(express.out) as { similar: unknown[] }).similar).toHaveLength(1);
    const django = await ratchet(dir, ['--json', 'campaign', 'find-similar', '--objective', 'x', '--framework', 'django']);
    expect((JSON.parse(django.out) as { similar: unknown[] }).similar).toHaveLength(0);
    const alone = await ratchet(dir, ['campaign', 'find-similar', '--framework', 'django']);
    expect(alone.code).toBe(2);
    expect(alone.err).toContain('--framework goes with --objective');
  });

  test('add-tasks with no file on a terminal refuses without reading; "-" still reads; the stdin limit is enforced', async () => {
    const dir = temp();
    await ratchet(dir, ['campaign', 'create', 'x']);
    let reads = 0;
    let err = '';
    const io = (stdin: string): Io => ({ stdout: () => undefined, stderr: (t) => void (err += t), isTTY: true, stdinIsTTY: true, env: {}, cwd: dir, readStdin: () => (reads++, Promise.resolve(stdin)) });
    const body = plan([{ seq: 1, delta: ['a'], verify: 'v' }]);
    expect(await run(['campaign', 'add-tasks'], io(body))).toBe(2);
    expect(err).toContain('no plan given: pass a plan file (ratchet campaign add-tasks plan.json) or pipe one (cat plan.json | ratchet campaign add-tasks)');
    expect(reads).toBe(0);
    expect(await run(['campaign', 'add-tasks', '-'], io(body))).toBe(0);
    expect(reads).toBe(1);
    // An Io that hands over more than the limit is still held to it (bytes, not characters).
    err = '';
    expect(await run(['campaign', 'add-tasks'], { ...io(''), stdinIsTTY: false, readStdin: () => Promise.resolve('é'.repeat(64 * 1024 * 1024 + 1)) })).toBe(2);
    expect(err).toContain('<stdin>: the plan on standard input is over 128 MiB');
  });

  test('a corrupt campaign.json exits 2 with file:line:col and is left as it was', async () => {
    const dir = temp();
    await ratchet(dir, ['campaign', 'create', 'x']);
    const file = join(dir, '.ratchet', 'campaign.json');
    writeFileSync(file, '{\n  "schemaVersion": 1,\n  "id": \n}\n');
    const r = await ratchet(dir, ['campaign', 'ready', '--claim', 'r1']);
    expect(r.code).toBe(2);
    expect(r.err).toMatch(/campaign\.json:4:1: /);
    expect(readFileSync(file, 'utf8')).toBe('{\n  "schemaVersion": 1,\n  "id": \n}\n');
  });

  test('a hand-edited campaign.json with a cycle, an unknown, self or duplicate dependency: every reading command exits 2 naming each place; the file is left as it was', async () => {
    const dir = temp();
    await ratchet(dir, ['campaign', 'create', 'x']);
    await ratchet(dir, ['campaign', 'add-tasks'], plan([1, 2, 3, 4].map((seq) => ({ seq, delta: [`f${seq}`], verify: 'v', depends: seq === 1 ? 'none' : 1 }))));
    const file = join(dir, '.ratchet', 'campaign.json');
    const doc = JSON.parse(readFileSync(file, 'utf8')) as { tasks: { depends: number[] }[] };
    doc.tasks[1]!.depends = [1, 4];
    doc.tasks[2]!.depends = [1, 1, 99];
    doc.tasks[3]!.depends = [2, 3, 4];
    const edited = JSON.stringify(doc, null, 2);
    writeFileSync(file, edited);
    const at = (pointer: string): string => {
      const [, i, j] = /^\/tasks\/(\d+)\/depends\/(\d+)$/.exec(pointer)!;
      // The line of the j-th dependency of task i in the edited text.
      const lines = edited.split('\n');
      let task = -1;
      let start = -1;
      for (let n = 0; n < lines.length; n++) {
        if (lines[n] === '    {') task++;
        if (task === Number(i) && lines[n]!.includes('"depends": [')) start = n;
        if (start >= 0) return `.ratchet/campaign.json:${start + 2 + Number(j)}:9: `;
      }
      return '';
    };
    for (const args of [['campaign', 'status'], ['campaign', 'ready'], ['campaign', 'ready', '--claim', 'r1'], ['campaign', 'cascade-status'], ['campaign', 'waves'], ['campaign', 'propagate-blocks'], ['campaign', 'update-task', '1', 'in_progress'], ['workspace', 'create', '1'], ['campaign', 'complete']]) {
      const r = await ratchet(dir, args);
      expect(r.code, args.join(' ')).toBe(2);
      expect(r.err).toContain(`${at('/tasks/1/depends/1')}invalid content: dependency cycle: 002 -> 004 -> 002`);
      expect(r.err).toContain(`${at('/tasks/2/depends/1')}task 003 lists dependency 001 twice (at /tasks/2/depends/1)`);
      expect(r.err).toContain(`${at('/tasks/2/depends/2')}task 003 depends on 099, which is not a task of the campaign`);
      expect(r.err).toContain(`${at('/tasks/3/depends/2')}task 004 depends on itself`);
    }
    const add = await ratchet(dir, ['campaign', 'add-tasks'], plan([{ seq: 9, delta: ['a'], verify: 'v' }]));
    expect(add.code).toBe(2);
    expect(add.err).toContain('dependency cycle: 002 -> 004 -> 002');
    const json = await ratchet(dir, ['--json', 'campaign', 'ready']);
    expect(JSON.parse(json.out)).toMatchObject({ ok: false, error: { code: 'validation-error', file: '.ratchet/campaign.json' } });
    expect(readFileSync(file, 'utf8')).toBe(edited);
    expect(existsSync(join(dir, '.ratchet', 'archive'))).toBe(false);
  });
});

describe('ratchet workspace', () => {
  test('a delivery with <, &, ]]> and CRLF survives the CLI round trip; show --xml prints escaped XML', async () => {
    const dir = temp();
    await ratchet(dir, ['campaign', 'create', 'x']);
    await ratchet(dir, ['campaign', 'add-tasks'], plan([{ seq: 1, slug: 'a', delta: ['a'], verify: 'v' }]));
    expect((await ratchet(dir, ['workspace', 'create', '1'])).code).toBe(0);
    const delivered = 'if (a < b && c) { s = "]]>" }\r\nline two';
    expect((await ratchet(dir, ['workspace', 'complete', '001', '--from-file', '-'], delivered)).code).toBe(0);
    const shown = JSON.parse((await ratchet(dir, ['--json', 'workspace', 'show', '1'])).out) as { workspace: { delivered: string; status: string }; path: string };
    expect(shown.workspace).toMatchObject({ delivered, status: 'complete' });
    expect(shown.path).toBe('.ratchet/workspace/001_a_complete.xml');
    expect((await ratchet(dir, ['workspace', 'show', '1', '--xml'])).out).toContain('<delivered>if (a &lt; b &amp;&amp; c) { s = "]]&gt;" }&#13;\nline two</delivered>');
    expect((await ratchet(dir, ['workspace', 'list'])).out).toContain('001_a');
    expect((await ratchet(dir, ['workspace', 'block', '1', '--reason', 'x'])).err).toContain('already complete');
  });

  test('workspace list with a file it cannot read names it with its line and exits 2, never "no workspaces yet" with 0', async () => {
    const dir = temp();
    mkdirSync(join(dir, '.ratchet/workspace'), { recursive: true });
    writeFileSync(join(dir, '.ratchet/workspace/001_a_active.xml'), '<workspace id="001-a" status="active">\n  <delivered>\n</workspace>\n');
    const r = await ratchet(dir, ['workspace', 'list']);
    expect(r.code).toBe(2);
    expect(r.out).not.toContain('no workspaces yet');
    expect(r.err).toMatch(/\.ratchet\/workspace\/001_a_active\.xml:3:\d+: error: cannot read this workspace/);
    const json = await ratchet(dir, ['--json', 'workspace', 'list']);
    expect(json.code).toBe(2);
    expect(JSON.parse(json.out)).toMatchObject({ ok: false, skipped: [{ kind: 'unreadable', path: '.ratchet/workspace/001_a_active.xml' }] });
    // FTL's own layout (hyphenated id, parent stem without seq) lists fine.
    writeFileSync(join(dir, '.ratchet/workspace/001_a_active.xml'), '<workspace id="001-a" status="active">\n  <lineage><parent>000_spec_complete</parent></lineage>\n  <delivered></delivered>\n</workspace>\n');
    const ok = await ratchet(dir, ['workspace', 'list']);
    expect([ok.code, ok.out]).toEqual([0, expect.stringContaining('001-a')]);
  });

  test('a delivery larger than a workspace may hold exits 2 and leaves the workspace active and readable', async () => {
    const dir = temp();
    await ratchet(dir, ['campaign', 'create', 'x']);
    await ratchet(dir, ['campaign', 'add-tasks'], plan([{ seq: 1, slug: 'a', delta: ['a'], verify: 'v' }]));
    expect((await ratchet(dir, ['workspace', 'create', '1'])).code).toBe(0);
    writeFileSync(join(dir, 'big.txt'), 'x'.repeat(5 * 1024 * 1024));
    const file = await ratchet(dir, ['workspace', 'complete', '1', '--from-file', 'big.txt']);
    expect(file.code).toBe(2);
    expect(file.err).toContain('big.txt: file is 5 MiB, over the 4 MiB limit');
    const piped = await ratchet(dir, ['workspace', 'complete', '1', '--from-file', '-'], 'y'.repeat(5 * 1024 * 1024));
    expect(piped.code).toBe(2);
    expect(piped.err).toContain('<stdin>: the delivery on standard input is over 4 MiB');
    // Under the read limit, but the workspace around it would not be: refused by the library.
    const near = await ratchet(dir, ['workspace', 'complete', '1', '--from-file', '-'], 'z'.repeat(4 * 1024 * 1024 - 200));
    expect(near.code).toBe(2);
    expect(near.err).toContain('over the 4 MiB a workspace may hold; nothing was written');
    expect(JSON.parse((await ratchet(dir, ['--json', 'workspace', 'show', '1'])).out)).toMatchObject({ workspace: { status: 'active', delivered: '' } });
  });

  test('a workspace with an undefined entity (&nope;) is refused with its place and never rewritten', async () => {
    const dir = temp();
    await ratchet(dir, ['campaign', 'create', 'x']);
    await ratchet(dir, ['campaign', 'add-tasks'], plan([{ seq: 1, slug: 'a', delta: ['a'], verify: 'v' }]));
    expect((await ratchet(dir, ['workspace', 'create', '1'])).code).toBe(0);
    const file = join(dir, '.ratchet', 'workspace', '001_a_active.xml');
    const lines = readFileSync(file, 'utf8').split('\n');
    const at = lines.findIndex((l) => l.includes('<delivered'));
    expect(at).toBeGreaterThan(0);
    lines.splice(at, 0, '  <!-- x --><note>fish &nope; chips &amp; &#169;</note>');
    const text = lines.join('\n');
    writeFileSync(file, text);
    for (const args of [['workspace', 'complete', '1', '--delivered', 'done'], ['workspace', 'show', '1']]) {
      const r = await ratchet(dir, args);
      expect(r.code, args.join(' ')).toBe(2);
      expect(r.err).toContain(`.ratchet/workspace/001_a_active.xml:${at + 1}:`);
      expect(r.err).toContain('undefined entity "&nope;"');
    }
    expect(readFileSync(file, 'utf8')).toBe(text);
  });

  test('--workspace-dir is honoured by every command that has it: workspace *, campaign complete, memory observe', async () => {
    const dir = temp();
    await ratchet(dir, ['campaign', 'create', 'x']);
    await ratchet(dir, ['campaign', 'add-tasks'], plan([{ seq: 1, slug: 'a', delta: ['a'], verify: 'v' }, { seq: 2, slug: 'b', delta: ['b'], verify: 'v' }, { seq: 3, slug: 'c', delta: ['c'], verify: 'v' }]));
    const ws = ['--workspace-dir', 'work/ws'];
    for (const args of [['workspace', 'create', '1'], ['workspace', 'complete', '1', '--delivered', 'done'], ['workspace', 'create', '2'], ['workspace', 'block', '2', '--reason', 'the fixture server never starts on port 4000']]) {
      const r = await ratchet(dir, [...args, ...ws]);
      expect(r.code, `${args.join(' ')}: ${r.err}`).toBe(0);
    }
    expect(readdirSync(join(dir, 'work', 'ws')).filter((n) => n.endsWith('.xml')).sort()).toEqual(['001_a_complete.xml', '002_b_blocked.xml']);
    expect(existsSync(join(dir, '.ratchet', 'workspace'))).toBe(false);
    // Sibling failures, show and list read the same directory.
    const third = await ratchet(dir, ['workspace', 'create', '3', ...ws]);
    expect(third.out).toContain('sibling sibling-002_b_blocked: the fixture server never starts on port 4000');
    expect((await ratchet(dir, ['workspace', 'show', '2', ...ws])).out).toContain('work/ws/002_b_blocked.xml (blocked)');
    expect((await ratchet(dir, ['workspace', 'list', ...ws])).out).toContain('002_b');
    // memory observe learns from that directory (it saw nothing there before the fix).
    const observed = JSON.parse((await ratchet(dir, ['--json', 'memory', 'observe', ...ws])).out) as { observed: number; applied: { failures: { workspace: string }[] } };
    expect(observed.observed).toBe(2);
    expect(observed.applied.failures.map((f) => f.workspace)).toEqual(['002_b']);
    expect((await ratchet(dir, ['memory', 'observe', '--workspace-dir', '../elsewhere'])).code).toBe(2);
    // campaign complete archives the workspaces from that directory (it left them behind before).
    expect((await ratchet(dir, ['campaign', 'complete', '--workspace-dir', '../elsewhere'])).err).toContain('outside the project root');
    const done = JSON.parse((await ratchet(dir, ['--json', 'campaign', 'complete', ...ws, '--skip-observe', 'fixture'])).out) as { workspaces: string; summary: { id: string } };
    expect(done.workspaces).toBe(`.ratchet/archive/${done.summary.id}/workspace`);
    expect(readdirSync(join(dir, done.workspaces)).sort()).toEqual(['001_a_complete.xml', '002_b_blocked.xml', '003_c_active.xml']);
    expect(existsSync(join(dir, 'work', 'ws'))).toBe(false);
    // Only workspace files move: a directory shared with other files (here the project root) keeps them.
    await ratchet(dir, ['campaign', 'create', 'y']);
    await ratchet(dir, ['campaign', 'add-tasks'], plan([{ seq: 1, slug: 'a', delta: ['a'], verify: 'v' }]));
    writeFileSync(join(dir, 'pom.xml'), '<project/>');
    expect((await ratchet(dir, ['workspace', 'create', '1', '--workspace-dir', '.'])).code).toBe(0);
    const second = JSON.parse((await ratchet(dir, ['--json', 'campaign', 'complete', '--workspace-dir', '.', '--skip-observe', 'fixture'])).out) as { workspaces: string };
    expect(readdirSync(join(dir, second.workspaces))).toEqual(['001_a_active.xml']);
    expect(readFileSync(join(dir, 'pom.xml'), 'utf8')).toBe('<project/>');
    // An archived campaign is observed from its archive; a workspace directory does not apply to it.
    expect(JSON.parse((await ratchet(dir, ['--json', 'memory', 'observe', done.summary.id])).out)).toMatchObject({ observed: 2 });
    const wrong = await ratchet(dir, ['memory', 'observe', done.summary.id, ...ws]);
    expect(wrong.code).toBe(2);
    expect(wrong.err).toContain('a workspace directory does not apply');
  });

  test('workspace directories outside the project are refused (exit 2); bad prior knowledge names the file', async () => {
    const dir = temp();
    await ratchet(dir, ['campaign', 'create', 'x']);
    await ratchet(dir, ['campaign', 'add-tasks'], plan([{ seq: 1, delta: ['a'], verify: 'v' }]));
    const out = await ratchet(dir, ['workspace', 'create', '1', '--workspace-dir', '../outside']);
    expect(out.code).toBe(2);
    expect(out.err).toContain('outside the project root');
    writeFileSync(join(dir, 'pk.json'), '{"failures":[{"name":"x"}]}');
    const pk = await ratchet(dir, ['workspace', 'create', '1', '--prior-knowledge', 'pk.json']);
    expect(pk.code).toBe(2);
    expect(pk.err).toContain('pk.json: failures[0]: "trigger" must be a string');
    expect((await ratchet(dir, ['workspace', 'create', '2'])).err).toContain('no task 002');
  });
});
