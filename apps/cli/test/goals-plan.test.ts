import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { ratchet } from './fuzz-inputs.js';

const step = (n: number, parallel: string, criteria = 'done when checked'): string => `## Step ${n}: step ${n}\nSuccess Criteria: ${criteria}\nActions: do it\nParallelizable with: ${parallel}\n\n`;
const GOOD = `Measure, fix two things side by side, verify.\n\n${step(1, 'None')}${step(2, 'Step 3')}${step(3, 'Step 2')}${step(4, 'None - must wait for Step 3')}`;

describe('ratchet goals plan check', { timeout: 60_000 }, () => {
  test('a sound plan: exit 0 with its waves; --json is the parsed plan', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'cli-goals-plan-'));
    writeFileSync(join(dir, 'plan.md'), GOOD.replaceAll('\n', '\r\n'));
    const r = await ratchet(dir, ['goals', 'plan', 'check', 'plan.md']);
    expect(r.code, r.err).toBe(0);
    expect(r.out).toContain('plan.md: 4 steps in 3 waves');
    expect(r.out).toContain('  wave 2: Step 2 (step 2), Step 3 (step 3)');
    const j = await ratchet(dir, ['--json', 'goals', 'plan', 'check', '-'], GOOD);
    expect(j.code).toBe(0);
    expect(JSON.parse(j.out)).toMatchObject({ $schema: 'https://unpkg.com/@ratchet/goals/schemas/plan.schema.json', file: '<stdin>', ok: true, waves: [[1], [2, 3], [4]] });
  });

  test('problems: exit 1, every one at file:line:col with its rule', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'cli-goals-plan-'));
    writeFileSync(join(dir, 'bad.md'), `Strategy.\n\n${step(1, 'Step 2, Step 4')}${step(2, 'None', '')}`);
    const r = await ratchet(dir, ['goals', 'plan', 'check', 'bad.md']);
    expect(r.code).toBe(1);
    expect(r.out).toMatch(/6:1\s+error\s+Step 1 names Step 4, which the plan does not have\s+unknown-step/);
    expect(r.out).toMatch(/6:1\s+error\s+Step 1 is parallelizable with Step 2, but Step 2 does not list Step 1/);
    expect(r.out).toMatch(/9:1\s+error\s+Step 2's "Success Criteria:" is empty\s+missing-success-criteria/);
    expect(r.out).toContain('3 problems (3 errors, 0 warnings)');
    const j = await ratchet(dir, ['--json', 'goals', 'plan', 'check', 'bad.md']);
    expect(j.code).toBe(1);
    expect(JSON.parse(j.out)).toMatchObject({ ok: false, waves: [], issues: [{ rule: 'unknown-step', line: 6 }, { rule: 'asymmetric-parallel', line: 6 }, { rule: 'missing-success-criteria', line: 9 }] });
  });

  test('unreadable input: missing, binary, huge: exit 2 naming the file', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'cli-goals-plan-'));
    const missing = await ratchet(dir, ['goals', 'plan', 'check', 'nope.md']);
    expect(missing.code).toBe(2);
    expect(missing.err).toContain('nope.md');
    writeFileSync(join(dir, 'bin.md'), Buffer.from([0x23, 0x23, 0x00, 0xff, 0x10]));
    const binary = await ratchet(dir, ['goals', 'plan', 'check', 'bin.md']);
    expect(binary.code).toBe(2);
    expect(binary.err).toContain('bin.md');
    writeFileSync(join(dir, 'huge.md'), 'x'.repeat(2 * 1024 * 1024));
    const huge = await ratchet(dir, ['goals', 'plan', 'check', 'huge.md']);
    expect(huge.code).toBe(2);
    expect(huge.err).toContain('huge.md');
    expect((await ratchet(dir, ['goals', 'plan', 'check'])).code).toBe(2);
  });
});

describe('ratchet goals plan start|step|show', { timeout: 60_000 }, () => {
  test('a run: start, steps in order with evidence, refusals for the shortcuts, fail with a regeneration request', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'cli-goals-plan-'));
    writeFileSync(join(dir, 'plan.md'), GOOD);
    writeFileSync(join(dir, 'bad.md'), `S.\n\n${step(1, 'Step 2')}`);
    const bad = await ratchet(dir, ['goals', 'plan', 'start', 'bad.md']);
    expect(bad.code).toBe(1);
    expect(bad.out).toContain('unknown-step');
    const start = await ratchet(dir, ['goals', 'plan', 'start', 'plan.md']);
    expect(start.code, start.err).toBe(0);
    expect(start.out).toContain('started plan pl1 from plan.md: 4 steps; ready: Step 1');
    // The shortcuts an executor would take, refused with exit 1 and nothing written.
    const early = await ratchet(dir, ['goals', 'plan', 'step', 'pl1', '2', 'start']);
    expect(early.code).toBe(1);
    expect(early.err).toContain('Step 2 of plan pl1 waits for Step 1, which has not succeeded');
    const unstarted = await ratchet(dir, ['goals', 'plan', 'step', 'pl1', '1', 'succeed', '--evidence', 'x']);
    expect(unstarted.code).toBe(1);
    expect(unstarted.err).toContain('only a started step can succeed');
    expect((await ratchet(dir, ['goals', 'plan', 'step', 'pl1', '1', 'start'])).code).toBe(0);
    const noEvidence = await ratchet(dir, ['goals', 'plan', 'step', 'pl1', '1', 'succeed']);
    expect(noEvidence.code).toBe(1);
    expect(noEvidence.err).toContain('cannot succeed without evidence');
    const ok = await ratchet(dir, ['goals', 'plan', 'step', 'pl1', '1', 'succeed', '--evidence', 'profiles/signup.json']);
    expect(ok.out).toContain('plan pl1 Step 1 (step 1): succeeded; plan running; ready: Step 2, Step 3');
    expect((await ratchet(dir, ['goals', 'plan', 'step', 'pl1', '2', 'start'])).code).toBe(0);
    const failed = await ratchet(dir, ['goals', 'plan', 'step', 'pl1', '2', 'fail', '--reason', 'the cache is not shared', '--regenerate']);
    expect(failed.code).toBe(0);
    expect(failed.err).toContain('a new plan is requested (Step 2 failed: the cache is not shared)');
    const show = await ratchet(dir, ['--json', 'goals', 'plan', 'show', 'pl1']);
    expect(JSON.parse(show.out)).toMatchObject({ plan: { status: 'failed', regeneration: { step: 2 }, steps: [{ status: 'succeeded', criteria_met: { evidence_refs: ['profiles/signup.json'] } }, { status: 'failed' }, { status: 'pending' }, { status: 'pending' }] }, ready: [] });
    const history = await ratchet(dir, ['goals', 'history']);
    expect(history.out).toContain('plan.step.succeed');
    expect((await ratchet(dir, ['goals', 'plan', 'step', 'pl1', 'x', 'start'])).code).toBe(2);
    expect((await ratchet(dir, ['goals', 'plan', 'step', 'pl1', '3', 'finish'])).code).toBe(2);
    expect((await ratchet(dir, ['goals', 'plan', 'show', 'pl9'])).code).toBe(2);
  });
});
