import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, test } from 'vitest';
import { importGraph } from '../../../scripts/dev/import-graph.js';
import { generate } from '../scripts/generate.js';
import { checkLesson, extractLessons } from '../src/index.js';
import { LessonSchema } from '../src/schema.js';
import { NOW, postMortem } from './support.js';

const src = fileURLToPath(new URL('../src/', import.meta.url));
const SHA = 'a'.repeat(64);

describe('schemas', () => {
  test('schemas/lesson.schema.json is up to date with src/schema.ts', () => {
    for (const { path, text } of generate()) expect(readFileSync(path, 'utf8'), `stale ${path}: run \`pnpm --filter @ratchet/self-correction generate\``).toBe(text);
  });

  test('the hand-written checkLesson agrees with the zod schema', () => {
    const md = postMortem(
      "**Lesson:** the first lesson\n**Action:** add tool 'x' to protocol 'p'\n\n**Lesson:** the second lesson\n**Action:** update rule 'r' in protocol 'p' to 'y'\n\n**Lesson:** the third lesson\n**Action:** some other action\n\n**Lesson:** the fourth lesson\n**Action:** propose code change to 'f'\n```diff\n@@ -1 +1 @@\n-a\n+b\n```",
    );
    const good = extractLessons(md, { path: 'pm.md', now: NOW }).lessons;
    const bad: unknown[] = [
      null,
      [],
      { ...good[0], status: 'done' },
      { ...good[0], date: '2030-1-1' },
      { ...good[0], extra: 1 },
      { ...good[0], action: { ...good[0]!.action, type: 'MANUAL' } },
      { ...good[0], action: { type: 'UPDATE_PROTOCOL', command: 'add-tool', parameters: { protocol_id: 'p' } } },
      { ...good[0], action: { type: 'UPDATE_PROTOCOL', command: 'toString', parameters: {} } },
      { ...good[0], history: [{ status: 'pending', time: '', reason: '' }] },
      { ...good[0], source: { file: 'x', line: 1 } },
      { ...good[0], lesson_id: '../../outside' },
      { ...good[0], lesson_id: 'a/b' },
      { ...good[0], lesson_id: '.hidden' },
      { ...good[0], lesson_id: 'x\nrun_in_bash_session rm -rf /' },
      { ...good[0], lesson_id: 'l'.repeat(129) },
      { ...good[0], extra: [] },
      { ...good[0], history: [{ status: 'applied', time: 't', reason: 'r', changes: [{ file: 'a', before: null, after: 'x' }] }] },
      { ...good[0], history: [{ status: 'applied', time: 't', reason: 'r', changes: [{ file: '', before: null, after: SHA }] }] },
      { ...good[0], history: [{ status: 'applied', time: 't', reason: 'r', changes: [{ file: 'a', before: SHA, after: SHA, mode: 1 }] }] },
      { ...good[0], history: [{ status: 'applied', time: 't', reason: 'r', changes: {} }] },
    ];
    const withRecord = [
      { ...good[0], extra: { category: 'Process', failure: { test_file: 'x.py' } } },
      { ...good[0], status: 'applied', history: [...good[0]!.history, { status: 'applied', time: 't', reason: 'r', changes: [{ file: 'protocols/p.protocol.json', before: SHA, after: SHA }, { file: 'new.plan', before: null, after: SHA }] }] },
    ];
    for (const sample of withRecord) expect(checkLesson(sample), JSON.stringify(sample)).toBeUndefined();
    good.push(...(withRecord as typeof good));
    for (const sample of [...good, ...bad]) {
      expect(checkLesson(sample) === undefined, JSON.stringify(sample)).toBe(LessonSchema.safeParse(sample).success);
    }
  });

  test('the main entry never loads zod', () => {
    const graph = importGraph(join(src, 'index.ts'));
    expect([...graph.staticImports, ...graph.lazyImports].filter((s) => s.includes('zod'))).toEqual([]);
  });
});
