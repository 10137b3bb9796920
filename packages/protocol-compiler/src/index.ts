/**
 * @ratchet/protocol-compiler: protocol sources (protocols/*.protocol.json + paired prose) validated
 * with ajv and compiled into a managed block of AGENTS.md / CLAUDE.md; `check` reports stale targets.
 * This entry never imports zod (CLI start-up); the zod schema is under `./schema`.
 */
export { ProtocolError, describeProblem, problemsOf, type ProtocolErrorCode, type ProtocolIssue, type ProtocolProblem } from './errors.js';
export type { Protocol, ProtocolRule, ProtocolSet, ProtocolSource } from './types.js';
export { loadProtocolSet, readProtocolFile, readVersion, normaliseProse, SCHEMA_FILE, VERSION_FILE, type LoadOptions } from './load.js';
export { compileProtocolSchema, defaultProtocolSchema, loadProtocolValidator, type ProtocolValidator } from './validate.js';
export { renderProtocols, renderProtocolDetail, fenced, GENERATED_NOTICE, type RenderOptions, type UsageProvider } from './render.js';
export { firstSentence } from './render-compact.js';
export { COMPACT_MARKER, DETAILS, detailOfBlock, isDetail, type Detail } from './detail.js';
export type { PlanVocabulary } from './vocabulary.js';
export { BEGIN_MARKER, END_MARKER, findManagedBlock, replaceManagedBlock, containsMarker, type BlockLocation } from './managed-block.js';
export { compileProtocols, compileSet, withoutTimestamp, type CompileOptions, type CompileResult, type TargetResult, type TargetStatus } from './compile.js';
export { applyProtocolEdit, updateProtocol, stringifyLike, withBom, type ProtocolEdit, type EditOutcome, type UpdateOptions, type UpdateResult } from './edit.js';
export { unifiedDiff } from './diff.js';
export { editJsonText, type JsonTextOp } from './json-text-edit.js';
export { isSemver } from './semver.js';
export { CONFIG_FILE, checkCompileConfig, readCompileConfig, type CompileConfig } from './config.js';
export { COMPILE_CONFIG_SCHEMA_URL, PROTOCOL_SCHEMA_URL } from './urls.js';
export { resolveInsideRoot } from './safe-path.js';
