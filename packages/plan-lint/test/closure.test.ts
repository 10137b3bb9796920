/**
 * The close command, as every reader of a plan writes it: Ratchet's own `ratchet task close` (what
 * AGENTS.md and every `run next` tell an agent to run), the seed's `fdc_cli.py close`, and the bare
 * `close`; in the default (fdc) dialect and in the research dialect alike, and against a project's
 * own research FSM (the original's tooling/research_fsm.json).
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { loadDefinition, type Machine } from '@ratchet/fsm-core';
import { lintPlan, type Dialect } from '../src/index.js';
import { brief, fdc, loadProtocol, memoryHost } from './support.js';

const JULES = fileURLToPath(new URL('./fixtures/jules/', import.meta.url));
const research = loadProtocol('research');
const originalResearch = ((): Machine => {
  const { machine } = loadDefinition(JSON.parse(readFileSync(`${JULES}tooling/research_fsm.json`, 'utf8')));
  if (!machine) throw new Error('fixture FSM invalid');
  return machine;
})();

function lint(text: string, language: { machine: Machine; dialect: Dialect } = fdc, files: string[] = []): string[] {
  return brief(lintPlan({ entry: 'p.txt', root: JULES, host: memoryHost({ 'p.txt': text }), files, ...language }).findings, 'p.txt');
}

const OPEN = 'set_plan x\nplan_step_complete y\n';

describe('the close command Ratchet itself tells agents to run closes a plan', () => {
  it.each([
    'ratchet task close --task-id t1',
    'ratchet task close --task-id "t1"',
    'npx ratchet task close --task-id t1',
    'npx -y ratchet task close --task-id t1',
    'close',
    'python3 tooling/fdc_cli.py close --task-id t1',
    'python fdc_cli.py close',
  ])('run_in_bash_session %s', (close) => {
    expect(lint(`${OPEN}run_in_bash_session ${close}\n`)).toEqual([]);
    expect(lint(`${OPEN}run_in_bash_session ${close}\nsubmit\n`)).toEqual([]);
  });

  it.each(['ratchet task closed', 'ratchet task close-all', 'echo ratchet task close', 'ratchet task start --task-id close', 'git commit -m "ratchet task close"'])(
    'but not a command that only mentions it: run_in_bash_session %s',
    (line) => {
      expect(lint(`${OPEN}run_in_bash_session ${line}\n`)).toEqual(['closure-mandate@3:1']);
    },
  );

  it('the closure-mandate message names the close as a user writes it', () => {
    const { findings } = lintPlan({ entry: 'p.txt', root: JULES, host: memoryHost({ 'p.txt': `${OPEN}read_file x\n` }), files: ['x'], ...fdc });
    expect(findings[0]!.message).toContain('run_in_bash_session ratchet task close --task-id <id>');
  });
});

describe('research plans and a project-supplied research FSM', () => {
  const RATCHET_CLOSE = 'set_plan r\nlist_files .\nplan_step_complete s\ncreate_file_with_block r.md\nrun_in_bash_session ratchet task close --task-id research-r\n';

  it('the research dialect knows the same closes', () => {
    expect(lint(RATCHET_CLOSE, research)).toEqual([]);
    expect(lint(RATCHET_CLOSE.replace(/ratchet task close .*/, 'python3 tooling/fdc_cli.py close --task-id "research-r"'), research)).toEqual([]);
  });

  it("the original research planner's plan lints clean in the bundled research dialect against the original research_fsm.json", () => {
    const plan = readFileSync(`${JULES}research.plan.txt`, 'utf8');
    expect(lint(plan, { machine: originalResearch, dialect: research.dialect })).toEqual([]);
    expect(lint(plan, { machine: originalResearch, dialect: fdc.dialect })).toEqual([]);
  });
});
