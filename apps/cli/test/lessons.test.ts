import { cp, mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, test } from 'vitest';
import type { Io } from '../src/context.js';
import { run } from '../src/main.js';
import { PROTOCOL_STEPS } from '../src/quickstart/protocol-steps.js';

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
    expect(agents).toContain('**Deprecated tools (do not use):** `ratchet plan lint`');
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

  test('a failing lesson makes apply exit 1 but the others apply; corrupt lines are reported and kept', async () => {
    const dir = await tour();
    await cp(join(dir, 'examples/protocols/demo'), join(dir, 'protocols'), { recursive: true });
    await writeFile(
      join(dir, 'pm.md'),
      "## Lessons Learned\n\n**Lesson:** a\n**Action:** add tool 'x' to protocol 'nope'\n\n**Lesson:** b\n**Action:** add tool 'y' to protocol 'greeting'\n",
    );
    expect(await run(['lessons', 'extract', 'pm.md', '--task', 't'], capture(dir).io)).toBe(0);
    const lessonsPath = join(dir, 'knowledge_core/lessons.jsonl');
    await writeFile(lessonsPath, `${await readFile(lessonsPath, 'utf8')}{"broken\n`);
    const c = capture(dir);
    expect(await run(['lessons', 'apply'], c.io)).toBe(1);
    expect(c.out()).toMatch(/failed\s+add-tool: .*no protocol "nope"/);
    expect(c.out()).toMatch(/applied\s+add-tool/);
    expect(c.out()).toContain('recompiled AGENTS.md: created');
    expect(c.err()).toContain('lessons.jsonl:3:');
    expect((await readFile(lessonsPath, 'utf8')).endsWith('{"broken\n')).toBe(true);
  });

  test('bad input: a post-mortem without the section, a missing file: exit 2 naming the file', async () => {
    const dir = await tour();
    await writeFile(join(dir, 'pm.md'), '# Post-mortem\n\nNothing here.\n');
    const c = capture(dir);
    expect(await run(['lessons', 'extract', 'pm.md'], c.io)).toBe(2);
    expect(c.err()).toMatch(/^pm\.md: no "Corrective Actions & Lessons Learned" section/);
    const missing = capture(dir);
    expect(await run(['lessons', 'extract', 'nope.md'], missing.io)).toBe(2);
    expect(missing.err()).toContain('nope.md');
    const unknown = capture(dir);
    expect(await run(['lessons', 'resolve', 'lesson-0000'], unknown.io)).toBe(2);
  });
});
