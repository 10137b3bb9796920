/**
 * Declared values of flow variables (`inputs.<name>.values`): a value outside them is refused when it
 * is given, before anything is saved. A route that names no flow would otherwise be saved, and the
 * directive printed at the end (`ratchet flow start <route> ...`) would be a command that fails.
 * Which flows exist is the caller's knowledge (the CLI's project and built-in directories): it is
 * passed in, never looked up here.
 */
import { FlowError } from './errors.js';
import { pathInputs } from './conditions.js';
import type { Flow, SessionState } from './types.js';
import { FLOW_ID } from './validate-flow.js';

/**
 * Refuse (`bad-input`) a `--set` that would change what the session started with: a variable that
 * decides the path, or the task (which names every memory file the gates read). Setting the value it
 * already has is no change.
 */
export function checkFixedVars(flow: Flow, state: SessionState, vars: Readonly<Record<string, string>>): void {
  const path = pathInputs(flow.steps);
  for (const [name, value] of Object.entries(vars)) {
    const now = Object.hasOwn(state.vars, name) ? state.vars[name] : undefined;
    if (now === value) continue;
    const was = now === undefined ? 'it is not set' : `it is ${JSON.stringify(now)}`;
    const restart = `start a new session with --input ${name}=${value}`;
    if (name === 'task') throw new FlowError('bad-input', `task names the memory files the gates read: it is fixed once the flow starts (${was}); ${restart}`);
    if (path.has(name)) throw new FlowError('bad-input', `${name} decides which steps run (a skip condition reads it): it is fixed once the flow starts (${was}); ${restart}`);
  }
}

/** Whether checking `vars` needs the flow catalogue (some variable given is declared `values: "flows"`). */
export function needsCatalogue(flow: Flow, vars: Readonly<Record<string, string>>): boolean {
  return Object.keys(vars).some((name) => Object.hasOwn(flow.inputs, name) && flow.inputs[name]!.values === 'flows');
}

/**
 * Refuse (FlowError `bad-input`, naming the allowed values) a variable whose declaration lists the
 * values it may take and that is given another one. `flows`: the flow names the caller knows; when it
 * is undefined, variables declared `values: "flows"` are not checked (the caller has no catalogue).
 */
export function checkValues(flow: Flow, vars: Readonly<Record<string, string>>, what: '--input' | '--set', flows?: readonly string[]): void {
  for (const [name, value] of Object.entries(vars)) {
    const allowed = Object.hasOwn(flow.inputs, name) ? flow.inputs[name]!.values : undefined;
    if (allowed === undefined) continue;
    const list = allowed === 'flows' ? flows : allowed;
    if (list === undefined || list.includes(value)) continue;
    const kind = allowed === 'flows' ? 'the name of a flow' : 'one of';
    const known = list.length === 0 ? '(none are known)' : [...list].sort().join(', ');
    throw new FlowError('bad-input', `${what} ${name}=${JSON.stringify(value)}: ${name} must be ${kind}: ${known}`);
  }
}

/**
 * Refuse (`bad-input`) flow names given to `--then` that are not flow names, or that the caller's
 * catalogue does not know (unchecked against a catalogue without one, like `values: "flows"`).
 */
export function checkFlowNames(names: readonly string[], flows?: readonly string[]): void {
  for (const name of names) {
    if (!FLOW_ID.test(name)) throw new FlowError('bad-input', `--then ${JSON.stringify(name)}: a flow name uses lowercase letters, digits and "-"`);
    if (flows !== undefined && !flows.includes(name)) {
      throw new FlowError('bad-input', `--then ${name}: no flow of that name (flows: ${flows.length === 0 ? '(none are known)' : [...flows].sort().join(', ')})`);
    }
  }
}
