import type { Context } from '../../context.js';
import { compileProtocolTargets, compileProtocolsResult, type CompileProtocolsInput, type ProtocolsCompiled } from '../../operations/protocol.js';
import { withInput } from '../../option-values.js';
import { compileInput } from './inputs.js';
import { displayPath, reportProblems } from './shared.js';

/** `ratchet protocol compile [--check] [--out FILE]...` */
async function compile(ctx: Context, input: CompileProtocolsInput): Promise<number> {
  let compiled: ProtocolsCompiled;
  try {
    compiled = await compileProtocolTargets(ctx, input);
  } catch (err) {
    return reportProblems(ctx, err);
  }
  const { result } = compiled;
  for (const s of result.skipped) ctx.note(`${displayPath(ctx, s.file)}: skipped, ${s.reason}`);
  if (result.protocols.length === 0) ctx.note(`${input.protocols ?? 'protocols'}/ has no *.protocol.json sources: the managed block lists no protocols`);
  const outcome = compileProtocolsResult(ctx, compiled);
  if (ctx.json) ctx.emitJson(outcome.document);
  else {
    for (const t of result.targets) {
      const path = displayPath(ctx, t.path);
      if (t.status === 'stale' || t.status === 'missing') {
        ctx.out(`${path}: ${t.status === 'missing' ? 'missing' : 'stale'}; run \`ratchet protocol compile\` to update it`);
        ctx.out(t.diff.trimEnd());
      } else ctx.out(`${path}: ${t.status} (${result.protocols.length} protocols${result.version !== undefined ? `, version ${result.version}` : ''}, ${t.detail})`);
    }
  }
  return outcome.exitCode;
}
export default withInput(compileInput, compile);
