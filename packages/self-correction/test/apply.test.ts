import { readdirSync, readFileSync } from 'node:fs';
import { createHash } from 'node:crypto';
import { readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { journalFileFor } from '@ratchet/store';
import { describe, expect, test, vi } from 'vitest';
import { addLessons, applyLessons, extractLessons, readLessons, resolveLesson } from '../src/index.js';
import { NOW, postMortem, tempDir, writeFiles } from './support.js';

const protocol = (id: string): string =>
  `${JSON.stringify({ protocol_id: id, description: 'd', rules: [{ rule_id: 'r', description: 'old', enforcement: 'e' }], associated_tools: ['t'] }, null, 2)}\n`;

async function setup(section: string): Promise<{ root: string; lessonsPath: string; protocolsDir: string }> {
  const root = await tempDir();
  await writeFiles(root, { 'protocols/p.protocol.json': protocol('p'), 'src/greet.js': "export const greeting = 'helo';\n" });
  const lessonsPath = join(root, 'knowledge_core/lessons.jsonl');
  await addLessons(lessonsPath, extractLessons(postMortem(section), { path: 'pm.md', now: NOW }).lessons);
  return { root, lessonsPath, protocolsDir: join(root, 'protocols') };
}

const DIFF = "```diff\n--- a/src/greet.js\n+++ b/src/greet.js\n@@ -1 +1 @@\n-export const greeting = 'helo';\n+export const greeting = 'hello';\n```";

describe('applyLessons', () => {
  test('applies in order; a failure does not stop the rest; history records reason and time; recompiles once', async () => {
    const { root, lessonsPath, protocolsDir } = await setup(
      [
        "**Lesson:** first lesson learned\n**Action:** add tool 'new' to protocol 'p'",
        "**Lesson:** second lesson learned\n**Action:** update rule 'missing' in protocol 'p' to 'x'",
        "**Lesson:** third lesson learned\n**Action:** update rule 'r' in protocol 'p' to 'new text'",
        "**Lesson:** fourth lesson learned\n**Action:** deprecate tool 't' in protocol 'p'",
        '**Lesson:** fifth lesson learned\n**Action:** ask someone who knows',
        `**Lesson:** sixth lesson learned\n**Action:** propose code change to 'src/greet.js'\n${DIFF}`,
      ].join('\n\n'),
    );
    const recompile = vi.fn(() => Promise.resolve('compiled'));
    let tick = 0;
    const result = await applyLessons({ root, lessonsPath, protocolsDir, now: () => `2030-01-03T00:00:0${tick++}Z`, recompile });
    expect(result.outcomes.map((o) => o.status)).toEqual(['applied', 'failed', 'applied', 'applied', 'applied']);
    expect(result.outcomes[1]!.reason).toContain('no rule "missing"');
    expect(result.manual.map((l) => l.insight)).toEqual(['fifth lesson learned']);
    expect(recompile).toHaveBeenCalledTimes(1);
    const p = JSON.parse(await readFile(join(protocolsDir, 'p.protocol.json'), 'utf8')) as Record<string, unknown>;
    expect(p.associated_tools).toEqual(['new']);
    expect(p.deprecated_tools).toEqual(['t']);
    expect((p.rules as { description: string }[])[0]!.description).toBe('new text');
    const file = await readLessons(lessonsPath);
    const failed = file.lessons.find((l) => l.insight === 'second lesson learned')!;
    expect(failed.status).toBe('failed');
    expect(failed.history).toHaveLength(2);
    expect(failed.history[1]).toMatchObject({ status: 'failed', time: '2030-01-03T00:00:01Z' });
    expect(failed.history[1]!.changes).toBeUndefined();
    // Each applied lesson carries its application record: the file it changed, with its digests before and after.
    const sha = (text: string): string => createHash('sha256').update(text).digest('hex');
    const added = file.lessons.find((l) => l.insight === 'first lesson learned')!;
    const record = added.history.at(-1)!;
    expect(record.status).toBe('applied');
    expect(record.changes).toEqual([{ file: 'protocols/p.protocol.json', before: sha(protocol('p')), after: expect.stringMatching(/^[0-9a-f]{64}$/) as string }]);
    expect(record.changes![0]!.after).not.toBe(record.changes![0]!.before);
    // The code change became a plan and a diff; the code itself is untouched without applyCode.
    const code = file.lessons.find((l) => l.insight === 'sixth lesson learned')!;
    const plan = await readFile(join(root, `knowledge_core/suggestions/${code.lesson_id}.plan`), 'utf8');
    expect(plan).toContain('replace_with_git_merge_diff src/greet.js');
    expect(plan.trimEnd().endsWith('run_in_bash_session close')).toBe(true);
    expect(await readFile(join(root, 'src/greet.js'), 'utf8')).toContain('helo');
    expect(code.history.at(-1)!.changes!.map((c) => [c.file, c.before, c.after])).toEqual([
      [`knowledge_core/suggestions/${code.lesson_id}.diff`, null, sha((code.action.parameters as { diff: string }).diff)],
      [`knowledge_core/suggestions/${code.lesson_id}.plan`, null, sha(plan)],
    ]);
    // Nothing pending is left: a second run does nothing and does not recompile.
    const again = await applyLessons({ root, lessonsPath, protocolsDir, now: () => NOW, recompile });
    expect(again.outcomes).toEqual([]);
    expect(recompile).toHaveBeenCalledTimes(1);
    // Manual lessons are resolved by a person.
    expect((await resolveLesson(lessonsPath, result.manual[0]!.lesson_id, 'done', NOW))?.status).toBe('resolved');
  });

  test('--dry-run writes nothing; each diff shows the edits before it; the recompile is only previewed', async () => {
    const { root, lessonsPath, protocolsDir } = await setup(
      `**Lesson:** first lesson learned\n**Action:** add tool 'new' to protocol 'p'\n\n**Lesson:** second lesson learned\n**Action:** add tool 'newer' to protocol 'p'\n\n**Lesson:** third lesson learned\n**Action:** propose code change to 'src/greet.js'\n${DIFF}`,
    );
    const before = await readFile(lessonsPath, 'utf8');
    const recompile = vi.fn((_preview: { dryRun: boolean; overrides: ReadonlyMap<string, string> }) => Promise.resolve('preview'));
    const result = await applyLessons({ root, lessonsPath, protocolsDir, now: () => NOW, dryRun: true, recompile });
    expect(result.outcomes.map((o) => o.status)).toEqual(['applied', 'applied', 'applied']);
    expect(result.outcomes[0]!.diff).toContain('+    "new"');
    // The second diff starts from the first edit, as a real apply would.
    expect(result.outcomes[1]!.diff).toContain('-    "new"\n+    "new",\n+    "newer"');
    expect(await readFile(lessonsPath, 'utf8')).toBe(before);
    expect(await readFile(join(protocolsDir, 'p.protocol.json'), 'utf8')).toBe(protocol('p'));
    expect(readdirSync(join(root, 'knowledge_core')).sort()).toEqual(['lessons.jsonl', 'lessons.jsonl.digest', 'lessons.jsonl.prev']);
    // A dry run says what it would do, not what it did.
    expect(result.outcomes[2]!.reason).toMatch(/^would write plan /);
    expect(recompile).toHaveBeenCalledTimes(1);
    const preview = recompile.mock.calls[0]![0];
    expect(preview.dryRun).toBe(true);
    expect(JSON.parse(preview.overrides.get(join(protocolsDir, 'p.protocol.json'))!)).toMatchObject({ associated_tools: ['t', 'new', 'newer'] });
    expect(result.recompileResult).toBe('preview');
  });

  test('--dry-run with --apply-code checks each code change against the ones before it', async () => {
    const second = "```diff\n--- a/src/greet.js\n+++ b/src/greet.js\n@@ -1 +1 @@\n-export const greeting = 'hello';\n+export const greeting = 'hello!';\n```";
    const { root, lessonsPath, protocolsDir } = await setup(
      `**Lesson:** first lesson learned\n**Action:** propose code change to 'src/greet.js'\n${DIFF}\n\n**Lesson:** second lesson learned\n**Action:** propose code change to 'src/greet.js'\n${second}`,
    );
    const dry = await applyLessons({ root, lessonsPath, protocolsDir, now: () => NOW, dryRun: true, applyCode: true });
    expect(dry.outcomes.map((o) => o.status)).toEqual(['applied', 'applied']);
    expect(await readFile(join(root, 'src/greet.js'), 'utf8')).toBe("export const greeting = 'helo';\n");
    const real = await applyLessons({ root, lessonsPath, protocolsDir, now: () => NOW, applyCode: true });
    expect(real.outcomes.map((o) => o.status)).toEqual(['applied', 'applied']);
    expect(await readFile(join(root, 'src/greet.js'), 'utf8')).toBe("export const greeting = 'hello!';\n");
  });

  test('code changes: applyCode patches the file; escapes and diffs that do not apply fail, nothing written', async () => {
    const outsideDiff = "```diff\n--- a/../outside.js\n+++ b/../outside.js\n@@ -1 +1 @@\n-a\n+b\n```";
    const staleDiff = "```diff\n@@ -1 +1 @@\n-export const greeting = 'bye';\n+export const greeting = 'hello';\n```";
    const { root, lessonsPath, protocolsDir } = await setup(
      [
        `**Lesson:** the greeting was misspelt\n**Action:** propose code change to 'src/greet.js'\n${DIFF}`,
        `**Lesson:** an escaping path here\n**Action:** propose code change to '../outside.js'\n${outsideDiff}`,
        `**Lesson:** an absolute path here\n**Action:** propose code change to '/etc/hosts'\n${outsideDiff}`,
        `**Lesson:** a stale diff here\n**Action:** propose code change to 'src/greet.js'\n${staleDiff}`,
      ].join('\n\n'),
    );
    const result = await applyLessons({ root, lessonsPath, protocolsDir, now: () => NOW, applyCode: true });
    expect(result.outcomes.map((o) => o.status)).toEqual(['applied', 'failed', 'failed', 'failed']);
    expect(result.outcomes[1]!.reason).toContain('".." segment');
    expect(result.outcomes[2]!.reason).toContain('absolute');
    expect(result.outcomes[3]!.reason).toContain('does not match');
    expect(await readFile(join(root, 'src/greet.js'), 'utf8')).toBe("export const greeting = 'hello';\n");
  });

  test('a corrupt line in a lessons.jsonl Ratchet never wrote is reported and survives apply', async () => {
    const { root, lessonsPath, protocolsDir } = await setup("**Lesson:** first lesson learned\n**Action:** add tool 'new' to protocol 'p'");
    // The file as a project brings it (no digest record): read as it is.
    const lines = await readFile(lessonsPath, 'utf8');
    await rm(`${lessonsPath}.digest`);
    await rm(`${lessonsPath}.prev`);
    const journal = journalFileFor(lessonsPath);
    if (journal !== undefined) await rm(journal, { force: true });
    await writeFile(lessonsPath, `not json\n${lines}`);
    const result = await applyLessons({ root, lessonsPath, protocolsDir, now: () => NOW });
    expect(result.problems.map((p) => p.line)).toEqual([1]);
    expect(result.outcomes.map((o) => o.status)).toEqual(['applied']);
    expect((await readFile(lessonsPath, 'utf8')).startsWith('not json\n')).toBe(true);
  });

  test('the shortcut: a lesson marked applied by hand is refused, apply changes nothing', async () => {
    const { root, lessonsPath, protocolsDir } = await setup("**Lesson:** first lesson learned\n**Action:** add tool 'new' to protocol 'p'");
    const forged = (await readFile(lessonsPath, 'utf8')).replace('"status":"pending"', '"status":"applied"');
    await writeFile(lessonsPath, forged);
    await expect(readLessons(lessonsPath)).rejects.toMatchObject({ code: 'tampered' });
    await expect(applyLessons({ root, lessonsPath, protocolsDir, now: () => NOW })).rejects.toMatchObject({ code: 'tampered' });
    expect(await readFile(lessonsPath, 'utf8')).toBe(forged);
    expect(await readFile(join(protocolsDir, 'p.protocol.json'), 'utf8')).toBe(protocol('p'));
  });

  test('no lesson can make Ratchet run a shell command: nothing in the package can', () => {
    const src = fileURLToPath(new URL('../src/', import.meta.url));
    for (const name of readdirSync(src)) {
      const text = readFileSync(join(src, name), 'utf8');
      // `RegExp.prototype.exec` (preceded by a dot) is not a process.
      expect(text, name).not.toMatch(/child_process|execa|(?<![.\w])(?:spawn|exec|execSync|execFile)\(/);
    }
  });
});

describe('retryFailed', () => {
  test('a failed lesson is retried only when asked, and its history keeps both outcomes', async () => {
    const { root, lessonsPath, protocolsDir } = await setup("**Lesson:** first lesson learned\n**Action:** add tool 'x' to protocol 'later'");
    expect((await applyLessons({ root, lessonsPath, protocolsDir, now: () => NOW })).outcomes[0]!.status).toBe('failed');
    await writeFiles(root, { 'protocols/later.protocol.json': protocol('later') });
    expect((await applyLessons({ root, lessonsPath, protocolsDir, now: () => NOW })).outcomes).toEqual([]);
    expect((await applyLessons({ root, lessonsPath, protocolsDir, now: () => NOW, retryFailed: true })).outcomes[0]!.status).toBe('applied');
    expect((await readLessons(lessonsPath)).lessons[0]!.history.map((h) => h.status)).toEqual(['pending', 'failed', 'applied']);
  });
});
