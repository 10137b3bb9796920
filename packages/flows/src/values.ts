/**
 * Declared values of flow variables (`inputs.<name>.values`): a value outside them is refused when it
 * is given, before anything is saved. A route that names no flow would otherwise be saved, and the
 * directive printed at the end (`ratchet flow start <route> ...`) would be a command that fails.
 * Which flows exist is the caller's knowledge (the CLI's project and built-in directories): it is
 * passed in, never looked up here.
 */
import { FlowError } from './errors.js';
import type { Flow } from './types.js';

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
