import type { CompileResult, Detail } from '@ratchet/protocol-compiler';
import type { CommandAction } from '../../program.js';
import { EXIT_OK, EXIT_PROBLEMS } from '../../exit-codes.js';
import { compileTargets, displayPath, reportProblems } from './shared.js';

/** `ratchet protocol compile [--check] [--out FILE]...` */
const compile: CommandAction = async (ctx, _args, options) => {
  const check = options.check === true;
  let result: CompileResult;
  try {
    result = await compileTargets(ctx, {
      protocols: options.protocols as string | undefined,
      out: options.out as string[] | undefined,
      check,
      timestamp: options.timestamp === true,
      detail: options.detail as Detail | undefined,
    });
  } catch (err) {
    return reportProblems(ctx, err);
  }
  for (const s of result.skipped) ctx.note(`${displayPath(ctx, s.file)}: skipped, ${s.reason}`);
  if (result.protocols.length === 0) ctx.note(`${(options.protocols as string | undefined) ?? 'protocols'}/ has no *.protocol.json sources: the managed block lists no protocols`);
  if (ctx.json) {
    ctx.emitJson({
      ok: !result.stale,
      version: result.version ?? null,
      protocols: result.protocols,
      skipped: result.skipped.map((s) => ({ file: displayPath(ctx, s.file), reason: s.reason })),
      targets: result.targets.map((t) => ({ path: displayPath(ctx, t.path), status: t.status, detail: t.detail, ...(check && t.status !== 'unchanged' ? { diff: t.diff } : {}) })),
    });
  } else {
    for (const t of result.targets) {
      const path = displayPath(ctx, t.path);
      if (t.status === 'stale' || t.status === 'missing') {
        ctx.out(`${path}: ${t.status === 'missing' ? 'missing' : 'stale'}; run \`ratchet protocol compile\` to update it`);
        ctx.out(t.diff.trimEnd());
      } else ctx.out(`${path}: ${t.status} (${result.protocols.length} protocols${result.version !== undefined ? `, version ${result.version}` : ''}, ${t.detail})`);
    }
  }
  return result.stale ? EXIT_PROBLEMS : EXIT_OK;
};
export default compile;
