/**
 * `ratchet doctor` on an activity log past 16 MiB (about 30,000 tool calls): the log grows with
 * every tool call and has no size limit, so doctor reads it line by line. A healthy one is healthy;
 * a bad line deep inside is reported at its line, whatever the file's size.
 */
import { appendFileSync, mkdirSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { ratchet, tempDir } from '../helpers.js';

const LINES = 31_000;

/** One activity entry of about 560 bytes, shaped like the PostToolUse hook's. */
const entry = (i: number): string =>
  `${JSON.stringify({
    time: new Date(Date.UTC(2030, 0, 1, 0, 0, i)).toISOString(),
    actor: 'agent',
    action: 'TOOL_USE',
    tool: 'Bash',
    session: 'sess0001-4b1c-9f2e-aaaa-000000000001',
    detail: `npx vitest run packages/store/test/digest.test.ts --reporter=dot # call ${i} ${'ü'.repeat(40)} ${'x'.repeat(300)}`,
  })}\n`;

function bigLog(dir: string): string {
  const path = join(dir, 'logs/activity.log.jsonl');
  mkdirSync(join(dir, 'logs'), { recursive: true });
  writeFileSync(path, '');
  let chunk = '';
  for (let i = 0; i < LINES; i++) {
    chunk += entry(i);
    if (chunk.length > 1_000_000) {
      appendFileSync(path, chunk);
      chunk = '';
    }
  }
  appendFileSync(path, chunk);
  expect(statSync(path).size).toBeGreaterThan(16 * 1024 * 1024);
  return path;
}

interface DoctorJson {
  ok: boolean;
  files: { file: string; problems: { code: string; message: string; line?: number; column?: number }[] }[];
}

const doctor = (dir: string): { status: number | null; json: DoctorJson; stderr: string } => {
  const r = ratchet(['--json', 'doctor'], { cwd: dir, timeout: 120_000 });
  return { status: r.status, json: JSON.parse(r.stdout) as DoctorJson, stderr: r.stderr };
};
const logProblems = (json: DoctorJson) => json.files.find((f) => f.file === 'logs/activity.log.jsonl')?.problems;

describe('ratchet doctor: an activity log of any size', () => {
  test('past 16 MiB and healthy: all well', { timeout: 180_000 }, () => {
    const dir = tempDir('ratchet-doctor-biglog-');
    expect(ratchet(['init', '--quiet'], { cwd: dir }).status).toBe(0);
    bigLog(dir);
    const r = doctor(dir);
    expect(logProblems(r.json), r.stderr).toEqual([]);
    expect(r.status).toBe(0);
    expect(r.json.ok).toBe(true);
  });

  test('past 16 MiB with a torn line, a NUL and bad UTF-8 deep inside: each at its line', { timeout: 180_000 }, () => {
    const dir = tempDir('ratchet-doctor-biglog-bad-');
    expect(ratchet(['init', '--quiet'], { cwd: dir }).status).toBe(0);
    const path = bigLog(dir);
    appendFileSync(path, '{"torn": \n');
    appendFileSync(path, entry(LINES + 1));
    appendFileSync(path, Buffer.from([0x7b, 0x22, 0x61, 0x22, 0x3a, 0xff, 0x7d, 0x0a])); // {"a":<0xff>}
    appendFileSync(path, Buffer.from([0x7b, 0x22, 0x62, 0x22, 0x3a, 0x00, 0x7d, 0x0a])); // {"b":<NUL>}
    appendFileSync(path, '{"tail": "no newline"');
    const r = doctor(dir);
    expect(r.status).toBe(1);
    const problems = logProblems(r.json)!;
    expect(problems.map((p) => `${p.code}@${p.line}`)).toEqual([`corrupt@${LINES + 1}`, `unreadable@${LINES + 3}`, `unreadable@${LINES + 4}`, `corrupt@${LINES + 5}`]);
    expect(problems.slice(0, 3).map((p) => p.column)).toEqual([10, 6, 6]);
    expect(problems[1]?.message).toMatch(/UTF-8/);
    expect(problems[2]?.message).toMatch(/NUL/);
  });
});
