/**
 * The edge of the protocol area's writes: commander's arguments and options (register.ts defines
 * them) parsed into the typed inputs of src/operations/protocol.ts.
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
