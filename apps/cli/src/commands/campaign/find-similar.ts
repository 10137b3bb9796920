import { findSimilar } from '@ratchet/campaign-dag';
import type { Context } from '../../context.js';
import { CliError } from '../../errors.js';
import { EXIT_OK } from '../../exit-codes.js';
import { campaignOptionsWithBackend, guard } from './shared.js';

/** `ratchet campaign find-similar [--objective TEXT] [--threshold N]` */
export default async function findSimilarCommand(ctx: Context, _args: string[], options: Record<string, unknown>): Promise<number> {
  let threshold: number | undefined;
  if (typeof options.threshold === 'string') {
    threshold = Number(options.threshold);
    if (!Number.isFinite(threshold) || threshold < 0 || threshold > 1) throw new CliError(`--threshold must be a number from 0 to 1, got ${options.threshold}`);
  }
  const objective = typeof options.objective === 'string' ? options.objective : undefined;
  const framework = typeof options.framework === 'string' ? options.framework : undefined;
  if (framework !== undefined && objective === undefined) throw new CliError('--framework goes with --objective (without it the active campaign\'s framework is used)');
  const { similar, skipped } = await guard(ctx, async () =>
    findSimilar(ctx.cwd, { ...(await campaignOptionsWithBackend(ctx, options)), ...(objective === undefined ? {} : { objective }), ...(framework === undefined ? {} : { framework }), ...(threshold === undefined ? {} : { threshold }) }),
  );
  for (const s of skipped) ctx.note(`skipped ${s.path}: ${s.reason}`);
  if (ctx.json) ctx.emitJson({ ok: true, similar });
  else if (similar.length === 0) ctx.out('no similar past campaign');
  else for (const s of similar) ctx.out(`${s.score.toFixed(2)}  ${s.id}  ${s.objective}  (objective ${s.parts.objective.toFixed(2)}, files ${s.parts.delta.toFixed(2)}, size ${s.parts.taskCount.toFixed(2)})`);
  return EXIT_OK;
}
