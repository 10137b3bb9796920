/**
 * The short-lived era of the original toolchain whose plan FSM had the plan lines themselves as its
 * alphabet (`set_plan`, `plan_step_complete`, `run:fdc_cli.py close`, `submit`; its validator
 * compared each stripped line with the alphabet). Fixture: tooling/fdc_fsm_lines.json, our own file
 * in that shape. Such a machine is read with `lineAlphabetDialect`: each line is its own symbol, the
 * close and what may follow it found through the FDC dialect.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { loadDefinition, type Machine } from '@ratchet/fsm-core';
import { lineAlphabetDialect, lintPlan, parsePlan } from '../src/index.js';
import { brief, fdc, memoryHost } from './support.js';

const JULES = fileURLToPath(new URL('./fixtures/jules/', import.meta.url));
const lines = ((): Machine => {
  const { machine } = loadDefinition(JSON.parse(readFileSync(`${JULES}tooling/fdc_fsm_lines.json`, 'utf8')));
  if (!machine) throw new Error('fixture FSM invalid');
  return machine;
})();

function lint(text: string): string[] {
  const read = lineAlphabetDialect(lines, fdc.dialect);
  if (read.dialect === undefined) throw new Error(read.why);
  return brief(lintPlan({ entry: 'p.txt', root: JULES, host: memoryHost({ 'p.txt': text }), files: [], machine: lines, dialect: read.dialect }).findings, 'p.txt');
}

describe('an FSM whose alphabet is the plan lines', () => {
  it('is recognised; its close and what follows the close come from the FDC dialect', () => {
    const read = lineAlphabetDialect(lines, fdc.dialect);
    expect(read.why).toBeUndefined();
    expect(read.dialect).toMatchObject({ close: 'run:fdc_cli.py close', afterClose: ['submit'] });
  });

  it('reads the valid plan of that era as written, lines with a colon included', () => {
    expect(parsePlan('run:fdc_cli.py close\n', 'p').diagnostics).toEqual([]);
    expect(lint('set_plan\nplan_step_complete\nplan_step_complete\nrun:fdc_cli.py close\nsubmit\n')).toEqual([]);
  });

  it('refuses what its validator refused, at the line: out of order, a line not in the alphabet, no close', () => {
    expect(lint('set_plan\nsubmit\nplan_step_complete\n')).toEqual(['fsm-adherence@2:1', 'closure-mandate@3:1']);
    expect(lint('set_plan\nplan_step_complete\nplan_step_complete now\nrun:fdc_cli.py close\nsubmit\n')).toEqual(['fsm-adherence@3:1']);
    expect(lint('set_plan\nplan_step_complete\nread_file x\nrun:fdc_cli.py close\nsubmit\n')).toEqual(['unknown-command@3:1']);
    // The machine accepts only after submit (POST_MORTEM is no accept state).
    expect(lint('set_plan\nplan_step_complete\nrun:fdc_cli.py close\n')).toEqual(['fsm-adherence@3:1']);
  });

  it('names the legal lines in its messages, as written', () => {
    const read = lineAlphabetDialect(lines, fdc.dialect);
    const { findings } = lintPlan({ entry: 'p', root: JULES, host: memoryHost({ p: 'set_plan\nsubmit\n' }), files: [], machine: lines, dialect: read.dialect! });
    expect(findings.find((f) => f.ruleId === 'fsm-adherence')!.message).toBe('submit (submit) is not allowed in state PLANNING; expected one of: plan_step_complete');
  });

  it('a machine over the dialect\'s own symbols is not one; nor one whose lines the dialect cannot read, and it says which', () => {
    expect(lineAlphabetDialect(fdc.machine, fdc.dialect)).toEqual({ why: expect.stringContaining('already speaks the dialect') as string });
    const odd = loadDefinition({ states: ['A', 'B'], alphabet: ['set_plan', 'frobnicate now'], transitions: { A: { set_plan: 'B' }, B: { 'frobnicate now': 'A' } }, start_state: 'A', accept_states: ['B'] }).machine!;
    expect(lineAlphabetDialect(odd, fdc.dialect).why).toBe('"frobnicate now" is not a line of the fdc dialect (no command "frobnicate")');
    const noClose = loadDefinition({ states: ['A', 'B'], alphabet: ['set_plan', 'submit'], transitions: { A: { set_plan: 'B' }, B: { submit: 'A' } }, start_state: 'A', accept_states: ['B'] }).machine!;
    expect(lineAlphabetDialect(noClose, fdc.dialect).why).toBe('no line of its alphabet is the close command of the fdc dialect');
  });
});
