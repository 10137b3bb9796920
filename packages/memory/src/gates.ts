/**
 * Quality gates: what memory refuses to learn, each refusal with a reason. FTL's gates (trigger at
 * least 10 characters, cost at least 100, generic triggers rejected), plus name and regex checks.
 * All gates run and all refusals are returned, so one call tells the user everything to fix.
 */
import { checkRegex } from '@ratchet/store';
import { tokenize } from './tokenize.js';

export const MIN_TRIGGER_LENGTH = 10;
export const MIN_VALUE = 100;
export const MAX_TEXT_LENGTH = 4000;
export const NAME_PATTERN = /^[A-Za-z0-9][A-Za-z0-9._:-]{0,119}$/;

export type GateId = 'name' | 'trigger-length' | 'generic-trigger' | 'text-length' | 'value' | 'fix' | 'insight' | 'match';

export interface GateRefusal {
  gate: GateId;
  reason: string;
}

/**
 * Words that say something went wrong without saying what. A trigger made only of these (after stop
 * words and suffixes are dropped) would match every future query, so it is refused.
 */
const GENERIC_WORDS = new Set(
  (
    'error errors fail failure bug issue problem broken wrong work worked doesn didn don isn won can cannot ' +
    'something anything thing stuff went go again still now test tests build crash exception ' +
    'happen happened occur occurred unknown unexpected weird strange bad some any everything nothing help fix ok'
  )
    .split(' ')
    .map((w) => tokenize(w)[0] ?? w),
);

/** True when the trigger would match almost anything: fewer than two specific words. */
export function isGenericTrigger(trigger: string): boolean {
  const specific = new Set(tokenize(trigger).filter((t) => !GENERIC_WORDS.has(t)));
  return specific.size < 2;
}

export function checkName(name: string): GateRefusal | undefined {
  return NAME_PATTERN.test(name) ? undefined : { gate: 'name', reason: `name ${JSON.stringify(name.slice(0, 140))} must match ${NAME_PATTERN.source}` };
}

function commonGates(input: { trigger: string; name?: string | undefined }, value: number, valueLabel: string): GateRefusal[] {
  const out: GateRefusal[] = [];
  if (input.name !== undefined) {
    const bad = checkName(input.name);
    if (bad) out.push(bad);
  }
  const trigger = input.trigger.trim();
  if (trigger.length < MIN_TRIGGER_LENGTH) out.push({ gate: 'trigger-length', reason: `trigger is ${trigger.length} characters; at least ${MIN_TRIGGER_LENGTH} are needed to recognise the situation again` });
  else if (isGenericTrigger(trigger)) out.push({ gate: 'generic-trigger', reason: `trigger ${JSON.stringify(trigger)} is generic: it needs at least two specific words (an error name, a file, a tool), not just "error", "failed" or "does not work"` });
  if (trigger.length > MAX_TEXT_LENGTH) out.push({ gate: 'text-length', reason: `trigger is longer than ${MAX_TEXT_LENGTH} characters` });
  if (!Number.isFinite(value) || value < MIN_VALUE) out.push({ gate: 'value', reason: `${valueLabel} is ${String(value)}; at least ${MIN_VALUE} is needed (memory keeps what was expensive)` });
  return out;
}

export function checkFailureGates(input: { name?: string | undefined; trigger: string; fix: string; cost: number; match?: string | null | undefined }): GateRefusal[] {
  const out = commonGates(input, input.cost, 'cost');
  if (input.fix.trim().length === 0) out.push({ gate: 'fix', reason: 'fix is empty: say how to avoid or repair the failure' });
  else if (input.fix.length > MAX_TEXT_LENGTH) out.push({ gate: 'text-length', reason: `fix is longer than ${MAX_TEXT_LENGTH} characters` });
  if (input.match !== undefined && input.match !== null) {
    const verdict = checkRegex(input.match);
    if (!verdict.safe) out.push({ gate: 'match', reason: `match pattern refused: ${verdict.reason}` });
  }
  return out;
}

export function checkPatternGates(input: { name?: string | undefined; trigger: string; insight: string; saved: number }): GateRefusal[] {
  const out = commonGates(input, input.saved, 'saved');
  if (input.insight.trim().length === 0) out.push({ gate: 'insight', reason: 'insight is empty: say what worked' });
  else if (input.insight.length > MAX_TEXT_LENGTH) out.push({ gate: 'text-length', reason: `insight is longer than ${MAX_TEXT_LENGTH} characters` });
  return out;
}

/** A name derived from the trigger when none is given: its first specific words, kebab-case. */
export function slugFromTrigger(trigger: string): string {
  const words = tokenize(trigger, true).slice(0, 6);
  const slug = words.join('-').replace(/[^A-Za-z0-9._:-]/g, '').slice(0, 60).replace(/^[^A-Za-z0-9]+/, '');
  return slug.length > 0 ? slug : 'entry';
}
