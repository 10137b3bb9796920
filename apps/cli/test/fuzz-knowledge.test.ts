/**
 * Issue 16, fuzzing through the CLI: what Ratchet learns from. Lessons JSONL (a bad line among good
 * ones, or the whole file hostile) through `lessons list`, `apply --dry-run`, `resolve` and `apply`,
 * with the post-mortem Markdown `lessons extract` reads; memory JSON (`--file`, as a person or
 * another tool leaves it: without Ratchet's digest) through every `memory` command, with the FTL
 * memory.json `memory import` reads. No command exits 70; the read-only ones change nothing; a
 * refused command changes no file, except `lessons apply`, which applies the good lessons by design
 * and must keep each corrupt line as it was.
 */
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { RUNS, expectNoInternalError, fuzz, hostile, hostileJsonl, jsonMutations, keep, ok, ratchet, readOnly, refusalKeepsState, textBombs } from './fuzz-inputs.js';

const repo = new URL('../../../', import.meta.url);
/** Half the usual inputs for lessons: each one runs apply twice (dry and real), which recompiles AGENTS.md (about 0.3 s an input). */
const LESSON_RUNS = RUNS / 2;
const POSTMORTEM = readFileSync(new URL('examples/protocols/postmortem.md', repo), 'utf8');
const FTL_MEMORY = JSON.stringify(
  {
    failures: [
      { name: 'import-error', trigger: "ModuleNotFoundError: No module named 'requests'", fix: 'pip install requests', match: 'No module named', cost: 3000, source: ['c1'], access_count: 4, related: ['venv first'], times_helped: 2, times_failed: 1, created_at: '2026-01-01T00:00:00' },
      { name: 'port-in-use', trigger: 'Error: listen EADDRINUSE 127.0.0.1:3000', fix: 'stop the other dev server', cost: 800 },
    ],
    patterns: [{ name: 'venv first', trigger: 'create the virtualenv before installing packages', insight: 'python -m venv .venv', saved: 1500 }],
  },
  null,
  2,
);

describe('fuzzing lessons and memory through the CLI (in process)', { timeout: 600_000 }, () => {
  test('lessons JSONL and post-mortem Markdown: list, apply --dry-run, resolve, apply, extract never exit 70; a corrupt line survives apply as it was', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'fuzz-lessons-'));
    cpSync(new URL('examples/protocols', repo), join(dir, 'examples', 'protocols'), { recursive: true });
    cpSync(join(dir, 'examples', 'protocols', 'demo'), join(dir, 'protocols'), { recursive: true });
    await ok(dir, ['lessons', 'extract', 'examples/protocols/postmortem.md']);
    const file = join(dir, 'knowledge_core', 'lessons.jsonl');
    const lines = readFileSync(file, 'utf8').trimEnd().split('\n');
    // The hostile files stand for lessons files Ratchet never wrote (a hand edit of a tracked one is
    // refused before any line is parsed: test/lessons.test.ts): no digest record.
    rmSync(`${file}.digest`);
    rmSync(`${file}.prev`);
    const manual = (JSON.parse(lines.find((l) => l.includes('"manual"'))!) as { lesson_id: string }).lesson_id;
    const restore = keep(dir);
    const inputs = fc.tuple(hostileJsonl(lines), hostile(POSTMORTEM, textBombs(POSTMORTEM)));
    await fuzz('lessons JSONL through lessons list, apply --dry-run, resolve, apply (+ post-mortem Markdown through extract; half the runs: apply recompiles AGENTS.md)', inputs, LESSON_RUNS, async ([jsonl, postmortem]) => {
      restore();
      writeFileSync(file, jsonl);
      const list = await ratchet(dir, ['--json', 'lessons', 'list']);
      expectNoInternalError(list, ['lessons', 'list']);
      const problems = list.code === 2 && list.out !== '' ? ((JSON.parse(list.out) as { problems?: { line: number }[] }).problems ?? []) : [];
      const codes = [list.code, await readOnly(dir, ['lessons', 'apply', '--dry-run']), await refusalKeepsState(dir, ['lessons', 'resolve', manual, '--note', 'handled'])];
      writeFileSync(join(dir, 'pm.md'), postmortem);
      // With a corrupt line, apply and extract still do their work (the good lessons are applied,
      // the new ones added) and exit 2, by design: every line reported corrupt must then still be
      // there, byte for byte, on its line. Without one, exit 2 is a refusal and changes nothing.
      for (const args of [['lessons', 'apply'], ['lessons', 'extract', 'pm.md', '--task', 'fuzz']]) {
        const before = readFileSync(file, 'utf8').split('\n');
        codes.push(await refusalKeepsState(dir, args, (code) => code === 2 && problems.length === 0));
        const after = readFileSync(file, 'utf8').split('\n');
        for (const p of problems) expect(after[p.line - 1], `line ${p.line} after ${args.join(' ')}`).toBe(before[p.line - 1]);
      }
      return codes;
    });
  });

  test('memory JSON and FTL memory JSON: query, explain, stats, related, add, feedback, link, prune, import never exit 70; a refusal leaves the memory file byte-identical', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'fuzz-memory-'));
    const file = ['--file', 'm.json'];
    await ok(dir, ['memory', 'add-failure', '--name', 'requests-missing', '--trigger', "ModuleNotFoundError: No module named 'requests'", '--fix', 'install requests in the project venv', '--cost', '3000', '--match', 'No module named', '--tag', 'python', ...file]);
    await ok(dir, ['memory', 'add-failure', '--name', 'port-in-use', '--trigger', 'Error: listen EADDRINUSE 127.0.0.1:3000', '--fix', 'stop the other dev server first', '--cost', '800', ...file]);
    await ok(dir, ['memory', 'add-pattern', '--name', 'venv-first', '--trigger', 'create the virtualenv before installing packages', '--insight', 'python -m venv .venv, then pip install', '--saved', '1500', ...file]);
    await ok(dir, ['memory', 'link', 'venv-first', 'requests-missing', '--type', 'solves', ...file]);
    await ok(dir, ['memory', 'feedback', 'requests-missing', '--helped', ...file]);
    const memory = readFileSync(join(dir, 'm.json'), 'utf8');
    const restore = keep(dir);
    // A `match` that backtracks catastrophically on the query below, in the place of the stored one.
    const redos = fc.constantFrom('(a+)+$', '(\\w+\\s?)*$', '(.*a){20}', '([a-z]+)*!').map((p) => memory.replace('"No module named"', JSON.stringify(p)));
    const inputs = fc.tuple(hostile(memory, [...jsonMutations(memory), redos]), hostile(FTL_MEMORY, jsonMutations(FTL_MEMORY)));
    await fuzz('memory JSON through 10 memory commands (+ FTL memory JSON through import)', inputs, RUNS, async ([text, ftl]) => {
      restore();
      writeFileSync(join(dir, 'm.json'), text);
      // Not written by Ratchet (no digest record, no last good copy): the content itself is judged.
      rmSync(join(dir, 'm.json.digest'), { force: true });
      rmSync(join(dir, 'm.json.prev'), { force: true });
      const topic = `No module named requests ${'a'.repeat(40)}!`;
      const codes = [
        await readOnly(dir, ['memory', 'query', topic, ...file]),
        await readOnly(dir, ['memory', 'explain', topic, '--name', 'requests-missing', ...file]),
        await readOnly(dir, ['memory', 'stats', ...file]),
        await readOnly(dir, ['memory', 'related', 'requests-missing', ...file]),
        await readOnly(dir, ['memory', 'prune', '--dry-run', ...file]),
      ];
      for (const args of [
        ['memory', 'query', topic, '--record'],
        ['memory', 'add-failure', '--trigger', 'TypeError: Cannot read properties of undefined (reading map)', '--fix', 'check the API response shape', '--cost', '1200'],
        ['memory', 'feedback', 'port-in-use', '--failed'],
        ['memory', 'link', 'port-in-use', 'venv-first', '--type', 'co_occurs'],
        ['memory', 'prune'],
      ]) {
        codes.push(await refusalKeepsState(dir, [...args, ...file]));
      }
      writeFileSync(join(dir, 'ftl.json'), ftl);
      // Exit 1 means some FTL entries were refused and the rest merged (a write); 2 is a refused file.
      codes.push(await refusalKeepsState(dir, ['memory', 'import', 'ftl.json', ...file], (code) => code === 2));
      return codes;
    });
  });
});
