import { describe, expect, it } from 'vitest';
import {
  IllegalMoveError,
  advance,
  advanceResearch,
  createSession,
  currentStep,
  enterResearch,
  leaveResearch,
  moveTo,
  nextDirective,
  researchPlan,
  startPlan,
  stepTriggers,
  type Session,
} from '../src/index.js';
import { host } from './support.js';

const plan = researchPlan('how do locks work', { researchId: 'locks' });
const start = { topic: plan.topic, planPath: 'research/locks/plan.txt', text: plan.text, reportPath: plan.reportPath };
const o = host({ 'plans/main.txt': 'set_plan x\nplan_step_complete go\nread_file README.md\nrun_in_bash_session close\n' });

function planning(): Session {
  let s = createSession('T', o);
  for (const d of ['ORIENTING', 'PLANNING']) s = moveTo(s, d, o);
  return s;
}

/** Every research step reported done: the lines served, and the session after the last. */
function research(s: Session): { lines: string[]; session: Session } {
  const lines: string[] = [];
  while (s.state === 'RESEARCHING') {
    lines.push(currentStep(s)!.line);
    s = advanceResearch(s, {}, o);
  }
  return { lines, session: s };
}

describe('the research cycle in the lifecycle', () => {
  it('from PLANNING: steps are served one by one, then AWAITING_RESULT, then back to PLANNING', () => {
    const entered = enterResearch(planning(), start, o);
    expect(entered.state).toBe('RESEARCHING');
    expect(entered.research).toMatchObject({ planPath: start.planPath, reportPath: 'research/locks/report.md', from: 'PLANNING' });
    expect(nextDirective(entered)).toMatchObject({ commands: ['ratchet run done', expect.stringContaining('--failed') as string], step: { line: 'set_plan Deep research: how do locks work', total: 9 } });
    expect(stepTriggers(entered)).toEqual({ done: 'research_step_complete', failed: 'research_failed' });
    const { lines, session } = research(entered);
    expect(lines).toEqual(plan.text.split('\n').filter((l) => l !== '' && !l.startsWith('#')));
    expect(session).toMatchObject({ state: 'AWAITING_RESULT', stack: [] });
    const back = leaveResearch(session, {}, o);
    expect(back.state).toBe('PLANNING');
    expect(back.history.map((h) => h.trigger).slice(-3)).toEqual(['research_step_complete', 'research_plan_complete', 'research_complete']);
  });

  it('from EXECUTING: the running plan is paused under the research plan and resumes at the same step', () => {
    let s = startPlan(planning(), 'plans/main.txt', o);
    s = advance(s, {}, o); // set_plan done: plan_step_complete is next
    const entered = enterResearch(s, start, o);
    expect(entered.stack.map((f) => f.planPath)).toEqual(['plans/main.txt', 'research/locks/plan.txt']);
    expect(currentStep(entered)).toMatchObject({ planPath: 'research/locks/plan.txt', chain: ['plans/main.txt', 'research/locks/plan.txt'] });
    const { session } = research(entered);
    expect(nextDirective(session).instruction).toContain('the paused plan resumes');
    const resumed = leaveResearch(session, {}, o);
    expect(resumed.state).toBe('EXECUTING');
    expect(resumed.history.at(-1)?.trigger).toBe('research_resumed');
    expect(currentStep(resumed)).toMatchObject({ planPath: 'plans/main.txt', line: 'plan_step_complete go', index: 1 });
  });

  it('shortcuts are refused: finishing before the steps are done, plan steps while researching, research from elsewhere', () => {
    const entered = enterResearch(planning(), start, o);
    // research done while steps remain: RESEARCHING has no way to PLANNING or EXECUTING.
    expect(() => leaveResearch(entered, {}, o)).toThrow(IllegalMoveError);
    // A plan step's trigger does not step the research plan.
    expect(() => advance(entered, {}, o)).toThrow(IllegalMoveError);
    // Research starts only where the lifecycle allows it (not after the plan, not in ERROR).
    const failed = moveTo(entered, 'ERROR', o);
    expect(() => enterResearch(failed, start, o)).toThrow(/not allowed in state "ERROR"/);
    // Outside RESEARCHING there is no research step to advance.
    const { session } = research(entered);
    expect(() => advanceResearch(session, {}, o)).toThrow(/no research step to advance in state "AWAITING_RESULT"/);
  });

  it('a failed research step, or giving up midway, goes to ERROR with the reason', () => {
    const entered = enterResearch(planning(), start, o);
    expect(advanceResearch(entered, { failed: true, message: 'no sources' }, o)).toMatchObject({ state: 'ERROR', history: expect.arrayContaining([expect.objectContaining({ trigger: 'research_failed', message: 'no sources' })]) as unknown });
    expect(leaveResearch(entered, { failed: true, message: 'gave up' }, o).state).toBe('ERROR');
  });

  it('a research plan that does not parse, or calls another plan, is refused before anything moves', () => {
    expect(() => enterResearch(planning(), { ...start, text: 'set_plan x\ncall_plan other\nrun_in_bash_session close\n' }, o)).toThrow(/needs steps and no call_plan/);
    expect(() => enterResearch(planning(), { ...start, text: '' }, o)).toThrow(/needs steps/);
  });
});
