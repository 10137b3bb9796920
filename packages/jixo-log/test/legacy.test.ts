/**
 * Logs of every JIXO version: v1/v2 (Chinese headings, plain checklists, bullet entries), v3
 * (`### Log-N @ time for runner`), and v1's `*.task.md` job files. Fixtures in test/fixtures/legacy
 * follow the layouts JIXO itself wrote.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, test } from 'vitest';
import { addTask, auditLog, finishTask, jixoFileKind, jobName, listTasks, lockTask, parseJob, parseLog, parseLogStrict, serializeLog } from '../src/index.js';

const fixture = (name: string): string => readFileSync(new URL(`./fixtures/legacy/${name}`, import.meta.url), 'utf8');
const ctx = { now: '2030-01-01T00:00:00.000Z' };

describe('JIXO v1/v2 logs (工作计划 / 工作路线图 / 工作日志)', () => {
  test('the Chinese headings are the Roadmap and the Work Log, and the body survives byte for byte', () => {
    const text = fixture('v1-docs.log.md');
    const { value, diagnostics } = parseLog(text);
    expect(diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
    expect(value.roadmapTitle).toBe('工作计划');
    expect(value.workLogTitle).toBe('工作日志');
    expect(value.frontMatter.progress).toBe(0.5);
    // The front matter is written in Ratchet's canonical key order and quoting; the body is untouched.
    const body = (t: string): string => t.slice(t.indexOf('\n---\n') + 5);
    expect(body(serializeLog(value))).toBe(body(text));
    expect(serializeLog(parseLogStrict(serializeLog(value)))).toBe(serializeLog(value));
  });

  test('a ticked box without a status line is Completed, an empty one Pending (not "Pending" for both)', () => {
    const { value, diagnostics } = parseLog(fixture('v1-docs.log.md'));
    expect(listTasks(value).map((t) => [t.id, t.status, t.statusInferred])).toEqual([
      ['1', 'Completed', true],
      ['2', 'Completed', true],
      ['3', 'Pending', true],
      ['4', 'Pending', true],
    ]);
    expect(diagnostics.find((d) => d.rule === 'missing-status')?.message).toMatch(/read as Completed from its checkbox/);
    // v1 recorded no per-task result: the audit does not call the ticked boxes hand edits.
    expect(auditLog(value, fixture('v1-docs.log.md'))).toEqual([]);
  });

  test('v1 bullet entries are read as Work Log entries (number, runner job, time, summary)', () => {
    const { value } = parseLog(fixture('v1-docs.log.md'));
    expect(value.workLog.map((e) => [e.number, e.job, e.time, e.legacy?.format])).toEqual([
      [2, 'docs', '2025-06-09T04:38:37.834Z', 'v1'],
      [1, 'docs', '2025-06-09T04:24:18.159Z', 'v1'],
    ]);
    expect(value.workLog[0]!.summary).toBe('- 配置 `docs/.vitepress/config.js`，设置 title 和 description。\n- 创建 `docs/index.md`。');
    expect(value.workLogIntro).toBe('');
  });

  test('an empty v1 log (工作路线图 with placeholders) reads without errors', () => {
    const text = fixture('v1-empty.log.md');
    const log = parseLogStrict(text);
    expect(log.roadmapTitle).toBe('工作路线图');
    expect(log.roadmap).toEqual([]);
    expect(log.workLogIntro).toBe('<!--暂无-->');
    expect(serializeLog(log)).toContain('## 工作路线图\n\n<!--待定-->');
  });

  test('"工作日志 (Work Log)" with a gloss is the Work Log too; an unknown heading is not', () => {
    const head = '---\ntitle: x\n---\n\n## 工作计划 (Roadmap)\n\n- [ ] 1. a\n\n';
    expect(parseLogStrict(`${head}## 工作日志 (Work Log)\n`).workLogTitle).toBe('工作日志 (Work Log)');
    expect(parseLog(`${head}## 工作笔记\n`).diagnostics.map((d) => d.rule)).toContain('missing-section');
  });

  test('a runner works on a v1 log: new entry in the current layout on top, v1 entries and headings kept', () => {
    const text = fixture('v1-docs.log.md');
    let log = parseLogStrict(text);
    log = lockTask(log, '3', 'r1', ctx);
    log = finishTask(log, { id: '3', runner: 'r1', job: 'docs', outcome: 'Completed', summary: 'home page written' }, ctx);
    const out = serializeLog(log);
    expect(out).toContain('## 工作计划\n');
    expect(out).toContain('- [x] 3. 创建首页 <sup>预计在第4次任务中完成</sup>\n  - status: Completed\n  - runner: r1');
    // Untouched ticked tasks keep their plain checkbox (no invented status line).
    expect(out).toContain('- [x] 1. 初始化 VitePress 项目 <sup>预计在第1次任务中完成</sup>\n- [x] 2.');
    expect(out).toMatch(/## 工作日志\n\n### Log 3 @docs \(2030-01-01T00:00:00.000Z\)[\s\S]*- 时间：`2025-06-09T04:38:37.834Z`，执行者：`@docs`，第2次执行任务：/);
    const again = parseLogStrict(out);
    expect(again.workLog.map((e) => [e.number, e.legacy?.format ?? 'current'])).toEqual([
      [3, 'current'],
      [2, 'v1'],
      [1, 'v1'],
    ]);
    expect(serializeLog(again)).toBe(out);
    expect(auditLog(again, out)).toEqual([]);
  });
});

describe('JIXO v3 logs (### Log-N @ time for runner)', () => {
  test('v3 headings are entries with their runner, fields read, file kept byte for byte', () => {
    const text = fixture('v3-demo.log.md');
    const { value, diagnostics } = parseLog(text);
    expect(diagnostics).toEqual([]);
    expect(value.workLog.map((e) => [e.number, e.time, e.runner, e.role, e.result, e.legacy?.format])).toEqual([
      [2, '2025-06-16T06:44:19.291Z', 'runner-2', 'Runner', 'Succeeded', 'v3'],
      [1, '2025-06-16T06:44:16.274Z', 'runner-1', 'Planner', 'Succeeded', 'v3'],
    ]);
    expect(value.workLog[0]!.summary).toBe('Checked `node --version`.');
    expect(serializeLog(value)).toBe(text.replace(/\n\n\n### /g, '\n\n### '));
  });

  test('a malformed v3 heading is kept as text with a warning, not read as an entry', () => {
    const text = '---\ntitle: x\n---\n\n## Roadmap\n\n## Work Log\n\n### Log-x @ when for r\n\n- **Role**: Runner\n';
    const { value, diagnostics } = parseLog(text);
    expect(value.workLog).toEqual([]);
    expect(diagnostics.map((d) => [d.rule, d.line])).toEqual([['unknown-heading', 9]]);
  });
});

describe('JIXO v1 *.task.md job files', () => {
  test('*.task.md is a job file, not a log; its log is <name>.log.md', () => {
    expect(jixoFileKind('.jixo/readme.task.md')).toBe('job');
    expect(jixoFileKind('.jixo/readme.job.md')).toBe('job');
    expect(jixoFileKind('.jixo/readme.log.md')).toBe('log');
    expect(jixoFileKind('.jixo/notes.md')).toBeUndefined();
    const { value, diagnostics } = parseJob(fixture('readme.task.md'));
    expect(diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
    expect(value.frontMatter.agents).toEqual(['readme-writer']);
    expect(jobName('/p/.jixo/readme.task.md', value)).toBe('readme');
    // Read as a log, the same file would be two errors: what the check command used to report.
    expect(parseLog(fixture('readme.task.md')).diagnostics.filter((d) => d.severity === 'error').map((d) => d.rule)).toEqual(['missing-section', 'missing-section']);
  });
});

describe('issue 30: JIXO v1 logs in the shapes JIXO wrote them', () => {
  const body = (t: string): string => t.slice(t.indexOf('\n---\n') + 5);

  test('Work Log entries after a `---` line, with no heading: read as the Work Log and written back without one', () => {
    const text = fixture('v1-finished.log.md');
    const { value, diagnostics } = parseLog(text);
    expect(diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
    expect(value.frontMatter).toMatchObject({ title: '为命令行工具编写使用手册', progress: 1 });
    expect(listTasks(value).map((t) => [t.id, t.status])).toEqual([
      ['1', 'Completed'],
      ['2', 'Completed'],
      ['3', 'Completed'],
    ]);
    expect(value.workLog.map((e) => [e.number, e.job, e.legacy?.format])).toEqual([
      [3, 'manual', 'v1'],
      [2, 'manual', 'v1'],
      [1, 'manual', 'v1'],
    ]);
    expect(value.roadmapOutro).toBe('');
    const out = serializeLog(value);
    expect(body(out)).toBe(body(text));
    expect(serializeLog(parseLogStrict(out))).toBe(out);
  });

  test('the same with CRLF line ends and a BOM: the same structure', () => {
    const text = fixture('v1-finished.log.md');
    const crlf = parseLog(`\uFEFF${text.replace(/\n/g, '\r\n')}`);
    expect(crlf.diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
    expect(crlf.value).toEqual(parseLog(text).value);
  });

  test('a log of entries only (no Roadmap, no headings): an empty roadmap and its entries; a plan added later gets its heading', () => {
    const text = fixture('v1-entries.log.md');
    const { value, diagnostics } = parseLog(text);
    expect(diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
    expect(value.roadmap).toEqual([]);
    expect(value.workLog.map((e) => [e.number, e.job, e.time])).toEqual([[1, 'changelog', '2025-06-05T08:12:40.503Z']]);
    const out = serializeLog(value);
    expect(body(out)).toBe(body(text));
    const planned = serializeLog(addTask(value, { id: '1', title: 'Add 0.3.0' }, ctx));
    expect(planned).toMatch(/\n## Roadmap\n\n- \[ \] 1\. Add 0\.3\.0\n {2}- status: Pending\n\n## Work Log\n\n- 时间：`2025-06-05T08:12:40.503Z`/);
    expect(serializeLog(parseLogStrict(planned))).toBe(planned);
  });

  test('a log with no front matter: read (a warning), front matter written on the first change', () => {
    const text = fixture('v1-no-front-matter.log.md');
    const { value, diagnostics } = parseLog(text);
    expect(diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
    expect(diagnostics.map((d) => d.rule)).toContain('missing-front-matter');
    expect(value.workLog).toHaveLength(1);
    expect(value.workLog[0]!.summary).toContain('site/index.html');
    const out = serializeLog(value);
    expect(out.startsWith('---\ntitle: "_待定_"\nprogress: "0%"\n---\n')).toBe(true);
    expect(serializeLog(parseLogStrict(out))).toBe(out);
  });

  test('refusals that remain are right: no sections and no entries, or text after the `---` that is not entries, say where and why', () => {
    const none = parseLog('---\ntitle: x\n---\n\nJust some notes.\n');
    expect(none.diagnostics.filter((d) => d.severity === 'error').map((d) => [d.rule, d.line])).toEqual([
      ['missing-section', 5],
      ['missing-section', 5],
    ]);
    const tail = parseLog('---\ntitle: x\n---\n\n## 工作计划\n\n- [x] 1. a\n\n---\n\nSome prose, not an entry.\n');
    expect(tail.diagnostics.filter((d) => d.severity === 'error').map((d) => d.rule)).toEqual(['missing-section']);
    expect(tail.diagnostics.find((d) => d.severity === 'error')!.message).toMatch(/Work Log/);
  });
});
