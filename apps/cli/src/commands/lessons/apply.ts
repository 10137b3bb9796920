import { resolve } from 'node:path';
import { applyLessons } from '@ratchet/self-correction';
import type { CompileResult } from '@ratchet/protocol-compiler';
import type { CommandAction } from '../../program.js';
import { EXIT_OK, EXIT_PROBLEMS, EXIT_USAGE } from '../../exit-codes.js';
import { displayPath } from '../../paths.js';
import { compileTargets, ratchetToolCheck, reportProblems } from '../protocol/shared.js';

/** `ratchet lessons apply [--dry-run]` */
const apply: CommandAction = async (ctx, _args, options) => {
  const lessonsPath = resolve(ctx.cwd, (options.lessons as string | undefined) ?? 'knowledge_core/lessons.jsonl');
  const protocols = (options.protocols as string | undefined) ?? 'protocols';
  const out = options.out as string[] | undefined;
  const ids = options.id as string[] | undefined;
  let result: Awaited<ReturnType<typeof applyLessons>>;
  try {
    result = await applyLessons({
      root: ctx.cwd,
      lessonsPath,
      protocolsDir: resolve(ctx.cwd, protocols),
      now: () => new Date().toISOString(),
      dryRun: options.dryRun === true,
      applyCode: options.applyCode === true,
      retryFailed: options.retryFailed === true,
      labelFor: (file) => displayPath(ctx, file),
      checkTool: await ratchetToolCheck(),
      schemaRoot: ctx.cwd,
      ...(ids !== undefined && ids.length > 0 ? { ids } : {}),
      // A dry run previews the recompile: `check` against the edited sources, nothing written.
      recompile: ({ dryRun, overrides }) => compileTargets(ctx, { protocols, out, check: dryRun, overrides }),
    });
  } catch (err) {
    return reportProblems(ctx, err);
  }
  const failed = result.outcomes.filter((o) => o.status === 'failed').length;
  // An --id that matched no pending lesson is worth saying: it is usually a typo or already applied.
  for (const id of ids ?? []) if (!result.outcomes.some((o) => o.lesson_id === id)) ctx.note(`${id}: no pending lesson with this id (see \`ratchet lessons list\`)`);
  const compiled = result.recompileResult as CompileResult | undefined;
  const recompileError = result.recompileError as { reason?: string; message?: string; path?: string } | undefined;
  if (ctx.json) {
    ctx.emitJson({
      ok: failed === 0 && recompileError === undefined && result.problems.length === 0,
      dryRun: result.dryRun,
      outcomes: result.outcomes,
      manual: result.manual.map((l) => ({ lesson_id: l.lesson_id, insight: l.insight, parameters: l.action.parameters })),
      problems: result.problems.map((p) => ({ file: displayPath(ctx, lessonsPath), ...p })),
      recompiled: compiled?.targets.map((t) => ({ path: displayPath(ctx, t.path), status: t.status, ...(result.dryRun ? { diff: t.diff } : {}) })) ?? [],
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
      ctx.out(`${l.lesson_id}  manual  needs a person: ${l.insight || '(no lesson text)'}${a.text ? ` -> ${a.text}` : ''}${a.note ? ` (${a.note})` : ''}  [ratchet lessons resolve ${l.lesson_id}]`);
    }
    for (const t of compiled?.targets ?? []) {
      const path = displayPath(ctx, t.path);
      if (!result.dryRun) ctx.out(`recompiled ${path}: ${t.status}`);
      else if (t.status === 'unchanged') ctx.out(`would recompile ${path}: unchanged`);
      else ctx.out(`would recompile ${path}:\n${t.diff.trimEnd()}`);
    }
    for (const p of result.problems) ctx.io.stderr(`${displayPath(ctx, lessonsPath)}:${p.line}: ${p.message} (line kept as is; fix or remove it)\n`);
    if (recompileError !== undefined) {
      const problems = (recompileError as { problems?: { file: string; line?: number; column?: number; message: string; pointer?: string }[] }).problems;
      if (problems !== undefined) for (const p of problems) ctx.io.stderr(`recompile failed: ${displayPath(ctx, p.file)}${p.line !== undefined ? `:${p.line}:${p.column ?? 1}` : ''}: ${p.pointer ? `${p.pointer}: ` : ''}${p.message}\n`);
      else ctx.io.stderr(`recompile failed: ${recompileError.path !== undefined ? `${displayPath(ctx, recompileError.path)}: ` : ''}${recompileError.reason ?? recompileError.message}\n`);
    }
  }
  // A corrupt lessons.jsonl line is an input error (2), even though the good lessons were applied.
  if (result.problems.length > 0) return EXIT_USAGE;
  return failed > 0 || recompileError !== undefined ? EXIT_PROBLEMS : EXIT_OK;
};
export default apply;
