/**
 * The edge of the protocol area: commander's arguments and options (register.ts defines them)
 * parsed into the typed inputs of src/operations/protocol.ts, and `protocol show`'s.
 */
import { CliError } from '../../errors.js';
import { PROTOCOL_DETAILS, type CompileProtocolsInput, type UpdateProtocolInput } from '../../operations/protocol-input.js';
import { argument, choiceOption, flagOption, stringOption, stringsOption, type OptionBag } from '../../option-values.js';

export function compileInput(_args: readonly string[], options: OptionBag): CompileProtocolsInput {
  return {
    protocols: stringOption(options, 'protocols'),
    out: stringsOption(options, 'out'),
    check: flagOption(options, 'check'),
    timestamp: flagOption(options, 'timestamp'),
    detail: choiceOption(options, 'detail', PROTOCOL_DETAILS),
  };
}

/** register.ts passes the edit (add-tool, update-rule, deprecate-tool) as the first argument. */
export function updateInput(args: readonly string[], options: OptionBag): UpdateProtocolInput {
  const [action] = args;
  const common = { protocolId: argument(args, 1, 'protocol_id'), protocols: stringOption(options, 'protocols'), dryRun: flagOption(options, 'dryRun') };
  if (action === 'add-tool' || action === 'deprecate-tool') return { ...common, action, tool: argument(args, 2, 'tool') };
  if (action === 'update-rule') return { ...common, action, ruleId: argument(args, 2, 'rule_id'), description: argument(args, 3, 'description') };
  throw new CliError(`protocol update: unknown command "${String(action)}"`);
}

/** `protocol show <id>` or `--all`: one of the two. */
export interface ShowProtocolInput {
  id: string | undefined;
  all: boolean;
  protocols: string | undefined;
}

export function showInput(args: readonly string[], options: OptionBag): ShowProtocolInput {
  const input = { id: args[0], all: flagOption(options, 'all'), protocols: stringOption(options, 'protocols') };
  if (input.id !== undefined && input.all) throw new CliError('protocol show: give a protocol id or --all, not both');
  if (input.id === undefined && !input.all) throw new CliError('protocol show: name a protocol (`ratchet protocol show <id>`) or pass --all; the ids are the headings of AGENTS.md');
  return input;
}
