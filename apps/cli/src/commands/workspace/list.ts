import type { Context } from '../../context.js';
import { listWorkspaces, listWorkspacesResult, type WorkspacesInput } from '../../operations/workspace.js';
import { withInput } from '../../option-values.js';
import { displayPath } from '../../paths.js';
import { workspacesInput } from './inputs.js';

/** `ratchet workspace list` */
async function list(ctx: Context, input: WorkspacesInput): Promise<number> {
  const found = await listWorkspaces(ctx, input);
  const { workspaces, skipped } = found;
  const result = listWorkspacesResult(ctx, found);
  // A file that does not parse is the user's to fix: "no workspaces yet" with exit 0 would hide it.
  const unreadable = skipped.filter((s) => s.kind === 'unreadable');
  for (const s of skipped) {
    const place = s.line === undefined ? '' : `:${s.line}${s.column === undefined ? '' : `:${s.column}`}`;
    const line = `${displayPath(ctx, s.path)}${place}: ${s.kind === 'unreadable' ? 'error: cannot read this workspace' : 'skipped'}: ${s.reason}`;
    if (s.kind === 'unreadable') ctx.io.stderr(`${line}\n`);
    else ctx.note(line);
  }
  if (ctx.json) ctx.emitJson(result.document);
  else if (workspaces.length === 0) ctx.out(unreadable.length === 0 ? 'no workspaces yet' : `no readable workspaces (${unreadable.length} could not be read)`);
  else {
    for (const w of workspaces) {
      // A retried task lists its live workspace and each failed earlier attempt (kept as history).
      const label = w.live && w.attempt === undefined ? w.id : `${w.id} #${w.attempt ?? 1}${w.live ? '' : w.lost === true ? ' (lost)' : ' (earlier)'}`;
      const status = w.lost === true ? 'lost' : w.status;
      ctx.out(`${label.padEnd(28)} ${status.padEnd(9)} ${(w.blockedReason ?? w.delivered).split('\n')[0] ?? ''}`);
    }
  }
  return result.exitCode;
}
export default withInput(workspacesInput, list);
