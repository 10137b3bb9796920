import { listFlowFiles, listSessions, loadFlowFile } from '@ratchet/flows';
import type { Context } from '../../context.js';
import { EXIT_OK, EXIT_PROBLEMS } from '../../exit-codes.js';
import { displayPath } from '../../paths.js';
import { flowDirs, guard } from './project.js';

interface Row {
  name: string;
  source: 'project' | 'built-in';
  file: string;
  title?: string;
  kind?: string;
  steps?: string[];
  error?: string;
}

/** `ratchet flow list`: every flow (project ones hide built-in ones of the same name), checked; then the sessions. */
export default async function list(ctx: Context): Promise<number> {
  const rows: Row[] = [];
  for (const file of listFlowFiles(flowDirs(ctx))) {
    const row: Row = { name: file.name, source: file.source === 0 ? 'project' : 'built-in', file: displayPath(ctx, file.path) };
    try {
      const { flow } = await loadFlowFile(file.path);
      Object.assign(row, { title: flow.title, kind: flow.kind, steps: flow.steps.map((s) => s.id) });
    } catch (err) {
      const e = err as { reason?: string; line?: number; column?: number; message: string };
      row.error = `${row.file}${e.line !== undefined ? `:${e.line}:${e.column ?? 1}` : ''}: ${e.reason ?? e.message}`;
    }
    rows.push(row);
  }
  const sessions = await guard(ctx, () => listSessions(ctx.cwd));
  const bad = rows.filter((r) => r.error !== undefined);
  if (ctx.json) ctx.emitJson({ ok: bad.length === 0, flows: rows, sessions: sessions.map((s) => ({ ...s, file: displayPath(ctx, s.file) })) });
  else {
    for (const r of rows) {
      if (r.error !== undefined) ctx.out(`${r.name}  (${r.source})  INVALID: ${r.error}`);
      else ctx.out(`${r.name}  ${r.kind ?? ''}  ${r.title ?? ''}  (${r.source}; steps ${(r.steps ?? []).join(' ')})`);
    }
    if (sessions.length > 0) {
      ctx.out('');
      ctx.out('sessions:');
      for (const s of sessions) ctx.out(`  ${s.sessionId}  ${s.flow}  ${s.status}${s.current !== null ? `  step ${s.current}` : ''}`);
    }
  }
  return bad.length === 0 ? EXIT_OK : EXIT_PROBLEMS;
}
