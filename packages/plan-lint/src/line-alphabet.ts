/**
 * Reading a plan FSM whose alphabet is the plan lines themselves. For a short while the original
 * toolchain's `fdc_fsm.json` listed whole lines as its symbols (`set_plan`, `plan_step_complete`,
 * `run:fdc_cli.py close`, `submit`) and its validator compared each stripped line of a plan with
 * them. Such a machine shares no symbol with a dialect, so checking it against one finds every
 * command "not in the alphabet". `lineAlphabetDialect` reads it instead: each line of the alphabet is
 * its own symbol, and what it means (which line is the close, which may follow it) comes from the
 * dialect, `run:<command>` being that era's spelling of `run_in_bash_session <command>`.
 */
import type { Machine } from '@ratchet/fsm-core';
import { actionFor, type CompiledCommand, type Dialect } from './dialect.js';

export interface LineAlphabetRead {
  /** A dialect whose commands emit the lines of the alphabet, when the machine is of that kind. */
  dialect?: Dialect;
  /** Why the machine cannot be read that way (for the error that names it). */
  why?: string;
}

/** How the era wrote a shell command in its alphabet. */
const RUN_PREFIX = 'run:';
const RUN_COMMAND = 'run_in_bash_session';
/** A plan command name (the parser's rule). */
const NAME = /^[A-Za-z_][A-Za-z0-9_.:-]*$/;

export function lineAlphabetDialect(machine: Machine, dialect: Dialect): LineAlphabetRead {
  const own = new Set<string>([dialect.close, ...dialect.afterClose]);
  for (const c of dialect.commands.values()) {
    own.add(c.base.symbol);
    for (const w of c.when) own.add(w.action.symbol);
  }
  const shared = machine.alphabet.filter((a) => own.has(a));
  if (shared.length > 0) return { why: `its alphabet already speaks the dialect (${shared.join(', ')}): it is read with the ${dialect.id} dialect as it is` };

  const commands = new Map<string, CompiledCommand>();
  const closes: string[] = [];
  const afterClose: string[] = [];
  for (const symbol of machine.alphabet) {
    const line = symbol.trim();
    const space = line.search(/\s/);
    const name = space < 0 ? line : line.slice(0, space);
    const args = space < 0 ? '' : line.slice(space).trim();
    const [meant, meantArgs] = name.startsWith(RUN_PREFIX) ? [RUN_COMMAND, `${name.slice(RUN_PREFIX.length)}${args === '' ? '' : ` ${args}`}`] : [name, args];
    const known = dialect.commands.get(meant);
    if (known === undefined || !NAME.test(name) || line !== symbol) {
      return { why: `${JSON.stringify(symbol)} is not a line of the ${dialect.id} dialect (no command ${JSON.stringify(meant)})` };
    }
    const means = actionFor(known, meantArgs).symbol;
    if (means === dialect.close) closes.push(symbol);
    else if (dialect.afterClose.includes(means)) afterClose.push(symbol);
    let command = commands.get(name);
    if (command === undefined) {
      // The same command with other arguments is a line outside the alphabet: the FSM refuses it where it stands.
      command = { name, base: { symbol: `${name} with other arguments` }, when: [] };
      commands.set(name, command);
    }
    const source = `^${args.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}$`;
    command.when.push({ re: new RegExp(source), source, action: { symbol }, usage: args });
  }
  if (closes.length === 0) return { why: `no line of its alphabet is the close command of the ${dialect.id} dialect` };
  if (closes.length > 1) return { why: `more than one line of its alphabet is a close (${closes.join(', ')})` };
  return {
    dialect: {
      id: `${dialect.id}-lines`,
      description: `The plan lines of ${machine.id ?? 'the FSM'}'s alphabet, read through the ${dialect.id} dialect`,
      fsm: dialect.fsm,
      close: closes[0]!,
      afterClose,
      commands,
    },
  };
}
