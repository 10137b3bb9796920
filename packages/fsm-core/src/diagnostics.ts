/**
 * Diagnostics: one per problem in a user's definition, each with a stable rule id, a severity and
 * a JSON pointer into the ORIGINAL document. Ordering is by place in the document, so the same
 * input always gives the same list in the order a reader meets the problems.
 */
import { parsePointer } from './pointer.js';

export type Severity = 'error' | 'warning';

export interface Diagnostic {
  ruleId: RuleId;
  severity: Severity;
  message: string;
  /** RFC 6901 pointer into the document that was checked; `''` is the whole document. */
  pointer: string;
}

/** Every rule, its severity and what it means. The README's rule table mirrors this. */
export const RULES = {
  schema: { severity: 'error', description: 'The document does not have the shape of an FSM definition (wrong type, missing or unknown property).' },
  'reserved-name': { severity: 'error', description: 'A state, symbol or id is `__proto__`, `constructor` or `prototype`: refused so names can never reach object prototypes.' },
  'duplicate-declaration': { severity: 'warning', description: 'A state, symbol or accept state is listed more than once.' },
  'missing-start-state': { severity: 'error', description: 'The start state is not one of the declared states.' },
  'undefined-state': { severity: 'error', description: 'A transition leaves from or goes to, or an accept state names, a state that is not declared.' },
  'unknown-symbol': { severity: 'error', description: 'A transition uses a symbol that is not in the declared alphabet.' },
  'conflicting-transition': { severity: 'error', description: 'The same state and symbol lead to two different states (the machine would not be deterministic).' },
  'duplicate-transition': { severity: 'warning', description: 'The same transition is listed twice.' },
  'no-accept-states': { severity: 'error', description: 'The machine has no accept state, so it accepts nothing.' },
  'unreachable-state': { severity: 'warning', description: 'No path leads from the start state to this state.' },
  'dead-state': { severity: 'warning', description: 'No accept state can be reached from this state (accept states themselves are fine).' },
  'unused-symbol': { severity: 'warning', description: 'A declared symbol is used by no transition.' },
} as const satisfies Record<string, { severity: Severity; description: string }>;

export type RuleId = keyof typeof RULES;

const RULE_ORDER = new Map(Object.keys(RULES).map((id, i) => [id, i]));

export function diagnostic(ruleId: RuleId, pointer: string, message: string): Diagnostic {
  return { ruleId, severity: RULES[ruleId].severity, message, pointer };
}

/**
 * Sort diagnostics by where their pointer leads in `doc` (pre-order, keys in document order), then
 * by rule; ties keep the order the rules produced them in. A pointer to a missing member sorts
 * after its parent's existing members. Key positions are indexed once per object, so sorting stays linear-ish for huge alphabets.
 */
export function sortDiagnostics(diagnostics: Diagnostic[], doc: unknown): Diagnostic[] {
  const keyIndex = new WeakMap<object, Map<string, number>>();
  const position = (ptr: string): number[] => {
    const out: number[] = [];
    let value: unknown = doc;
    for (const token of parsePointer(ptr)) {
      if (Array.isArray(value)) {
        const i = /^(0|[1-9][0-9]*)$/.test(token) ? Number(token) : Number.MAX_SAFE_INTEGER;
        out.push(i);
        value = i < value.length ? (value[i] as unknown) : undefined;
      } else if (value !== null && typeof value === 'object') {
        let index = keyIndex.get(value);
        if (!index) {
          index = new Map(Object.keys(value).map((k, i) => [k, i]));
          keyIndex.set(value, index);
        }
        const i = index.get(token);
        out.push(i ?? Number.MAX_SAFE_INTEGER);
        value = i === undefined ? undefined : (value as Record<string, unknown>)[token];
      } else {
        out.push(Number.MAX_SAFE_INTEGER);
        value = undefined;
      }
    }
    return out;
  };
  const keyed = diagnostics.map((d) => ({ d, pos: position(d.pointer) }));
  keyed.sort((a, b) => {
    const n = Math.min(a.pos.length, b.pos.length);
    for (let i = 0; i < n; i++) {
      const diff = a.pos[i]! - b.pos[i]!;
      if (diff !== 0) return diff;
    }
    if (a.pos.length !== b.pos.length) return a.pos.length - b.pos.length;
    const rule = RULE_ORDER.get(a.d.ruleId)! - RULE_ORDER.get(b.d.ruleId)!;
    if (rule !== 0) return rule;
    if (a.d.pointer !== b.d.pointer) return a.d.pointer < b.d.pointer ? -1 : 1;
    return 0; // stable: the rules' own (deterministic) order
  });
  return keyed.map((k) => k.d);
}

export function hasErrors(diagnostics: readonly Diagnostic[]): boolean {
  return diagnostics.some((d) => d.severity === 'error');
}
