import { findSimilar } from '@ratchet/campaign-dag';
import type { Context } from '../../context.js';
import { EXIT_OK } from '../../exit-codes.js';
import { withInput } from '../../option-values.js';
import { findSimilarInput, type FindSimilarArgs } from './inputs.js';
import { campaignOptionsWithBackend, guard } from './shared.js';

/** `ratchet campaign find-similar [--objective TEXT] [--threshold N]` */
async function findSimilarCommand(ctx: Context, input: FindSimilarArgs): Promise<number> {
  const { objective, framework, threshold } = input;
  const { similar, skipped } = await guard(ctx, async () =>
    findSimilar(ctx.cwd, { ...(await campaignOptionsWithBackend(ctx)), ...(objective === undefined ? {} : { objective }), ...(framework === undefined ? {} : { framework }), ...(threshold === undefined ? {} : { threshold }) }),
  );
  for (const s of skipped) ctx.note(`skipped ${s.path}: ${s.reason}`);
  if (ctx.json) ctx.emitJson({ ok: true, similar });
  else if (similar.length === 0) ctx.out('no similar past campaign');
  else for (const s of similar) ctx.out(`${s.score.toFixed(2)}  ${s.id}  ${s.objective}  (objective ${s.parts.objective.toFixed(2)}, files ${s.parts.delta.toFixed(2)}, size ${s.parts.taskCount.toFixed(2)})`);
  return EXIT_OK;
}
export default withInput(findSimilarInput, findSimilarCommand);
