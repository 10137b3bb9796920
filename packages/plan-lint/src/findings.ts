/**
 * Findings: every problem lint reports, as plain JSON. Rule ids are stable; the table below is the
 * one place their severities and short descriptions live (the SARIF formatter ships it as rules[]).
 */
export type Severity = 'error' | 'warning';

/** A call site on the way to a sub-plan: the `call_plan` line in the caller. */
export interface CallSite {
  file: string;
  line: number;
  column: number;
}

export interface Finding {
  ruleId: RuleId;
  severity: Severity;
  message: string;
  /** Project-relative path with forward slashes. */
  file: string;
  /** 1-based. */
  line: number;
  /** 1-based. */
  column: number;
  /** For findings inside sub-plans: the plans on the call chain, outermost first, this one last. */
  chain?: string[];
  /** For findings inside sub-plans: the `call_plan` lines that led here, outermost first. */
  callSites?: CallSite[];
}

export const RULES = {
  'malformed-line': { severity: 'error', description: 'A line that is not `<command> <args...>`, or a directive missing its argument.' },
  'tab-indentation': { severity: 'error', description: 'Indentation must use spaces; a tab was found.' },
  'bad-indentation': { severity: 'error', description: 'Indentation is not 2 spaces deeper than an enclosing for_each_file, or does not close back to an open level.' },
  'empty-block': { severity: 'error', description: 'A for_each_file header has no indented body.' },
  'unbound-placeholder': { severity: 'error', description: 'A {file} placeholder outside any for_each_file block.' },
  'empty-plan': { severity: 'error', description: 'The plan has no commands.' },
  'unknown-command': { severity: 'error', description: 'A command the dialect does not define.' },
  'fsm-adherence': { severity: 'error', description: "The command sequence is not accepted by the dialect's state machine." },
  'closure-mandate': { severity: 'error', description: "The last command of a plan must be the dialect's close command." },
  'file-not-found': { severity: 'error', description: 'A read, edit, delete or move of a file that does not exist at that point of the plan.' },
  'file-exists': { severity: 'error', description: 'A create (or a move onto) a file that already exists at that point of the plan.' },
  'path-outside-root': { severity: 'error', description: 'A file argument that is absolute or climbs out of the project root.' },
  'empty-glob': { severity: 'warning', description: 'A for_each_file glob that matches no file at that point of the plan.' },
  'call-plan-not-found': { severity: 'error', description: 'A call_plan target that is neither a registered name nor an existing plan file.' },
  'call-plan-outside-root': { severity: 'error', description: 'A call_plan target (or registry entry) that is absolute or resolves outside the project root.' },
  'plan-cycle': { severity: 'error', description: 'A plan that calls itself, directly or through other plans.' },
  'recursion-depth': { severity: 'error', description: 'A call_plan chain deeper than the maximum depth.' },
  'loop-too-deep': { severity: 'error', description: 'A for_each_file nested deeper than lint expands; the loop and its body are unchecked.' },
  'plan-too-large': { severity: 'error', description: 'Simulating the plan, loops and sub-plans expanded, takes more steps than lint allows; the rest is unchecked.' },
} as const satisfies Record<string, { severity: Severity; description: string }>;

export type RuleId = keyof typeof RULES;

export const RULE_IDS = Object.keys(RULES) as RuleId[];

export function hasErrors(findings: readonly Finding[]): boolean {
  return findings.some((f) => f.severity === 'error');
}

/** Stable order: by file, line, column, rule id; ties keep discovery order. */
export function sortFindings(findings: Finding[]): Finding[] {
  return findings
    .map((f, i) => ({ f, i }))
    .sort((a, b) => cmp(a.f.file, b.f.file) || a.f.line - b.f.line || a.f.column - b.f.column || cmp(a.f.ruleId, b.f.ruleId) || a.i - b.i)
    .map((x) => x.f);
}

function cmp(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
