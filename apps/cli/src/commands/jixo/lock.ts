import type { Context } from '../../context.js';
import { decideJixoLog, decideJixoLogResult, lockJixoLog, lockJixoLogResult, unlockJixoLog, unlockJixoLogResult } from '../../operations/jixo.js';
import { withInput } from '../../option-values.js';
import { lockInput, type LockCommandInput } from './inputs.js';

/**
 * `ratchet jixo lock|unlock <log> --runner ID`: a detached lock that holds between two CLI
 * invocations; unlock judges what the holder wrote by hand meanwhile. `accept|restore <log>`: a
 * person's decision about a log changed outside Ratchet.
 */
async function lock(ctx: Context, command: LockCommandInput): Promise<number> {
  if (command.verb === 'decide') {
    const decided = await decideJixoLog(ctx, command.input);
    const result = decideJixoLogResult(decided);
    if (ctx.json) ctx.emitJson(result.document);
    else if (decided.decision === 'accept') ctx.out(`${decided.file}: its current text is now the last good version; the audit starts from it`);
    else ctx.out(`${decided.file}: the last good version is back${decided.rejected === undefined ? '' : `; the text it replaced is kept as ${decided.rejected}`}`);
    return result.exitCode;
  }
  if (command.verb === 'unlock') {
    const unlocked = await unlockJixoLog(ctx, command.input);
    const result = unlockJixoLogResult(unlocked);
    if (ctx.json) ctx.emitJson(result.document);
    else ctx.note(`unlocked ${unlocked.file} (was held by ${unlocked.runner}${'time' in unlocked.released ? ` since ${String(unlocked.released.time)}` : ''})`);
    return result.exitCode;
  }
  const locked = await lockJixoLog(ctx, command.input);
  const result = lockJixoLogResult(locked);
  if (ctx.json) ctx.emitJson(result.document);
  else {
    ctx.note(`locked ${locked.file} for ${locked.runner}${locked.store === undefined ? '' : ` in ${locked.store}`}; unlock with: ratchet jixo unlock ${locked.file} --runner ${locked.runner}`);
    ctx.io.stdout(locked.content);
  }
  return result.exitCode;
}
export default withInput(lockInput, lock);
