/**
 * @ratchet/plan-lint: the plan language. Parse, lint (FSM adherence, closure, a simulated file
 * system, sub-plans through fsm-core's pushdown runs), analyze, format.
 *
 * This entry loads no zod: dialects are validated by hand. The zod schemas (the source of the
 * shipped JSON Schemas) are at `@ratchet/plan-lint/schema`, the registry at `@ratchet/plan-lint/registry`.
 */
export { RULES, RULE_IDS, hasErrors, sortFindings, type CallSite, type Finding, type RuleId, type Severity } from './findings.js';
export { PLACEHOLDER, bindPlaceholders, hasPlaceholder, type CallNode, type CommandNode, type ForEachNode, type Plan, type PlanNode } from './plan.js';
export { parsePlan, type ParseResult } from './parse.js';
export {
  blockToLineForm,
  formatPlan,
  isBlockGrammarPlan,
  planDirectives,
  type FormatPlanResult,
  type LineForm,
  type PlanDirective,
  type PlanDirectives,
  type PositionMap,
} from './grammars.js';
export {
  DIALECT_SCHEMA_URL,
  EFFECTS,
  RESERVED_COMMANDS,
  WRITE_EFFECTS,
  actionFor,
  commandsForSymbol,
  loadDialect,
  type CompiledCommand,
  type Dialect,
  type DialectAction,
  type DialectCommand,
  type DialectDocument,
  type DialectLoadResult,
  type DialectProblem,
  type DialectWhen,
  type Effect,
} from './dialect.js';
export { CALL_STEPS, DEFAULT_MAX_LOOP_DEPTH, DEFAULT_MAX_STEPS, lintPlan, type LintOptions, type LintResult, type PlanHost, type PlanRefusal } from './lint.js';
export { ROOT_FRAME, childFrame, graftExpansion, type FrameExpansion, type PlanExpansion } from './expansion.js';
export { dialectVocabulary, type VocabularyEntry } from './vocabulary.js';
export { analyzePlan, complexityOf, type Analysis, type AnalyzeOptions, type Complexity, type Modality } from './analyze.js';
export { resolveCall, type CallResolution, type PlanRegistry } from './resolve-call.js';
export { normalizeRelative } from './paths.js';
export { compileGlob, globToRegExp, matchGlob, type GlobMatcher } from './glob.js';
export { listView, type FileView } from './sim-fs.js';
export { formatStylish, type StylishOptions } from './format/stylish.js';
export { formatJson } from './format/json.js';
export { GITHUB_MAX_RESULTS, INFORMATION_URI, SARIF_SCHEMA, formatSarif, toSarif, type SarifOptions } from './format/sarif.js';
export { lineAlphabetDialect, type LineAlphabetRead } from './line-alphabet.js';
