import type { Context } from '../../context.js';
import { flowListResult, listFlows } from '../../operations/flows.js';
import { printSessions } from './project.js';

/**
 * `ratchet flow list`: every flow (project ones hide built-in ones of the same name), checked, with
 * what it is for and not for (the routing table task routing decides by); the project's flow
 * settings; then the sessions (src/operations/flows.ts finds them).
 */
export default async function list(ctx: Context): Promise<number> {
  const found = await listFlows(ctx);
  const result = flowListResult(ctx, found);
  if (ctx.json) ctx.emitJson(result.document);
  else {
    for (const r of found.flows) {
      if (r.error !== undefined) ctx.out(`${r.name}  (${r.source})  INVALID: ${r.error}`);
      else {
        ctx.out(`${r.name}  ${r.kind ?? ''}  ${r.title ?? ''}  (${r.source}; steps ${(r.steps ?? []).join(' ')})`);
        // Routing goes by these (task routing reads this list), so they are shown with every flow.
        if (r.semanticTrigger !== undefined) ctx.out(`  for: ${r.semanticTrigger}`);
        if (r.notFor !== undefined) ctx.out(`  not for: ${r.notFor}`);
      }
    }
    const { settings, sessions, unreadable } = found;
    if (settings.error !== undefined) ctx.out(`\nsettings  INVALID: ${settings.error}`);
    else if (settings.present) ctx.out(`\nsettings  ${settings.file} (directive wording for flows that set none; memory-file names)`);
    if (sessions.length > 0 || unreadable.length > 0) {
      ctx.out('');
      ctx.out('sessions:');
      printSessions(ctx, sessions, unreadable, '  ');
    }
  }
  return result.exitCode;
}
