import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { call, connect, errorText, plannedTask, tempDir, type Connected } from './helpers.js';

let dir: string;
let server: Connected;
const sessionBytes = (): string => readFileSync(join(dir, '.ratchet/session.json'), 'utf8');

beforeEach(async () => {
  ({ dir, server } = await plannedTask());
}, 60_000);
afterEach(async () => {
  await server.close();
});

describe('bad arguments are tool errors, and nothing is written', () => {
  test('arguments that fail the schema: a wrong type, a missing one, one the tool does not define', { timeout: 60_000 }, async () => {
    const before = sessionBytes();
    expect(errorText(await call(server, 'run_plan', { plan: 42 }))).toMatch(/Invalid arguments for tool run_plan.*plan/);
    expect(errorText(await call(server, 'run_done', { failed: 'yes' }))).toMatch(/Invalid arguments for tool run_done/);
    expect(errorText(await call(server, 'task_close', {}))).toMatch(/Invalid arguments for tool task_close.*task_id/);
    expect(errorText(await call(server, 'run_done', { force: true }))).toMatch(/Invalid arguments for tool run_done/);
    expect(errorText(await call(server, 'campaign_update_task', { seq: '001', status: 'finished' }))).toMatch(/Invalid arguments for tool campaign_update_task/);
    expect(sessionBytes()).toBe(before);
  });

  test("a CLI input error (a missing plan file) carries the CLI's own message", { timeout: 60_000 }, async () => {
    const before = sessionBytes();
    const r = await call(server, 'run_plan', { plan: 'plans/missing.txt' });
    // The text is the error.message of the CLI's --json error document (the structured content),
    // after the file it names, as the CLI prints it on stderr.
    const error = (r.structuredContent as { ok: boolean; error: { message: string; file: string } }).error;
    expect(r.structuredContent).toMatchObject({ ok: false });
    expect(error.file).toMatch(/plans\/missing\.txt$/);
    expect(errorText(r)).toBe(`${error.file}: ${error.message}`);
    expect(sessionBytes()).toBe(before);
  });

  test('a value that looks like an option is an operand, not a flag', { timeout: 60_000 }, async () => {
    const before = sessionBytes();
    expect(errorText(await call(server, 'run_plan', { plan: '--help' }))).toContain('--help');
    expect(sessionBytes()).toBe(before);
  });

  test.each([['../outside.txt'], ['/etc/passwd'], ['plans/../../x.txt']])('a hostile path %s is refused as a tool error', { timeout: 60_000 }, async (plan) => {
    const before = sessionBytes();
    for (const tool of ['run_plan', 'plan_lint']) {
      const r = await call(server, tool, { plan });
      expect(r.isError, `${tool} ${plan}`).toBe(true);
      expect(errorText(r)).toMatch(/outside the project root|is absolute/);
    }
    expect(sessionBytes()).toBe(before);
  });

  test('a session file outside the project is refused before the command runs (the CLI would take it from a person)', { timeout: 60_000 }, async () => {
    const outside = join(tempDir(), 'session.json');
    for (const session of ['../elsewhere/session.json', outside]) {
      const r = await call(server, 'task_start', { task_id: 'T-2', network: false, session });
      expect(errorText(r)).toMatch(/outside the project root/);
    }
    expect(existsSync(outside)).toBe(false);
  });

  test('a jixo log outside the project is refused (standard preset)', { timeout: 60_000 }, async () => {
    const standard = await connect(dir, { RATCHET_MCP_TOOLS: 'standard' });
    try {
      const r = await call(standard, 'jixo_check', { file: '../x.log.md' });
      expect(errorText(r)).toMatch(/x\.log\.md.*outside the project root/);
    } finally {
      await standard.close();
    }
  });
});
