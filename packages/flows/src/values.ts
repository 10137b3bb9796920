/**
 * Declared values of flow variables (`inputs.<name>.values`): a value outside them is refused when it
 * is given, before anything is saved. A route that names no flow would otherwise be saved, and the
 * directive printed at the end (`ratchet flow start <route> ...`) would be a command that fails.
 * Which flows exist is the caller's knowledge (the CLI's project and built-in directories): it is
 * passed in, never looked up here.
 */
import { FlowError } from './errors.js';
import type { Flow } from './types.js';
import { FLOW_ID } from './validate-flow.js';

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
