/**
 * The refusal log: one record per hook answer that stopped the agent (a PreToolUse deny, a Stop or
 * SubagentStop block), appended by `ratchet hook` after it answered and read by `ratchet serve`,
 * which shows the recent ones and counts them per rule. Kept under `.ratchet/`, which the
 * PreToolUse hook already refuses to let an agent write: it cannot erase its own refusals.
 *
 * The answer carries only its reason text, so the rule is read from the wording each check uses
 * (`refusalRules`); a reason no pattern knows is `other`. The record keeps the reason (clipped), so
 * nothing is lost when a wording changes.
 */

/** Its key on the storage port (the file `<project>/.ratchet/refusals.log.jsonl` on files). */
export const REFUSAL_LOG = '.ratchet/refusals.log.jsonl';
export const REFUSAL_SCHEMA_VERSION = 1;
/** Reasons are kept to this many characters (a Stop block lists every open obligation). */
export const REFUSAL_REASON_MAX = 2000;

export interface RefusalRecord {
  v: typeof REFUSAL_SCHEMA_VERSION;
  /** ISO-8601, the hook's clock. */
  time: string;
  /** The hook event, as the CLI spells it: pre-tool-use, stop, subagent-stop. */
  event: string;
  decision: 'deny' | 'block';
  /** The checks that refused (a Stop block can name several kinds of open obligation). */
  rules: string[];
  reason: string;
  tool?: string;
  /** Claude Code's session id, when the payload had one. */
  session?: string;
}

/** The rules a reason names, in the order the checks run. */
export function refusalRules(decision: 'deny' | 'block', reason: string): string[] {
  if (decision === 'deny') {
    if (/ is Ratchet state; /.test(reason)) return ['state-file'];
    if (/ refused: task \S+ is (?:POST_MORTEM|SELF_CORRECTING)\b/.test(reason)) return ['post-mortem-only'];
    if (/ refused: task \S+ is [A-Z_]+: no project file/.test(reason)) return ['no-write-before-plan'];
    if (/the current plan step is `/.test(reason)) return ['plan-step'];
    if (/cannot be read \(/.test(reason)) return ['unreadable-state'];
    if (/config/i.test(reason)) return ['config'];
    return ['other'];
  }
  const rules: string[] = [];
  const add = (rule: string): void => {
    if (!rules.includes(rule)) rules.push(rule);
  };
  for (const line of reason.split('\n')) {
    if (!line.startsWith('- ')) continue;
    if (/cannot be read \(/.test(line)) add('unreadable-state');
    else if (line.startsWith('- task ')) add('stop-open-task');
    else if (line.startsWith('- flow ')) add('stop-open-flow');
    else if (/^- campaign task |shared store cannot be reached/.test(line)) add('stop-claimed-task');
    else if (/holds the JIXO log lock/.test(line)) add('stop-jixo-lock');
    else add('stop-other');
  }
  if (rules.length === 0) add(/config/i.test(reason) ? 'config' : 'stop-other');
  return rules;
}

export function refusalRecord(input: { time: Date; event: string; decision: 'deny' | 'block'; reason: string; tool?: string | undefined; session?: string | undefined }): RefusalRecord {
  const reason = input.reason.length > REFUSAL_REASON_MAX ? `${input.reason.slice(0, REFUSAL_REASON_MAX - 1)}…` : input.reason;
  return {
    v: REFUSAL_SCHEMA_VERSION,
    time: input.time.toISOString(),
    event: input.event,
    decision: input.decision,
    rules: refusalRules(input.decision, input.reason),
    reason,
    ...(input.tool === undefined || input.tool === '' ? {} : { tool: input.tool }),
    ...(input.session === undefined ? {} : { session: input.session }),
  };
}

const isString = (v: unknown): v is string => typeof v === 'string';

/** Hand-written (the hooks' bundles load no validator library): the record's shape, with every problem's place. */
export const refusalValidator = {
  safeParse(value: unknown): { success: true; data: RefusalRecord } | { success: false; error: { issues: { path: (string | number)[]; message: string }[] } } {
    const issues: { path: (string | number)[]; message: string }[] = [];
    if (typeof value !== 'object' || value === null || Array.isArray(value)) return { success: false, error: { issues: [{ path: [], message: 'expected an object { v, time, event, decision, rules, reason }' }] } };
    const r = value as Record<string, unknown>;
    if (r.v !== REFUSAL_SCHEMA_VERSION) issues.push({ path: ['v'], message: `expected ${REFUSAL_SCHEMA_VERSION}` });
    if (!isString(r.time) || Number.isNaN(Date.parse(r.time))) issues.push({ path: ['time'], message: 'expected an ISO-8601 time' });
    if (!isString(r.event) || r.event === '') issues.push({ path: ['event'], message: 'expected the hook event' });
    if (r.decision !== 'deny' && r.decision !== 'block') issues.push({ path: ['decision'], message: 'expected "deny" or "block"' });
    if (!Array.isArray(r.rules) || r.rules.length === 0 || !r.rules.every(isString)) issues.push({ path: ['rules'], message: 'expected a non-empty array of rule names' });
    if (!isString(r.reason) || r.reason.length > REFUSAL_REASON_MAX) issues.push({ path: ['reason'], message: `expected a string of at most ${REFUSAL_REASON_MAX} characters` });
    if (r.tool !== undefined && !isString(r.tool)) issues.push({ path: ['tool'], message: 'expected a string' });
    if (r.session !== undefined && !isString(r.session)) issues.push({ path: ['session'], message: 'expected a string' });
    return issues.length > 0 ? { success: false, error: { issues } } : { success: true, data: r as unknown as RefusalRecord };
  },
};
