import { copyFileSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { call, errorText, ok, plannedTask, type Connected } from './helpers.js';

/** The exit-1 convention: a check's findings are a result; any other command's refusal is a tool error. */
const broken = fileURLToPath(new URL('../../../examples/plans/broken.txt', import.meta.url));
let dir: string;
let server: Connected;

beforeAll(async () => {
  ({ dir, server } = await plannedTask());
  copyFileSync(broken, join(dir, 'plans/broken.txt'));
}, 60_000);
afterAll(async () => {
  await server.close();
});

describe('exit codes as tool results', () => {
  test('plan_lint with lint errors is a successful call whose result lists every finding', { timeout: 60_000 }, async () => {
    const r = await call(server, 'plan_lint', { plan: 'plans/broken.txt' });
    expect(r.isError).toBeFalsy();
    const result = r.structuredContent as { errorCount: number; findings: { ruleId: string; line: number; file: string }[] };
    expect(result.errorCount).toBeGreaterThan(1);
    expect(result.findings.map((f) => f.ruleId)).toContain('fsm-adherence');
    expect(result.findings.every((f) => f.file === 'plans/broken.txt' && f.line > 0)).toBe(true);
    // A clean plan: no findings, same shape.
    expect(await ok(server, 'plan_lint', { plan: 'plans/main.txt' })).toMatchObject({ errorCount: 0, findings: [] });
  });

  test('run_plan refusing a plan with lint errors is a tool error carrying the findings; the task stays in PLANNING', { timeout: 60_000 }, async () => {
    const r = await call(server, 'run_plan', { plan: 'plans/broken.txt' });
    expect(errorText(r)).toContain('fsm-adherence');
    expect(r.structuredContent).toMatchObject({ ok: false, state: 'PLANNING', plan: 'plans/broken.txt' });
    expect((JSON.parse(readFileSync(join(dir, '.ratchet/session.json'), 'utf8')) as { state: string }).state).toBe('PLANNING');
  });

  test('run_done before a plan runs (no step pending, exit 1) is a tool error with the CLI message and its next command', { timeout: 60_000 }, async () => {
    const r = await call(server, 'run_done');
    expect(errorText(r)).toMatch(/^no step pending: task T-1 is in PLANNING.*Next: ratchet run plan/);
    expect(r.structuredContent).toMatchObject({ ok: false, error: { code: 'no-step' } });
  });
});
