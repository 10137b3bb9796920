import { MAX_WORKSPACE_BYTES, blockWorkspace, completeWorkspace, type Utilized } from '@ratchet/campaign-dag';
import { readTextFile } from '@ratchet/store';
import type { Context } from '../../context.js';
import { CliError } from '../../errors.js';
import { EXIT_OK } from '../../exit-codes.js';
import { displayPath, resolvePath } from '../../paths.js';
import { readStdinLimited } from '../../stdin.js';
import { campaignOptionsWithBackend, guard, seqArg } from '../campaign/shared.js';

/** `ratchet workspace complete|block SEQ ...` */
export default async function finish(ctx: Context, args: string[], options: Record<string, unknown>): Promise<number> {
  const [action, seqText] = args;
  const seq = seqArg(seqText);
  const utilized = parseUtilized(options.utilized);
  const opts = { ...(await campaignOptionsWithBackend(ctx, options)), utilized, ...(typeof options.runner === 'string' ? { runner: options.runner } : {}) };
  let result;
  if (action === 'block') {
    const reason = typeof options.reason === 'string' ? options.reason : '';
    result = await guard(ctx, () => blockWorkspace(ctx.cwd, seq, reason, opts));
  } else {
    const delivered = await readDelivery(ctx, options);
    result = await guard(ctx, () => completeWorkspace(ctx.cwd, seq, delivered, opts));
  }
  const shown = displayPath(ctx, result.path);
  if (ctx.json) ctx.emitJson({ ok: true, path: shown, workspace: result.record });
  else ctx.out(`${result.record.status} ${shown}`);
  return EXIT_OK;
}

async function readDelivery(ctx: Context, options: Record<string, unknown>): Promise<string> {
  if (typeof options.delivered === 'string' && typeof options.fromFile === 'string') throw new CliError('give --delivered or --from-file, not both');
  if (typeof options.delivered === 'string') return options.delivered;
  // A delivery larger than a workspace may be is refused while reading, not after.
  if (options.fromFile === '-') return readStdinLimited(ctx, MAX_WORKSPACE_BYTES, 'the delivery');
  if (typeof options.fromFile === 'string') return (await readTextFile(resolvePath(ctx, options.fromFile), { maxBytes: MAX_WORKSPACE_BYTES })).text;
  throw new CliError('say what was delivered: --delivered TEXT or --from-file FILE');
}

function parseUtilized(values: unknown): Utilized[] {
  if (!Array.isArray(values)) return [];
  return values.map((v: unknown) => {
    const m = /^(.+):(failure|pattern)$/.exec(String(v));
    if (!m) throw new CliError(`--utilized ${String(v)}: expected NAME:failure or NAME:pattern`);
    return { name: m[1]!, type: m[2] as Utilized['type'] };
  });
}
