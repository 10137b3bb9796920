/**
 * The zod schema of a protocol source: the one source of truth for the default JSON Schema that
 * `scripts/generate.ts` writes to schemas/protocol.schema.json (draft-07, so a project can extend it
 * and ajv validates it). Import through `@ratchet/protocol-compiler/schema`: the main entry never
 * loads zod; it validates with ajv against the JSON file.
 */
import { z } from 'zod';
import { COMPILE_CONFIG_SCHEMA_URL, PROTOCOL_SCHEMA_URL } from './urls.js';

export { COMPILE_CONFIG_SCHEMA_URL, PROTOCOL_SCHEMA_URL };

const id = z.string().regex(/^[a-z0-9-]+$/);
const names = z.array(z.string().min(1));

// Fields the original Jules system's schemas defined (SynthPlayground's protocols/protocol.schema.json):
// kept and compiled into the JSON block as data. Ratchet never runs a command or code a protocol holds.
export const ProtocolRuleSchema = z.strictObject({
  rule_id: id.describe('Stable id of the rule within the protocol (lowercase letters, digits, dashes).'),
  description: z.string().min(1).describe('What the rule requires, for the agent to read.'),
  enforcement: z.string().min(1).describe('What enforces the rule (a tool, a check, a review).'),
  tags: names.optional().describe("Labels for the rule (the original's `tags`)."),
  associated_tools: names.optional().describe('Tools this rule relies on.'),
  validation_command: z.string().min(1).optional().describe("The original's command that checks the rule: kept as data, never run by Ratchet."),
  executable_code: z.string().optional().describe("The original's executable protocol code: kept as data, never run by Ratchet."),
});

export const ProtocolSchema = z.strictObject({
  $schema: z.string().optional().describe('Editor hint; ignored by the compiler.'),
  protocol_id: id.describe('Unique id across the protocols directory.'),
  version: z.string().min(1).optional().describe("The protocol's own version (the original's schema required it), e.g. 1.0.0."),
  extends: z.string().min(1).optional().describe("The protocol this one builds on (the original's `extends`): recorded, not merged."),
  description: z.string().min(1).describe('One-paragraph summary of the protocol.'),
  rules: z.array(ProtocolRuleSchema).describe('The rules, rendered in this order.'),
  associated_tools: names.optional().describe('Tools the rules rely on; `ratchet ...` commands get their usage embedded.'),
  associated_artifacts: names.optional().describe('Files the protocol reads or writes.'),
  deprecated_tools: names.optional().describe('Tools retired by a lesson: listed so agents know not to use them.'),
  inheritable_rules: z
    .array(z.looseObject({ rule_id: id }))
    .optional()
    .describe("Rules the original marked for child modules to inherit (its `inheritable_rules`): recorded, not merged."),
});

export function protocolJsonSchema(): Record<string, unknown> {
  const schema = z.toJSONSchema(ProtocolSchema, { target: 'draft-7' }) as Record<string, unknown>;
  return { ...schema, $id: PROTOCOL_SCHEMA_URL, title: 'Ratchet protocol source (*.protocol.json)' };
}

/** protocols/compile.json: the targets `ratchet protocol compile` writes when no --out is given. */
export const CompileConfigSchema = z.strictObject({
  $schema: z.string().optional().describe('Editor hint; ignored.'),
  targets: z
    .array(
      z
        .string()
        .min(1)
        // Relative, without ".." segments or NUL: a file in the repository must not make Ratchet write outside it.
        .regex(/^(?![a-zA-Z]:)(?![\\/])(?!(?:.*[\\/])?\.\.(?:[\\/]|$))[^\0]+$/)
        .describe('A target file, relative to the project root (no absolute paths, no "..").'),
    )
    .min(1)
    .describe('Target files (AGENTS.md, CLAUDE.md, ...), relative to the project root; each gets the managed block.'),
});

export function compileConfigJsonSchema(): Record<string, unknown> {
  const schema = z.toJSONSchema(CompileConfigSchema, { target: 'draft-7' }) as Record<string, unknown>;
  return { ...schema, $id: COMPILE_CONFIG_SCHEMA_URL, title: 'Ratchet protocol compile targets (protocols/compile.json)' };
}
