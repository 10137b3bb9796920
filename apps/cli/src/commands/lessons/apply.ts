import { resolve } from 'node:path';
import { applyLessons } from '@ratchet/self-correction';
import type { CompileResult } from '@ratchet/protocol-compiler';
import type { CommandAction } from '../../program.js';
import { EXIT_OK, EXIT_PROBLEMS } from '../../exit-codes.js';
import { compileTargets, displayPath } from '../protocol/shared.js';

/** `ratchet lessons apply [--dry-run]` */
const apply: CommandAction = async (ctx, _args, options) => {
  const lessonsPath = resolve(ctx.cwd, (options.lessons as string | undefined) ?? 'knowledge_core/lessons.jsonl');
  const protocols = (options.protocols as string | undefined) ?? 'protocols';
  const ids = options.id as string[] | undefined;
  const result = await applyLessons({
    root: ctx.cwd,
    lessonsPath,
    protocolsDir: resolve(ctx.cwd, protocols),
    now: () => new Date().toISOString(),
    dryRun: options.dryRun === true,
    applyCode: options.applyCode === true,
    retryFailed: options.retryFailed === true,
    labelFor: (file) => displayPath(ctx, file),
    ...(ids !== undefined && ids.length > 0 ? { ids } : {}),
    recompile: () => compileTargets(ctx, { protocols, out: options.out as string[] | undefined }),
  });
  const failed = result.outcomes.filter((o) => o.status === 'failed').length;
  // An --id that matched no pending lesson is worth saying: it is usually a typo or already applied.
  for (const id of ids ?? []) if (!result.outcomes.some((o) => o.lesson_id === id)) ctx.note(`${id}: no pending lesson with this id (see \`ratchet lessons list\`)`);
  const compiled = result.recompileResult as CompileResult | undefined;
  const recompileError = result.recompileError as { reason?: string; message?: string; path?: string } | undefined;
  if (ctx.json) {
    ctx.emitJson({
      ok: failed === 0 && recompileError === undefined,
      dryRun: result.dryRun,
      outcomes: result.outcomes,
      manual: result.manual.map((l) => ({ lesson_id: l.lesson_id, insight: l.insight, parameters: l.action.parameters })),
      problems: result.problems,
      recompiled: compiled?.targets.map((t) => ({ path: displayPath(ctx, t.path), status: t.status })) ?? [],
      ...(recompileError !== undefined ? { recompileError: recompileError.reason ?? recompileError.message } : {}),
    });
  } else {
    if (result.outcomes.length === 0) ctx.out('no pending lessons');
    for (const o of result.outcomes) {
      ctx.out(`${o.lesson_id}  ${result.dryRun && o.status === 'applied' ? 'would apply' : o.status}  ${o.command}: ${o.reason}`);
      if (result.dryRun && o.diff !== '') ctx.out(o.diff.trimEnd());
    }
    for (const l of result.manual) {
      const a = l.action.parameters as { text?: string; note?: string };
      ctx.out(`${l.lesson_id}  manual  needs a person: ${l.insight}${a.text ? ` -> ${a.text}` : ''}${a.note ? ` (${a.note})` : ''}  [ratchet lessons resolve ${l.lesson_id}]`);
    }
    for (const t of compiled?.targets ?? []) ctx.out(`recompiled ${displayPath(ctx, t.path)}: ${t.status}`);
    for (const p of result.problems) ctx.note(`${displayPath(ctx, lessonsPath)}:${p.line}: ${p.message} (line kept as is)`);
    if (recompileError !== undefined) ctx.note(`recompile failed: ${recompileError.path ?? ''}: ${recompileError.reason ?? recompileError.message}`);
  }
  return failed > 0 || recompileError !== undefined ? EXIT_PROBLEMS : EXIT_OK;
};
export default apply;
