/**
 * The skill machine's end: REMEDIATION decides by the validation agent's verdict (FAIL never
 * completes), then LEARNINGS_PENDING before FULLY_COMPLETE. Each test performs a shortcut an agent
 * would take and shows it refused.
 */
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { advanceFlow, completeBranch, findVerdict, flowStatus, haltFlow, loadFlowFile, openSession, resumeFlow, startFlow, type RunnerOptions } from '../src/index.js';
import { flowIn, memoryText, runner, SKILL, tmpProject, write, writeAgentMemory, writeLearnings, writeTransition } from './support.js';

const VALIDATION = '.claude/memory/T-validation-agent-memory.md';

/** A develop-feature session (depth quick) at phase 5, validation, with fresh generation files. */
async function atValidation(root: string, opts: RunnerOptions, sessionId = 'k'): Promise<void> {
  const flow = await loadFlowFile(SKILL);
  await startFlow(opts, { flow, ref: SKILL, sessionId, inputs: { task: 'T', depth: 'quick' } });
  for (const [agent, from, to] of [['clarification-agent', '0', '2'], ['analysis-agent', '2', '3']] as const) {
    writeAgentMemory(root, 'T', agent);
    writeTransition(root, 'T', from, to);
    await advanceFlow(opts, { sessionId });
  }
  for (const b of ['design', 'risks']) {
    write(root, `.claude/memory/T-synthesis-agent-${b}-memory.md`, memoryText(b));
    await completeBranch(opts, { sessionId, branch: b });
  }
  writeTransition(root, 'T', '3', '4');
  await advanceFlow(opts, { sessionId });
  await generate(root, opts, sessionId);
}

async function generate(root: string, opts: RunnerOptions, sessionId = 'k'): Promise<void> {
  writeAgentMemory(root, 'T', 'generation-agent');
  writeTransition(root, 'T', '4', '5');
  const v = await advanceFlow(opts, { sessionId });
  expect(v.session.current, v.missing.join('\n')).toBe('5');
}

describe('REMEDIATION: the verdict decides', () => {
  test('a plain advance on a FAIL verdict does not complete the skill: it sends the work back to generation', async () => {
    const root = tmpProject();
    const opts = runner(root);
    await atValidation(root, opts);
    writeAgentMemory(root, 'T', 'validation-agent', 'Tests fail in the login form.\n\nVerdict: FAIL');
    writeTransition(root, 'T', '5', '4');
    const v = await advanceFlow(opts, { sessionId: 'k' });
    expect(v.outcome).toBe('remediated');
    expect(v.text).toContain('Sent back for remediation (the verdict is FAIL) from step 5 to step 4.');
    expect(v.session).toMatchObject({ status: 'EXECUTING', current: '4', remediations: { '5': 1 }, verdicts: { '5': [{ visit: 1, verdict: 'FAIL' }] } });
  });

  test('FAIL after the last remediation halts the session; it never completes, however often the agent advances', async () => {
    const root = tmpProject();
    const opts = runner(root);
    await atValidation(root, opts);
    for (let i = 0; i < 2; i++) {
      writeAgentMemory(root, 'T', 'validation-agent', 'Verdict: FAIL');
      writeTransition(root, 'T', '5', '4');
      expect((await advanceFlow(opts, { sessionId: 'k' })).session.current).toBe('4');
      await generate(root, opts);
    }
    writeAgentMemory(root, 'T', 'validation-agent', '**Verdict:** FAIL');
    const halted = await advanceFlow(opts, { sessionId: 'k' });
    expect(halted.outcome).toBe('halted');
    expect(halted.session).toMatchObject({ status: 'HALTED', current: '5', remediations: { '5': 2 } });
    expect(halted.session.haltReason).toBe('validation failed (verdict FAIL) and step 5 has used 2 of 2 remediations: the skill cannot complete on a failed validation; the user decides how to go on');
    await expect(advanceFlow(opts, { sessionId: 'k' })).rejects.toMatchObject({ code: 'session-not-active' });
    await resumeFlow(opts, { sessionId: 'k', actor: 'user' });
    // The failed validation's file is the baseline now: advancing on it again is refused, not completed.
    const again = await advanceFlow(opts, { sessionId: 'k' });
    expect(again.missing).toContain(`${VALIDATION} is unchanged since this step began (memory file of agent validation-agent): it must be written for this step, not left over from earlier work`);
    writeAgentMemory(root, 'T', 'validation-agent', 'Verdict: FAIL');
    expect((await advanceFlow(opts, { sessionId: 'k' })).session.status).toBe('HALTED');
    await resumeFlow(opts, { sessionId: 'k', actor: 'user' });
    writeAgentMemory(root, 'T', 'validation-agent', 'Verdict: PASS');
    const passed = await advanceFlow(opts, { sessionId: 'k' });
    expect(passed.session.status).toBe('LEARNINGS_PENDING');
    expect(passed.session.verdicts['5']!.map((v) => v.verdict)).toEqual(['FAIL', 'FAIL', 'FAIL', 'FAIL', 'PASS']);
  });

  test('no verdict, a verdict only inside a code block, or both verdicts: refused, nothing saved', async () => {
    const root = tmpProject();
    const opts = runner(root);
    await atValidation(root, opts);
    const file = join(root, '.ratchet/flows/k.json');
    const before = readFileSync(file, 'utf8');
    for (const [extra, problem] of [
      ['All good.', 'states no verdict: it needs a line "Verdict: PASS" or "Verdict: FAIL"'],
      ['```\nVerdict: PASS\n```', 'states no verdict: it needs a line "Verdict: PASS" or "Verdict: FAIL"'],
      ['Verdict: PASS\n\n## Verdict: FAIL', 'states both PASS and FAIL: it needs one verdict'],
    ] as const) {
      writeAgentMemory(root, 'T', 'validation-agent', extra);
      const v = await advanceFlow(opts, { sessionId: 'k' });
      expect(v.missing).toEqual([`${VALIDATION} ${problem} (verdict of step 5)`]);
    }
    expect(readFileSync(file, 'utf8')).toBe(before);
  });

  test('findVerdict reads headings, list items and bold labels; case does not matter', () => {
    expect(findVerdict('## Verdict: pass')).toEqual({ verdict: 'PASS' });
    expect(findVerdict('- **Verdict**: FAIL (2 tests)')).toEqual({ verdict: 'FAIL' });
    expect(findVerdict('The verdict: PASS is what we hope for')).toEqual({ problem: 'states no verdict: it needs a line "Verdict: PASS" or "Verdict: FAIL"' });
    expect(findVerdict('Verdict: PASSABLE')).toMatchObject({ problem: expect.any(String) as string });
  });

  test('verdictFrom: a step without an agent reads its verdict from the named file, held to the same freshness', async () => {
    const root = tmpProject();
    const dir = tmpProject();
    const flow = await flowIn(dir, {
      id: 'fix',
      title: 'Fix',
      steps: [
        { id: '0', title: 'Work', content: 'w.md' },
        { id: '1', title: 'Check', type: 'REMEDIATION', content: 'c.md', remediationTarget: '0', maxRemediation: 1, verdictFrom: 'out/{session}-check.md', next: null },
      ],
    });
    const opts = runner(root);
    write(root, 'out/f-check.md', 'Verdict: PASS\n');
    await startFlow(opts, { flow, ref: flow.path, sessionId: 'f' });
    await advanceFlow(opts, { sessionId: 'f' });
    // Written before the step began: a PASS left from earlier work does not count.
    expect((await advanceFlow(opts, { sessionId: 'f' })).missing).toEqual(['out/f-check.md is unchanged since this step began (verdict of step 1): it must be written for this step, not left over from earlier work']);
    write(root, 'out/f-check.md', 'Checked again.\nVerdict: FAIL\n');
    expect((await advanceFlow(opts, { sessionId: 'f' })).session.current).toBe('0');
    await advanceFlow(opts, { sessionId: 'f' });
    write(root, 'out/f-check.md', 'Checked a third time.\nVerdict: PASS\n');
    expect((await advanceFlow(opts, { sessionId: 'f' })).session.status).toBe('COMPLETED');
  });
});

describe('a verdict after a FAIL comes from a new validation pass', () => {
  const VALIDATION_FILE = (root: string): string => join(root, VALIDATION);

  test('after the remediation cap halted the skill and the user resumed, FAIL edited to PASS in the same report is refused', async () => {
    const root = tmpProject();
    const opts = runner(root);
    await atValidation(root, opts);
    for (let i = 0; i < 2; i++) {
      writeAgentMemory(root, 'T', 'validation-agent', `Round ${i}: the login form rejects valid passwords.\n\nVerdict: FAIL`);
      writeTransition(root, 'T', '5', '4');
      await advanceFlow(opts, { sessionId: 'k' });
      await generate(root, opts);
    }
    writeAgentMemory(root, 'T', 'validation-agent', 'Two tests fail: login with a valid password, logout.\n\nVerdict: FAIL');
    expect((await advanceFlow(opts, { sessionId: 'k' })).session.status).toBe('HALTED');
    await resumeFlow(opts, { sessionId: 'k', actor: 'user' });
    // The shortcut: the failed report, its verdict line changed.
    const failed = readFileSync(VALIDATION_FILE(root), 'utf8');
    writeFileSync(VALIDATION_FILE(root), failed.replace('Verdict: FAIL', 'Verdict: PASS'));
    const refused = await advanceFlow(opts, { sessionId: 'k' });
    expect(refused.ok).toBe(false);
    expect(refused.missing).toEqual([
      `${VALIDATION} is the report that failed at step 5 with its verdict changed to PASS: a PASS after a FAIL must come from a new validation pass (invoke validation-agent again)`,
    ]);
    expect((await openSession(root, 'k').read()).status).toBe('EXECUTING');
    // As a heading or bold label, or with spacing changed, it is the same report.
    writeFileSync(VALIDATION_FILE(root), `${failed.replace('Verdict: FAIL', '## **Verdict:** PASS')}\n\n`);
    expect((await advanceFlow(opts, { sessionId: 'k' })).ok).toBe(false);
    // A validation run again writes its own report.
    writeAgentMemory(root, 'T', 'validation-agent', 'Ran the whole suite again after the fix: 48 of 48 pass.\n\nVerdict: PASS');
    expect((await advanceFlow(opts, { sessionId: 'k' })).session.status).toBe('LEARNINGS_PENDING');
  });

  test('without a halt too: the FAIL report the session was sent back on, edited to PASS, does not complete the skill', async () => {
    const root = tmpProject();
    const opts = runner(root);
    await atValidation(root, opts);
    writeAgentMemory(root, 'T', 'validation-agent', 'The signup test fails.\n\nVerdict: FAIL');
    writeTransition(root, 'T', '5', '4');
    expect((await advanceFlow(opts, { sessionId: 'k' })).session.current).toBe('4');
    const failed = readFileSync(VALIDATION_FILE(root), 'utf8');
    await generate(root, opts);
    writeFileSync(VALIDATION_FILE(root), failed.replace('Verdict: FAIL', 'Verdict: PASS'));
    const refused = await advanceFlow(opts, { sessionId: 'k' });
    expect(refused.missing).toEqual([
      `${VALIDATION} is the report that failed at step 5 with its verdict changed to PASS: a PASS after a FAIL must come from a new validation pass (invoke validation-agent again)`,
    ]);
  });
});

describe('LEARNINGS_PENDING comes before FULLY_COMPLETE', () => {
  async function pending(root: string, opts: RunnerOptions, sessionId = 'k'): Promise<void> {
    await atValidation(root, opts, sessionId);
    writeAgentMemory(root, 'T', 'validation-agent', `Verdict: PASS (${sessionId})`);
    expect((await advanceFlow(opts, { sessionId })).session.status).toBe('LEARNINGS_PENDING');
  }

  test('the skill is not complete until its learnings are written; status and the refusal say where', async () => {
    const root = tmpProject();
    const opts = runner(root);
    await pending(root, opts);
    const status = await flowStatus(opts, 'k');
    expect(status.directive.command).toBe('ratchet flow advance --session k');
    expect(status.text).toContain('### Learnings');
    expect(status.text).toContain('- `.claude/memory/T-learnings-memory.md`: learnings of skill develop-feature; at least 100 characters; headings "## What worked", "## What failed", "## Next time"');
    const refused = await advanceFlow(opts, { sessionId: 'k' });
    expect(refused.ok).toBe(false);
    expect(refused.missing).toEqual(['.claude/memory/T-learnings-memory.md does not exist (learnings of skill develop-feature)']);
    await expect(advanceFlow(opts, { sessionId: 'k', kind: 'loop' })).rejects.toMatchObject({ code: 'wrong-step-type' });
    await expect(haltFlow(opts, { sessionId: 'k', reason: 'skip the learnings' })).rejects.toMatchObject({ code: 'session-not-active' });
    writeLearnings(root, 'T');
    const done = await advanceFlow(opts, { sessionId: 'k' });
    expect(done).toMatchObject({ outcome: 'completed', session: { status: 'FULLY_COMPLETE', current: null } });
    expect(done.session.history.at(-1)).toMatchObject({ event: 'learnings', step: null });
    await expect(advanceFlow(opts, { sessionId: 'k' })).rejects.toMatchObject({ code: 'session-not-active' });
  });

  test("learnings left by an earlier run, or copied from another session's, do not finish the skill", async () => {
    const root = tmpProject();
    const opts = runner(root);
    const stale = writeLearnings(root, 'T');
    await pending(root, opts, 'k');
    expect((await advanceFlow(opts, { sessionId: 'k' })).missing).toEqual(['.claude/memory/T-learnings-memory.md is unchanged since this step began (learnings of skill develop-feature): it must be written for this step, not left over from earlier work']);
    writeLearnings(root, 'T');
    expect((await advanceFlow(opts, { sessionId: 'k' })).session.status).toBe('FULLY_COMPLETE');
    // Kept aside and put back once a second session waits for its learnings: a copy, not new work.
    const accepted = readFileSync(stale, 'utf8');
    rmSync(stale);
    await pending(root, opts, 'k2');
    write(root, '.claude/memory/T-learnings-memory.md', accepted);
    const copy = await advanceFlow(opts, { sessionId: 'k2' });
    expect(copy.missing).toEqual(['.claude/memory/T-learnings-memory.md is identical to .claude/memory/T-learnings-memory.md, accepted for session k at step (learnings): hand in work done for this step, not a copy']);
    expect((await openSession(root, 'k2').read()).status).toBe('LEARNINGS_PENDING');
  });
});
