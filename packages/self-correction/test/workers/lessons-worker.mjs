// A separate process for the real-process tests: imports the built package (dist) and either adds
// the lessons in a JSON file or applies pending lessons. Usage:
//   node lessons-worker.mjs add <lessons.jsonl> <lessons-to-add.json>
//   node lessons-worker.mjs apply <lessons.jsonl> <protocolsDir> <root>
import { readFileSync } from 'node:fs';
import { addLessons, applyLessons } from '../../dist/index.js';

const [mode, lessonsPath, a, b] = process.argv.slice(2);
if (mode === 'add') {
  const { added } = await addLessons(lessonsPath, JSON.parse(readFileSync(a, 'utf8')));
  process.stdout.write(`${added.length}\n`);
} else {
  const result = await applyLessons({ root: b, lessonsPath, protocolsDir: a, now: () => new Date().toISOString() });
  process.stdout.write(`${result.outcomes.length}\n`);
}
