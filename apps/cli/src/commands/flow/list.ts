import { resolve } from 'node:path';
import { listFlowFiles, loadFlowFile, loadFlowSettings, surveySessions } from '@ratchet/flows';
import type { Context } from '../../context.js';
import { EXIT_OK, EXIT_PROBLEMS } from '../../exit-codes.js';
import { displayPath } from '../../paths.js';
import { FLOW_SETTINGS, flowDirs, guard, placed, printSessions, unreadableRow } from './project.js';

interface Row {
  name: string;
  source: 'project' | 'built-in';
  file: string;
  title?: string;
  kind?: string;
  steps?: string[];
  /** The routing table: what the flow is for, and not for. */
  semanticTrigger?: string;
  notFor?: string;
  error?: string;
}

/**
 * `ratchet flow list`: every flow (project ones hide built-in ones of the same name), checked, with
 * what it is for and not for (the routing table task routing decides by); the project's flow
 * settings; then the sessions.
 */
export default async function list(ctx: Context): Promise<number> {
  const rows: Row[] = [];
  for (const file of listFlowFiles(flowDirs(ctx))) {
    const row: Row = { name: file.name, source: file.source === 0 ? 'project' : 'built-in', file: displayPath(ctx, file.path) };
    try {
      const { flow } = await loadFlowFile(file.path);
      Object.assign(row, { title: flow.title, kind: flow.kind, steps: flow.steps.map((s) => s.id) });
      if (flow.semanticTrigger !== undefined) row.semanticTrigger = flow.semanticTrigger;
      if (flow.notFor !== undefined) row.notFor = flow.notFor;
    } catch (err) {
      row.error = placed(row.file, err);
    }
    rows.push(row);
  }
  // The settings apply to every flow: a broken file stops every other flow command, so show it here.
  let settings: { file: string; present: boolean; error?: string } = { file: FLOW_SETTINGS, present: false };
  try {
    settings.present = (await loadFlowSettings(resolve(ctx.cwd, FLOW_SETTINGS))) !== undefined;
  } catch (err) {
    settings = { file: FLOW_SETTINGS, present: true, error: placed(FLOW_SETTINGS, err) };
  }
  // One session that cannot be read (tampered, malformed) is reported; the others are still listed.
  const { sessions, unreadable } = await guard(ctx, () => surveySessions(ctx.cwd));
  const bad = rows.filter((r) => r.error !== undefined);
  const ok = bad.length === 0 && settings.error === undefined && unreadable.length === 0;
  if (ctx.json) ctx.emitJson({ ok, flows: rows, settings, sessions: sessions.map((s) => ({ ...s, file: displayPath(ctx, s.file) })), unreadableSessions: unreadable.map((u) => unreadableRow(ctx, u)) });
  else {
    for (const r of rows) {
      if (r.error !== undefined) ctx.out(`${r.name}  (${r.source})  INVALID: ${r.error}`);
      else {
        ctx.out(`${r.name}  ${r.kind ?? ''}  ${r.title ?? ''}  (${r.source}; steps ${(r.steps ?? []).join(' ')})`);
        // Routing goes by these (task routing reads this list), so they are shown with every flow.
        if (r.semanticTrigger !== undefined) ctx.out(`  for: ${r.semanticTrigger}`);
        if (r.notFor !== undefined) ctx.out(`  not for: ${r.notFor}`);
      }
    }
    if (settings.error !== undefined) ctx.out(`\nsettings  INVALID: ${settings.error}`);
    else if (settings.present) ctx.out(`\nsettings  ${settings.file} (directive wording for flows that set none; memory-file names)`);
    if (sessions.length > 0 || unreadable.length > 0) {
      ctx.out('');
      ctx.out('sessions:');
      printSessions(ctx, sessions, unreadable, '  ');
    }
  }
  return ok ? EXIT_OK : EXIT_PROBLEMS;
}
