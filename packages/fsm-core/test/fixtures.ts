// Shared test machines. FDC is Jules' plan-language machine from fdc_fsm.json (map style); the
// same machine is also written in the orchestrator's list style to prove both shapes are one model.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { loadDefinition, type Machine } from '../src/index.js';

export const repoRoot = fileURLToPath(new URL('../../../', import.meta.url));

export const LOOP_SYMBOLS = ['step_op', 'read_op', 'write_op', 'delete_op', 'move_op', 'tool_exec'] as const;

export function fdcMap(): Record<string, unknown> {
  return {
    id: 'fdc',
    states: ['IDLE', 'PLANNING', 'EXECUTING', 'POST_MORTEM', 'DONE'],
    alphabet: ['plan_op', 'step_op', 'submit_op', 'read_op', 'write_op', 'delete_op', 'move_op', 'tool_exec', 'close_op'],
    transitions: {
      IDLE: { plan_op: 'PLANNING' },
      PLANNING: { step_op: 'EXECUTING' },
      EXECUTING: Object.fromEntries<string>([...LOOP_SYMBOLS.map((s): [string, string] => [s, 'EXECUTING']), ['close_op', 'POST_MORTEM']]),
      POST_MORTEM: { submit_op: 'DONE' },
    },
    start_state: 'IDLE',
    accept_states: ['DONE'],
  };
}

export function fdcList(): Record<string, unknown> {
  return {
    id: 'fdc',
    states: ['IDLE', 'PLANNING', 'EXECUTING', 'POST_MORTEM', 'DONE'],
    alphabet: ['plan_op', 'step_op', 'submit_op', 'read_op', 'write_op', 'delete_op', 'move_op', 'tool_exec', 'close_op'],
    initial_state: 'IDLE',
    final_states: ['DONE'],
    // Deliberately not in the map's order: normalisation orders transitions canonically.
    transitions: [
      { source: 'POST_MORTEM', dest: 'DONE', trigger: 'submit_op' },
      { source: 'EXECUTING', dest: 'POST_MORTEM', trigger: 'close_op' },
      ...LOOP_SYMBOLS.map((s) => ({ source: 'EXECUTING', dest: 'EXECUTING', trigger: s })),
      { source: 'PLANNING', dest: 'EXECUTING', trigger: 'step_op' },
      { source: 'IDLE', dest: 'PLANNING', trigger: 'plan_op' },
    ],
  };
}

export function load(doc: unknown): Machine {
  const { machine, diagnostics } = loadDefinition(doc);
  if (!machine) throw new Error(`fixture does not load: ${JSON.stringify(diagnostics, null, 2)}`);
  return machine;
}

export function readRepoJson(path: string): unknown {
  return JSON.parse(readFileSync(new URL(path, `file://${repoRoot}`), 'utf8'));
}
