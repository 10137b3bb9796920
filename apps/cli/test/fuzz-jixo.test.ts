/**
 * Issue 16, fuzzing through the CLI: JIXO log files (`*.log.md`) and job files (`*.job.md`), front
 * matter + Markdown sections, through every `ratchet jixo` command that reads or rewrites them.
 * Hostile variants: the generic ones, YAML alias bombs and other YAML hazards in the front matter,
 * a front matter cut short, NUL bytes and huge lines. No command exits 70, the read-only ones
 * change nothing, and a refused command (any non-zero exit) leaves every file byte-identical, the
 * log's lock file included.
 */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, test } from 'vitest';
import { RUNS, frontMatterBombs, fuzz, hostile, keep, readOnly, refusalKeepsState, textBombs, yamlBombs } from './fuzz-inputs.js';

const fixtures = new URL('../../../packages/jixo-log/test/fixtures/', import.meta.url);
/** A log with phases, dependencies, every status, a Work Log entry and extra sections (the jixo-log test fixture). */
const LOG = readFileSync(new URL('rich.log.md', fixtures), 'utf8');
/** A job named "refactor" with a clarification request (its log is refactor.log.md). */
const JOB = readFileSync(new URL('seed.job.md', fixtures), 'utf8');

/** The hostile variants of a front matter + Markdown file: YAML is spliced in just after the opening `---`. */
function hostileMarkdown(valid: string) {
  return hostile(valid, [...textBombs(valid), ...yamlBombs(valid, '---\n'.length), ...frontMatterBombs(valid)]);
}

function project(): { dir: string; restore: () => void } {
  const dir = mkdtempSync(join(tmpdir(), 'fuzz-jixo-'));
  writeFileSync(join(dir, 'refactor.job.md'), JOB);
  writeFileSync(join(dir, 'refactor.log.md'), LOG);
  return { dir, restore: keep(dir) };
}

describe('fuzzing JIXO files through the CLI (in process)', { timeout: 600_000 }, () => {
  test('log markdown: check, task list/lock/add, title, progress, lock, unlock, triage never exit 70; a refusal leaves the log byte-identical', async () => {
    const { dir, restore } = project();
    await fuzz('JIXO log markdown through 10 jixo commands', hostileMarkdown(LOG), RUNS, async (text) => {
      restore();
      writeFileSync(join(dir, 'refactor.log.md'), text);
      const codes = [await readOnly(dir, ['jixo', 'check', 'refactor.log.md']), await readOnly(dir, ['jixo', 'task', 'list', 'refactor.log.md']), await readOnly(dir, ['jixo', 'triage', 'refactor.job.md', '--runner', 'r1', '--dry-run'])];
      for (const args of [
        ['jixo', 'task', 'lock', 'refactor.log.md', '1.2', '--runner', 'r1'],
        ['jixo', 'task', 'add', 'refactor.log.md', '--title', 'More', '--depends-on', '1.2'],
        ['jixo', 'title', 'refactor.log.md', 'New title'],
        ['jixo', 'progress', 'refactor.log.md'],
        // A log that does not parse is not worth holding: the lock is given back (its file gone again).
        ['jixo', 'lock', 'refactor.log.md', '--runner', 'r2', '--timeout', '0'],
        // Given back before the triage: a triage waits 10 s for a log lock another runner holds,
        // which made this file ~380 s of the suite and fuzzed the lock wait instead of the triage.
        ['jixo', 'unlock', 'refactor.log.md', '--runner', 'r2'],
        ['jixo', 'triage', 'refactor.job.md', '--runner', 'r3'],
      ]) {
        codes.push(await refusalKeepsState(dir, args));
      }
      return codes;
    });
  });

  test('job markdown: check, clarify list/add/remove, triage never exit 70; a refusal leaves the job file byte-identical', async () => {
    const { dir, restore } = project();
    await fuzz('JIXO job markdown through 5 jixo commands', hostileMarkdown(JOB), RUNS, async (text) => {
      restore();
      writeFileSync(join(dir, 'refactor.job.md'), text);
      const codes = [await readOnly(dir, ['jixo', 'check', 'refactor.job.md']), await readOnly(dir, ['jixo', 'clarify', 'list', 'refactor.job.md'])];
      for (const args of [
        ['jixo', 'clarify', 'add', 'refactor.job.md', '--id', 'q2', '--question', 'Which audience?'],
        ['jixo', 'clarify', 'remove', 'refactor.job.md', 'q1'],
        // The job names the log: a hostile name must not reach a file outside the project.
        ['jixo', 'triage', 'refactor.job.md', '--runner', 'r1'],
      ]) {
        codes.push(await refusalKeepsState(dir, args));
      }
      return codes;
    });
  });
});
