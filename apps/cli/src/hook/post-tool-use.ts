/**
 * PostToolUse: the tool call goes into the activity log (seed 000 logs every action), appended at a
 * cost that does not grow with the log. `ratchet` calls that create obligations this session must
 * answer for (a campaign claim, a JIXO lock, a flow started by hand) are remembered for Stop.
 */
import { join } from 'node:path';
import { ACTIVITY_LOG_PATH, activityEntryValidator, currentStep, type ActivityEntry, type Session } from '@ratchet/orchestrator/session-view';
import { openJsonl, storageKind } from '@ratchet/store';
import { simpleCommands } from './bash.js';
import { openHookMemory, remember, type HookMemory } from './memory.js';
import { attributeOpened } from './opened.js';
import { isRatchetTool } from './ratchet-tools.js';
import type { HookPayload } from './payload.js';

/** Tool inputs are logged in short: enough to audit, never a whole file's content. */
const MAX_DETAIL = 300;

function summarise(input: Record<string, unknown>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [key, value] of Object.entries(input)) {
    if (key === 'content' || key === 'new_string' || key === 'old_string' || key === 'edits' || key === 'new_source') continue;
    const text = typeof value === 'string' ? value : JSON.stringify(value) ?? '';
    out[key] = text.length > MAX_DETAIL ? `${text.slice(0, MAX_DETAIL)}…` : text;
  }
  return out;
}

function failed(response: unknown): boolean {
  if (typeof response !== 'object' || response === null) return false;
  const r = response as Record<string, unknown>;
  return r.is_error === true || r.success === false || r.interrupted === true || (typeof r.exitCode === 'number' && r.exitCode !== 0);
}

export function activityFor(payload: HookPayload, session: Session | undefined, now: Date): ActivityEntry {
  const tool = payload.toolName ?? 'unknown';
  const bad = failed(payload.toolResponse);
  return {
    log_id: crypto.randomUUID(),
    session_id: session?.sessionId ?? payload.sessionId ?? 'unknown',
    timestamp: now.toISOString(),
    phase: session?.state ?? 'NO_TASK',
    task: { id: session?.taskId ?? 'none', plan_step: session === undefined ? null : (currentStep(session)?.index ?? null) },
    action: { type: 'TOOL_CALL', details: { tool, input: summarise(payload.toolInput), ...(payload.sessionId === undefined ? {} : { claude_session: payload.sessionId }) } },
    outcome: { status: bad ? 'FAILURE' : 'SUCCESS', message: `${tool}${bad ? ' failed' : ''}` },
  };
}

/** What a `ratchet` command line commits this session to, as memory updates. */
export function obligationsFrom(command: string, memory: HookMemory): HookMemory | undefined {
  let next = memory;
  for (const cmd of simpleCommands(command)) {
    if (!cmd.ratchet) continue;
    const w = cmd.words;
    const value = (flag: string): string | undefined => {
      const i = w.indexOf(flag);
      if (i >= 0) return w[i + 1];
      const eq = w.find((x) => x.startsWith(`${flag}=`));
      return eq?.slice(flag.length + 1);
    };
    const at = (group: string, sub: string): number => w.findIndex((x, i) => x === group && w[i + 1] === sub);
    const claim = value('--claim');
    if (at('campaign', 'ready') >= 0 && claim !== undefined) next = { ...next, runners: remember(next.runners, claim) };
    const lock = at('jixo', 'lock');
    const runner = value('--runner');
    if (lock >= 0 && runner !== undefined && w[lock + 2] !== undefined) {
      next = { ...next, jixoLocks: remember(next.jixoLocks, { log: w[lock + 2]!, runner }, (a, b) => a.log === b.log && a.runner === b.runner) };
    }
    const session = value('--session');
    if (at('flow', 'start') >= 0 && session !== undefined) next = { ...next, flows: remember(next.flows, session) };
  }
  return next === memory ? undefined : next;
}

export async function postToolUse(root: string, payload: HookPayload, session: Session | undefined, env: Readonly<Record<string, string | undefined>> = {}): Promise<void> {
  const entry = activityFor(payload, session, new Date());
  if (storageKind(root, env) === 'file') {
    await openJsonl(join(root, ACTIVITY_LOG_PATH), { schema: activityEntryValidator, createParentDirs: true }).appendFast([entry]);
  } else {
    // The project's activity log is in its shared database: the tool call goes there too, one log for every machine.
    const { appendSharedActivity } = await import('./activity-shared.js');
    await appendSharedActivity(root, env, entry);
  }
  if (payload.sessionId === undefined) return;
  // What this call opened (recorded by the command itself, any channel) becomes this session's.
  if (payload.toolName === 'Bash' || isRatchetTool(payload.toolName)) {
    await attributeOpened(root, payload.sessionId, { shell: payload.toolName === 'Bash', ...(payload.toolUseId === undefined ? {} : { toolUseId: payload.toolUseId }) });
  }
  const command = payload.toolName === 'Bash' && typeof payload.toolInput.command === 'string' ? payload.toolInput.command : undefined;
  if (command === undefined || !/\bratchet\b/.test(command)) return;
  const doc = openHookMemory(root, payload.sessionId);
  const sessionId = payload.sessionId;
  if (obligationsFrom(command, doc.readSync()) === undefined) return;
  await doc.update((m) => ({ ...(obligationsFrom(command, m) ?? m), sessionId }));
}
