import type { Context } from '../../context.js';
import { createTaskWorkspace, showWorkspaceResult, type CreateWorkspaceInput } from '../../operations/workspace.js';
import { withInput } from '../../option-values.js';
import { displayPath } from '../../paths.js';
import { createInput } from './inputs.js';

/**
 * `ratchet workspace create SEQ [--prior-knowledge FILE | --memory FILE | --no-memory]`: prior
 * knowledge comes from a file when given, else from a memory query on the task (the memory file,
 * default .ratchet/memory.json, when it exists).
 */
async function create(ctx: Context, input: CreateWorkspaceInput): Promise<number> {
  const created = await createTaskWorkspace(ctx, input);
  const { path, record } = created;
  const result = showWorkspaceResult(ctx, created);
  const shown = displayPath(ctx, path);
  if (ctx.json) ctx.emitJson(result.document);
  else {
    const failures = record.priorKnowledge.failures;
    const earlier = failures.filter((f) => !f.injected && f.name.startsWith('attempt-')).length;
    const lost = failures.filter((f) => !f.injected && /^attempt-.*_lost\.\d+$/.test(f.name)).length;
    const siblings = failures.filter((f) => !f.injected).length - earlier;
    const kept = lost === 0 ? 'the failed ones are kept beside it' : lost === earlier ? 'the lost one is kept beside it' : 'the earlier ones are kept beside it';
    ctx.out(`created ${shown}${record.attempt === undefined ? '' : ` (attempt ${record.attempt}; ${kept})`}`);
    ctx.out(
      `  lineage: ${record.lineage.length} parent${record.lineage.length === 1 ? '' : 's'}; prior knowledge: ${earlier - lost > 0 ? `${earlier - lost} earlier failure(s) of this task, ` : ''}${lost > 0 ? `${lost} lost attempt(s), ` : ''}${failures.length - siblings - earlier} failure(s) from memory, ${siblings} sibling failure(s), ${record.priorKnowledge.patterns.length} pattern(s)`,
    );
    for (const f of failures) ctx.out(`  - ${f.injected ? 'failure' : f.name.startsWith('attempt-') ? 'earlier attempt' : 'sibling'} ${f.name}: ${f.trigger}`);
  }
  return result.exitCode;
}
export default withInput(createInput, create);
