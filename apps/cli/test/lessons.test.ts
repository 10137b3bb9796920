import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { cp, mkdir, mkdtemp, readFile, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, test } from 'vitest';
import type { Io } from '../src/context.js';
import { run } from '../src/main.js';
import type { Command } from 'commander';
import { PROTOCOL_STEPS } from '../src/quickstart/protocol-steps.js';
import { buildProgram } from '../src/program.js';
import { DIST, chunksOf, reachableFrom, sourcesOf } from './bundle.js';

const repoRoot = fileURLToPath(new URL('../../..', import.meta.url));
const dir0 = repoRoot;

function capture(cwd: string): { io: Io; out: () => string; err: () => string } {
  let out = '';
  let err = '';
  return {
    io: { stdout: (t) => void (out += t), stderr: (t) => void (err += t), isTTY: false, env: {}, cwd, readStdin: () => Promise.resolve('') },
    out: () => out,
    err: () => err,
  };
}

async function tour(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'cli-lessons-'));
  await cp(join(repoRoot, 'examples/protocols'), join(dir, 'examples/protocols'), { recursive: true });
  return dir;
}

describe('ratchet lessons', () => {
  test('the quickstart steps behave as they say (after init)', async () => {
    const dir = await tour();
    expect(await run(['init', '--cwd', dir], capture(dir).io)).toBe(0);
    for (const step of PROTOCOL_STEPS) {
      const c = capture(dir);
      const code = await run([...step.args, '--cwd', dir], c.io);
      expect(code, `${step.title}\n${c.out()}${c.err()}`).toBe(step.expectExit);
    }
    const agents = await readFile(join(dir, 'AGENTS.md'), 'utf8');
    expect(agents).toContain('checked by the greeting test before review');
    // The compact AGENTS.md (the default) lists a retired tool as one not to use.
    expect(agents).toMatch(/Do not use: `ratchet plan lint`/);
  });

  test('extract twice adds nothing; --json output; manual lessons are listed', async () => {
    const dir = await tour();
    const first = capture(dir);
    expect(await run(['--json', 'lessons', 'extract', 'examples/protocols/postmortem.md'], first.io)).toBe(0);
    const doc = JSON.parse(first.out()) as { found: number; added: unknown[]; task_id: string };
    expect(doc).toMatchObject({ found: 4, task_id: 'demo-greeting' });
    expect(doc.added).toHaveLength(4);
    const second = capture(dir);
    expect(await run(['lessons', 'extract', 'examples/protocols/postmortem.md'], second.io)).toBe(0);
    expect(second.out()).toContain('0 new of 4 lessons');
    const list = capture(dir);
    expect(await run(['lessons', 'list', '--status', 'manual'], list.io)).toBe(0);
    expect(list.out()).toContain('Nobody owns the wording');
    expect(list.out().trim().split('\n')).toHaveLength(1);
  });

  test('a failing lesson makes apply exit 1 but the others apply and AGENTS.md is recompiled', async () => {
    const dir = await tour();
    await cp(join(dir, 'examples/protocols/demo'), join(dir, 'protocols'), { recursive: true });
    await writeFile(
      join(dir, 'pm.md'),
      "## Lessons Learned\n\n**Lesson:** the first lesson learned\n**Action:** add tool 'x' to protocol 'nope'\n\n**Lesson:** the second lesson learned\n**Action:** add tool 'y' to protocol 'greeting'\n",
    );
    expect(await run(['lessons', 'extract', 'pm.md', '--task', 't'], capture(dir).io)).toBe(0);
    const c = capture(dir);
    expect(await run(['lessons', 'apply'], c.io)).toBe(1);
    expect(c.out()).toMatch(/failed\s+add-tool: .*no protocol "nope"/);
    expect(c.out()).toMatch(/applied\s+add-tool/);
    expect(c.out()).toContain('recompiled AGENTS.md: created');
  });

  test('a corrupt lessons.jsonl line: its number, the other lessons still apply, the line survives the rewrite in place, exit 2', async () => {
    const dir = await tour();
    await cp(join(dir, 'examples/protocols/demo'), join(dir, 'protocols'), { recursive: true });
    await writeFile(join(dir, 'pm.md'), "## Lessons Learned\n\n**Lesson:** the first lesson learned\n**Action:** add tool 'y' to protocol 'greeting'\n\n**Lesson:** the second lesson learned\n**Action:** update rule 'greet-politely' in protocol 'greeting' to 'Spell it right.'\n");
    // A lessons file as a project brings it, written before Ratchet tracked it (no digest record).
    expect(await run(['lessons', 'extract', 'pm.md', '--task', 't', '--lessons', 'scratch.jsonl'], capture(dir).io)).toBe(0);
    const [first, second] = (await readFile(join(dir, 'scratch.jsonl'), 'utf8')).trimEnd().split('\n');
    const lessonsPath = join(dir, 'knowledge_core/lessons.jsonl');
    const bad = '{"lesson_id": "half a line';
    await mkdir(join(dir, 'knowledge_core'), { recursive: true });
    await writeFile(lessonsPath, `${first}\n${bad}\n${second}\n`);
    const list = capture(dir);
    expect(await run(['lessons', 'list'], list.io)).toBe(2);
    expect(list.out().trim().split('\n')).toHaveLength(2);
    expect(list.err()).toContain('knowledge_core/lessons.jsonl:2: ');
    const c = capture(dir);
    expect(await run(['lessons', 'apply'], c.io)).toBe(2);
    expect(c.out().match(/ applied /g)).toHaveLength(2);
    expect(c.err()).toContain('knowledge_core/lessons.jsonl:2: ');
    const lines = (await readFile(lessonsPath, 'utf8')).split('\n');
    expect(lines[1]).toBe(bad);
    expect(lines.filter((l) => l.includes('"status":"applied"'))).toHaveLength(2);
    const json = capture(dir);
    expect(await run(['--json', 'lessons', 'list'], json.io)).toBe(2);
    expect(JSON.parse(json.out())).toMatchObject({ ok: false, problems: [{ file: 'knowledge_core/lessons.jsonl', line: 2 }] });
  });

  test('--dry-run shows each diff on top of the ones before and the AGENTS.md it would compile, writes nothing', async () => {
    const dir = await tour();
    await cp(join(dir, 'examples/protocols/demo'), join(dir, 'protocols'), { recursive: true });
    // Full detail, so the recompile's diff shows the usage it would embed (lessons apply keeps the detail).
    expect(await run(['protocol', 'compile', '--detail', 'full'], capture(dir).io)).toBe(0);
    await writeFile(join(dir, 'pm.md'), "## Lessons Learned\n\n**Lesson:** the first lesson learned\n**Action:** add tool 'ratchet plan analyze' to protocol 'greeting'\n\n**Lesson:** the second lesson learned\n**Action:** add tool 'ratchet fsm check' to protocol 'greeting'\n");
    expect(await run(['lessons', 'extract', 'pm.md', '--task', 't'], capture(dir).io)).toBe(0);
    const before = await Promise.all(['protocols/10-greeting.protocol.json', 'AGENTS.md', 'knowledge_core/lessons.jsonl'].map((f) => readFile(join(dir, f), 'utf8')));
    const c = capture(dir);
    expect(await run(['lessons', 'apply', '--dry-run'], c.io)).toBe(0);
    expect(c.out()).toContain('-    "ratchet plan analyze"\n+    "ratchet plan analyze",\n+    "ratchet fsm check"');
    expect(c.out()).toContain('would recompile AGENTS.md:');
    expect(c.out()).toMatch(/^\+### `ratchet fsm check`$/m);
    const after = await Promise.all(['protocols/10-greeting.protocol.json', 'AGENTS.md', 'knowledge_core/lessons.jsonl'].map((f) => readFile(join(dir, f), 'utf8')));
    expect(after).toEqual(before);
  });

  test('code changes: each plan really passes `ratchet plan lint` (new and existing files); escapes and stale diffs fail, nothing written', async () => {
    const dir = await tour();
    expect(await run(['init', '--cwd', dir], capture(dir).io)).toBe(0);
    await cp(join(dir, 'examples/protocols/demo'), join(dir, 'protocols'), { recursive: true });
    await mkdir(join(dir, 'src'));
    await writeFile(join(dir, 'src/a.js'), 'one\ntwo\n');
    const outside = await mkdtemp(join(tmpdir(), 'cli-lessons-outside-'));
    await writeFile(join(outside, 'x.js'), 'one\n');
    await symlink(outside, join(dir, 'src/link'));
    const diff = (path: string, body: string): string => `\`\`\`diff\n--- a/${path}\n+++ b/${path}\n${body}\`\`\`\n`;
    const change = (insight: string, path: string, body: string): string => `**Lesson:** ${insight}\n**Action:** propose code change to '${path}'\n${diff(path, body)}`;
    const md = [
      change('an existing file', 'src/a.js', '@@ -1,2 +1,2 @@\n one\n-two\n+2\n'),
      `**Lesson:** a brand new file\n**Action:** propose code change to 'src/new/b.js'\n\`\`\`diff\n--- /dev/null\n+++ b/src/new/b.js\n@@ -0,0 +1 @@\n+export {};\n\`\`\`\n`,
      change('a symlink escape attempt', 'src/link/x.js', '@@ -1 +1 @@\n-one\n+1\n'),
      change('a path with dot-dot', '../x.js', '@@ -1 +1 @@\n-one\n+1\n'),
      change('an absolute path', join(outside, 'x.js'), '@@ -1 +1 @@\n-one\n+1\n'),
      change('a stale diff here', 'src/a.js', '@@ -1,2 +1,2 @@\n one\n-three\n+3\n'),
    ].join('\n');
    await writeFile(join(dir, 'pm.md'), `## Lessons Learned\n\n${md}`);
    expect(await run(['lessons', 'extract', 'pm.md', '--task', 't'], capture(dir).io)).toBe(0);
    const c = capture(dir);
    expect(await run(['--json', 'lessons', 'apply'], c.io)).toBe(1);
    const doc = JSON.parse(c.out()) as { outcomes: { status: string; reason: string; files: string[] }[] };
    expect(doc.outcomes.map((o) => o.status)).toEqual(['applied', 'applied', 'failed', 'failed', 'failed', 'failed']);
    expect(doc.outcomes[2]!.reason).toContain('through a symbolic link to');
    expect(doc.outcomes[3]!.reason).toContain('".." segment');
    expect(doc.outcomes[4]!.reason).toContain('is absolute; use a path relative to the project root');
    expect(doc.outcomes[5]!.reason).toContain('does not match the file');
    for (const o of doc.outcomes.slice(0, 2)) {
      const plan = o.files.find((f) => f.endsWith('.plan'))!;
      const lint = capture(dir);
      expect(await run(['plan', 'lint', plan], lint.io), `${plan}\n${lint.out()}${lint.err()}`).toBe(0);
    }
    expect(await readFile(join(outside, 'x.js'), 'utf8')).toBe('one\n');
    expect(await readFile(join(dir, 'src/a.js'), 'utf8')).toBe('one\ntwo\n');
    expect(existsSync(join(dir, 'src/new'))).toBe(false);
    expect(readdirSync(join(dir, 'knowledge_core/suggestions')).sort()).toHaveLength(4);
  });

  test('a suggestions directory that is a symlink out of the project is refused', async () => {
    const dir = await tour();
    await cp(join(dir, 'examples/protocols/demo'), join(dir, 'protocols'), { recursive: true });
    await mkdir(join(dir, 'knowledge_core'), { recursive: true });
    const outside = await mkdtemp(join(tmpdir(), 'cli-lessons-outside-'));
    await symlink(outside, join(dir, 'knowledge_core/suggestions'));
    await writeFile(join(dir, 'a.txt'), 'a\n');
    await writeFile(join(dir, 'pm.md'), "## Lessons Learned\n\n**Lesson:** a lesson worth keeping\n**Action:** propose code change to 'a.txt'\n```diff\n@@ -1 +1 @@\n-a\n+b\n```\n");
    expect(await run(['lessons', 'extract', 'pm.md', '--task', 't'], capture(dir).io)).toBe(0);
    const c = capture(dir);
    expect(await run(['lessons', 'apply'], c.io)).toBe(1);
    expect(c.out()).toContain('through a symbolic link to');
    expect(readdirSync(outside)).toEqual([]);
  });

  test('no lesson makes Ratchet run a shell command: $(...), backticks and "; rm -rf" stay text', async () => {
    const dir = await tour();
    await cp(join(dir, 'examples/protocols/demo'), join(dir, 'protocols'), { recursive: true });
    await mkdir(join(dir, 'src'));
    await writeFile(join(dir, 'src/a.js'), 'one\n');
    const canary = join(dir, 'PWNED');
    const payloads = [`$(touch ${canary})`, `\`touch ${canary}\``, `x; touch ${canary}; rm -rf ${join(dir, 'src')}`, `| touch ${canary}`];
    const section = payloads
      .flatMap((p, i) => [
        `**Lesson:** ${p}`,
        `**Action:** add tool '${p}' to protocol 'greeting'`,
        '',
        `**Lesson:** the rule number ${i}`,
        `**Action:** update rule 'greet-politely' in protocol 'greeting' to '${p}'`,
        '',
        `**Lesson:** please run it ${i}`,
        `**Action:** ${p}`,
        '',
      ])
      .join('\n');
    const codeChange = `**Lesson:** the code change\n**Action:** propose code change to 'src/a.js'\n\`\`\`diff\n--- a/src/a.js\n+++ b/src/a.js\n@@ -1 +1 @@\n-one\n+$(touch ${canary})\n\`\`\`\n`;
    await writeFile(join(dir, 'pm.md'), `## Lessons Learned\n\n${section}\n${codeChange}`);
    expect(await run(['lessons', 'extract', 'pm.md', '--task', 't'], capture(dir).io)).toBe(0);
    const c = capture(dir);
    expect(await run(['lessons', 'apply', '--apply-code'], c.io), c.err()).toBe(0);
    expect(existsSync(canary)).toBe(false);
    expect(await readFile(join(dir, 'src/a.js'), 'utf8')).toBe(`$(touch ${canary})\n`);
    const protocol = JSON.parse(await readFile(join(dir, 'protocols/10-greeting.protocol.json'), 'utf8')) as { associated_tools: string[] };
    expect(protocol.associated_tools).toEqual(expect.arrayContaining(payloads));
    expect(await readFile(join(dir, 'AGENTS.md'), 'utf8')).toContain(`\`$(touch ${canary})\``);
    const manual = capture(dir);
    expect(await run(['lessons', 'list', '--status', 'manual'], manual.io)).toBe(0);
    expect(manual.out().trim().split('\n')).toHaveLength(payloads.length);
  });

  test.skipIf(!existsSync(DIST))('the bundled lessons and protocol commands reach no child_process but commander\'s, and the program defines no executable subcommand', async () => {
    const entries = chunksOf(/src\/commands\/(lessons|protocol)\/(?!register)/);
    expect(entries.length).toBeGreaterThanOrEqual(6);
    // The library loads on first use (src/operations/lessons.ts), so follow dynamic imports too, but
    // not back into the program's entry (every area hangs off it).
    const entry = (chunk: string): boolean => sourcesOf(chunk).some((s) => /src\/(main|program|areas)\.ts$/.test(s));
    const reached = new Set(entries.flatMap((e) => [...reachableFrom(e, entry)]));
    const sources = [...reached].flatMap(sourcesOf);
    expect(sources.some((s) => s.includes('packages/self-correction/src/apply.ts'))).toBe(true);
    expect(sources.some((s) => s.includes('packages/protocol-compiler/src/compile.ts'))).toBe(true);
    for (const chunk of reached) {
      if (!readFileSync(join(DIST, chunk), 'utf8').includes('child_process')) continue;
      // Only commander's own code may mention it (it spawns executable subcommands, which Ratchet never defines).
      const ours = sourcesOf(chunk).filter((s) => !s.includes('node_modules/'));
      for (const s of ours) expect(readFileSync(join(DIST, s), 'utf8'), s).not.toMatch(/child_process/);
      expect(sourcesOf(chunk).some((s) => s.includes('node_modules/commander/'))).toBe(true);
    }
    const program = await buildProgram(capture(dir0).io, { exitCode: 0 });
    const walk = (cmd: Command): Command[] => [cmd, ...cmd.commands.flatMap(walk)];
    for (const cmd of walk(program)) expect((cmd as unknown as { _executableHandler: boolean })._executableHandler, cmd.name()).toBe(false);
  });

  test('the shortcut: a lesson set to "applied" in an editor is refused by every lessons command (exit 2, naming the file); a person restores it', async () => {
    const dir = await tour();
    await cp(join(dir, 'examples/protocols/demo'), join(dir, 'protocols'), { recursive: true });
    expect(await run(['lessons', 'extract', 'examples/protocols/postmortem.md'], capture(dir).io)).toBe(0);
    const lessonsPath = join(dir, 'knowledge_core/lessons.jsonl');
    const good = await readFile(lessonsPath, 'utf8');
    await writeFile(lessonsPath, good.replace('"status":"pending"', '"status":"applied"'));
    for (const args of [['lessons', 'list'], ['lessons', 'apply'], ['lessons', 'extract', 'examples/protocols/postmortem.md']]) {
      const c = capture(dir);
      expect(await run(args, c.io), args.join(' ')).toBe(2);
      expect(c.err()).toMatch(/^knowledge_core\/lessons\.jsonl: changed outside Ratchet: .*ratchet doctor --restore/);
    }
    const doctor = capture(dir);
    expect(await run(['doctor'], doctor.io)).toBe(1);
    expect(doctor.out()).toContain('knowledge_core/lessons.jsonl: tampered: changed outside Ratchet');
    expect(await run(['doctor', '--restore', 'knowledge_core/lessons.jsonl'], capture(dir).io)).toBe(0);
    expect(await readFile(lessonsPath, 'utf8')).toBe(good);
    expect(await run(['lessons', 'list'], capture(dir).io)).toBe(0);
  });

  test('--dry-run says what it would do: "would write plan", and writes none', async () => {
    const dir = await tour();
    await cp(join(dir, 'examples/protocols/demo'), join(dir, 'protocols'), { recursive: true });
    expect(await run(['lessons', 'extract', 'examples/protocols/postmortem.md'], capture(dir).io)).toBe(0);
    const c = capture(dir);
    expect(await run(['lessons', 'apply', '--dry-run'], c.io)).toBe(0);
    expect(c.out()).toMatch(/would apply {2}propose-code-change: would write plan knowledge_core\/suggestions\/lesson-[0-9a-f]+\.plan/);
    expect(c.out()).not.toMatch(/[^d] write plan|: wrote plan/);
    expect(existsSync(join(dir, 'knowledge_core/suggestions'))).toBe(false);
  });

  test('a post-mortem whose lessons say nothing (the template\'s placeholders, "x") adds nothing: every such lesson at its line, exit 2', async () => {
    const dir = await tour();
    await writeFile(join(dir, 'pm.md'), "## 3. Corrective Actions & Lessons Learned\n\n1.  **Action 1:** [Description of the corrective action]\n2.  **Action 2:** [Description of the corrective action]\n\n**Lesson:** x\n**Action:** y\n");
    const c = capture(dir);
    expect(await run(['lessons', 'extract', 'pm.md'], c.io)).toBe(2);
    expect(c.err().trim().split('\n')).toEqual([
      'pm.md:3:1: section "3. Corrective Actions & Lessons Learned": the action "[Description of the corrective action]" is a template placeholder, not an action: write what will change',
      'pm.md:4:1: section "3. Corrective Actions & Lessons Learned": the action "[Description of the corrective action]" is a template placeholder, not an action: write what will change',
      'pm.md:6:1: section "3. Corrective Actions & Lessons Learned": the lesson "x" says too little (0 real words; at least 3): write what was learned',
      'pm.md:6:1: section "3. Corrective Actions & Lessons Learned": the action "y" says too little (0 real words; at least 3): write what will change, or a recognised action',
    ]);
    expect(existsSync(join(dir, 'knowledge_core/lessons.jsonl'))).toBe(false);
  });

  test("coming from Jules: lessons the original's tools wrote are listed with their fields; the line that says nothing is refused with why (exit 2)", async () => {
    const dir = await tour();
    const synth = join(repoRoot, 'packages/self-correction/test/fixtures/jules/synth');
    await mkdir(join(dir, 'knowledge_core'));
    await cp(join(synth, 'lessons-v1.jsonl'), join(dir, 'knowledge_core/lessons.jsonl'));
    const v1 = capture(dir);
    expect(await run(['--json', 'lessons', 'list'], v1.io)).toBe(0);
    const listed = JSON.parse(v1.out()) as { lessons: { lesson_id: string; status: string; extra?: Record<string, unknown> }[] };
    expect(listed.lessons.map((l) => l.status)).toEqual(['manual', 'manual', 'manual', 'pending']);
    expect(listed.lessons[3]!.extra).toHaveProperty('failure');
    await cp(join(synth, 'lessons-v2.jsonl'), join(dir, 'knowledge_core/lessons.jsonl'));
    const v2 = capture(dir);
    expect(await run(['lessons', 'list'], v2.io)).toBe(2);
    expect(v2.out().trim().split('\n')).toHaveLength(3);
    expect(v2.err()).toMatch(/^knowledge_core\/lessons\.jsonl:4: not a lesson: .*task "\[TASK_ID\]".*remove the line/);
  });

  test('bad input: a post-mortem without the section, a missing file: exit 2 naming the file', async () => {
    const dir = await tour();
    await writeFile(join(dir, 'pm.md'), '# Post-mortem\n\nNothing here.\n');
    const c = capture(dir);
    expect(await run(['lessons', 'extract', 'pm.md'], c.io)).toBe(2);
    expect(c.err()).toMatch(/^pm\.md: no "Corrective Actions & Lessons Learned" section/);
    const missing = capture(dir);
    expect(await run(['lessons', 'extract', 'nope.md'], missing.io)).toBe(2);
    expect(missing.err()).toBe('nope.md: no such file\n');
    await writeFile(join(dir, 'bin.md'), Buffer.from([0x23, 0x20, 0x00, 0x01]));
    const binary = capture(dir);
    expect(await run(['lessons', 'extract', 'bin.md'], binary.io)).toBe(2);
    expect(binary.err()).toMatch(/^bin\.md:1:\d+: .*binary/);
    expect(existsSync(join(dir, 'knowledge_core/lessons.jsonl'))).toBe(false);
    const unknown = capture(dir);
    expect(await run(['lessons', 'resolve', 'lesson-0000'], unknown.io)).toBe(2);
  });
});
