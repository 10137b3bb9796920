import { resolve } from 'node:path';
import { updateProtocol, type ProtocolEdit, type UpdateResult } from '@ratchet/protocol-compiler';
import type { CommandAction } from '../../program.js';
import { CliError } from '../../errors.js';
import { EXIT_OK } from '../../exit-codes.js';
import { displayPath, ratchetToolCheck, reportProblems } from './shared.js';

/** `ratchet protocol update add-tool|update-rule|deprecate-tool ...` */
const update: CommandAction = async (ctx, args, options) => {
  const [command, protocolId, a, b] = args;
  let edit: ProtocolEdit;
  if (command === 'add-tool' || command === 'deprecate-tool') edit = { command, protocolId: protocolId!, tool: a! };
  else if (command === 'update-rule') edit = { command, protocolId: protocolId!, ruleId: a!, description: b! };
  else throw new CliError(`protocol update: unknown command "${String(command)}"`);
  const dryRun = options.dryRun === true;
  let result: UpdateResult;
  try {
    result = await updateProtocol(resolve(ctx.cwd, (options.protocols as string | undefined) ?? 'protocols'), edit, {
      dryRun,
      labelFor: (f) => displayPath(ctx, f),
      checkTool: await ratchetToolCheck(),
      schemaRoot: ctx.cwd,
    });
  } catch (err) {
    return reportProblems(ctx, err);
  }
  const file = displayPath(ctx, result.file);
  if (ctx.json) ctx.emitJson({ ok: true, file, changed: result.changed, dryRun, message: result.message, diff: result.diff });
  else {
    ctx.out(`${file}: ${result.message}${!result.changed ? ' (nothing to change)' : dryRun ? ' (dry run: not written)' : ''}`);
    if (dryRun && result.diff !== '') ctx.out(result.diff.trimEnd());
    if (result.changed && !dryRun) ctx.note('run `ratchet protocol compile` to update AGENTS.md');
  }
  return EXIT_OK;
};
export default update;
