/**
 * The zod schemas (the one source of truth for the documented formats): flow files and session
 * files. `scripts/generate.ts` turns them into schemas/*.schema.json; a test fails when those are
 * stale, and another runs the same corpus through these schemas and the hand-written validators
 * (validate-flow.ts, session-file.ts) the CLI uses, so the two cannot drift. Import through
 * `@ratchet/flows/schema` only: the main entry never loads zod.
 *
 * What JSON Schema cannot say (ids that exist, a LINEAR first step, reachability, placeholders)
 * is checked by `checkFlow` only.
 */
import { z } from 'zod';
import { SESSION_ID } from './ids.js';
import { FLOW_ID, FLOW_SCHEMA_URL, MAX_LOOP_LIMIT, STEP_ID } from './validate-flow.js';
import { SESSION_SCHEMA_URL, SESSION_VERSION } from './session-file.js';
import { LEDGER_SCHEMA_URL, LEDGER_VERSION } from './ledger.js';
import { FLOW_SETTINGS_SCHEMA_URL, MAX_DIRECTIVE_LINE, MAX_DIRECTIVE_WARNINGS } from './settings.js';
import { FLOW_KINDS, SESSION_MODES, SESSION_STATUSES, STEP_TYPES, VERDICTS, type SkipCondition } from './types.js';

interface Meta {
  id?: string;
  title?: string;
  description?: string;
}
/** A private registry (the global one would throw when source and dist are both loaded). */
export const flowsSchemaRegistry = z.registry<Meta>();
const d = <T extends z.ZodType>(schema: T, description: string): T => {
  flowsSchemaRegistry.add(schema, { description });
  return schema;
};

const nonEmpty = (): z.ZodString => z.string().regex(/\S/);
const varName = (): z.ZodString => z.string().regex(/^[A-Za-z][A-Za-z0-9_]*$/);
const stepId = (): z.ZodString => z.string().regex(STEP_ID);

export const GateSchema = z
  .strictObject({
    artifact: d(nonEmpty(), 'Project-relative path template: {task}, {session}, {flow}, {step}, {iteration}, declared inputs; {agent} in agent gates, {from}/{to} in the transition gate, {branch} in branch gates. Never absolute, never "..".'),
    minLength: d(z.number().int().min(0).max(10_000_000), 'Minimum length in characters (default 1).').optional(),
    headings: d(z.array(z.string().regex(/^[^\r\n]*\S[^\r\n]*$/)), 'Lines the file must contain exactly.').optional(),
  })
  .register(flowsSchemaRegistry, { id: 'Gate' });

export const SkipConditionSchema: z.ZodType<SkipCondition> = z
  .union([
    z.strictObject({ mode: z.enum(SESSION_MODES) }),
    z.strictObject({ input: varName(), equals: z.string().optional() }),
    z.strictObject({
      get not(): z.ZodType<SkipCondition> {
        return SkipConditionSchema;
      },
    }),
  ])
  .register(flowsSchemaRegistry, { id: 'SkipCondition', description: 'When an OPTIONAL step is skipped on entry.' });

export const BranchSchema = z
  .strictObject({
    id: stepId(),
    title: nonEmpty(),
    agent: d(stepId(), 'The agent the branch invokes through the Task tool.').optional(),
    gates: z.array(GateSchema).optional(),
  })
  .register(flowsSchemaRegistry, { id: 'Branch' });

export const StepSchema = z
  .strictObject({
    id: d(stepId(), 'Step or phase id ("0", "3b", "1.5").'),
    title: nonEmpty(),
    type: d(z.enum(STEP_TYPES), 'Default LINEAR. The first step must be LINEAR.').optional(),
    content: d(nonEmpty(), 'Markdown file, relative to the flow file.'),
    next: d(z.union([z.string(), z.null()]), 'The next step; null ends the flow. Default: the following step, or the end.').optional(),
    agent: d(stepId(), 'The agent this step invokes through the Task tool.').optional(),
    atomicSkill: nonEmpty().optional(),
    iterationAgents: d(z.array(stepId()), 'ITERATIVE: further agents each iteration invokes.').optional(),
    loopTo: d(z.string(), 'ITERATIVE: where `advance --loop` goes (default: this step).').optional(),
    maxIterations: d(z.number().int().min(1).max(MAX_LOOP_LIMIT), 'ITERATIVE: loop-backs allowed (default 3).').optional(),
    remediationTarget: d(z.string(), 'REMEDIATION: where `advance --remediate` goes.').optional(),
    maxRemediation: d(z.number().int().min(1).max(MAX_LOOP_LIMIT), 'REMEDIATION: remediations allowed (default 3).').optional(),
    branches: d(z.array(BranchSchema), 'PARALLEL: branches completed with `complete-branch`.').optional(),
    skip: SkipConditionSchema.optional(),
    verdictFrom: d(nonEmpty(), 'REMEDIATION: the file whose "Verdict: PASS|FAIL" line decides the step (default: the memory file of its agent).').optional(),
    requires: d(z.array(varName()), 'Variables that must be set (--input/--set) before leaving the step.').optional(),
    haltOnQuestions: d(z.boolean(), 'Recording clarifying questions here halts the session.').optional(),
    // The step is left only while this holds; otherwise the agent asks the user (needs haltOnQuestions).
    haltUnless: SkipConditionSchema.optional(),
    output: d(
      z.strictObject({
        minLength: d(z.number().int().min(1).max(1_000_000), 'Minimum length in characters (default 1).').optional(),
        headings: d(z.array(z.string().regex(/^[^\r\n]*\S[^\r\n]*$/)), 'Lines the output must contain, outside code fences.').optional(),
      }),
      'The step hands in its output (advance --output FILE, or - for standard input); the session keeps it in stepOutputs.',
    ).optional(),
    gates: z.array(GateSchema).optional(),
  })
  .register(flowsSchemaRegistry, { id: 'Step' });

export const FlowSchema = z
  .strictObject({
    $schema: z.string().optional(),
    schemaVersion: z.literal(1).optional(),
    id: d(z.string().regex(FLOW_ID), 'Flow name: lowercase letters, digits, "-".'),
    title: nonEmpty(),
    description: nonEmpty().optional(),
    semanticTrigger: d(z.string().regex(/^\P{Cc}*\S\P{Cc}*$/u), 'What requests the flow is for, by meaning: the routing table shown by `ratchet flow list` (the original\'s semantic_trigger).').optional(),
    notFor: d(z.string().regex(/^\P{Cc}*\S\P{Cc}*$/u), 'What the flow is not for, though it may look like it (the original\'s not_for).').optional(),
    kind: d(z.enum(FLOW_KINDS), 'protocol (default) or skill: a skill needs agentGate, transitionGate and an agent per phase.').optional(),
    start: d(z.string(), 'First step (default: the first in the list).').optional(),
    inputs: z
      .record(
        varName(),
        z.strictObject({
          description: nonEmpty().optional(),
          required: z.boolean().optional(),
          default: z.string().optional(),
          values: d(
            z.union([z.literal('flows'), z.array(z.string().regex(/^\P{Cc}+$/u)).min(1)]),
            'The values the input may take (checked on --input and --set): a list, or "flows": the name of a flow the runner knows (a route to the flow to run next).',
          ).optional(),
        }),
      )
      .optional(),
    agentGate: d(GateSchema, 'Checked once per agent a step invokes ({agent}).').optional(),
    transitionGate: d(GateSchema, "The memory agent's file, checked at every step-to-step transition ({from}, {to}).").optional(),
    learningsGate: d(GateSchema, "A skill's learnings ({task}, {session}, {flow}, inputs): after the last phase the session is LEARNINGS_PENDING until this file holds, then FULLY_COMPLETE. Required for skills.").optional(),
    onComplete: d(z.string().regex(/^\P{Cc}*\S\P{Cc}*$/u), 'Command template printed as the directive when the flow completes.').optional(),
    directive: z.strictObject({ heading: z.string().optional(), warnings: z.array(z.string()).optional() }).optional(),
    steps: z.array(StepSchema).min(1),
  })
  .register(flowsSchemaRegistry, { title: 'Ratchet flow', description: 'Steps or phases with gates; see @ratchet/flows.' });

const count = z.number().int().min(0);
/** The session document without the store's envelope. */
export const SessionDataSchema = z
  .strictObject({
    sessionId: z.string().regex(SESSION_ID),
    flow: z.strictObject({ id: z.string(), ref: d(z.string(), 'How the CLI finds the flow again: name:<name> or file:<path>.') }),
    mode: z.enum(SESSION_MODES),
    status: z.enum(SESSION_STATUSES),
    current: z.union([z.string(), z.null()]),
    vars: z.record(z.string(), z.string()),
    visits: z.record(z.string(), count),
    iterations: z.record(z.string(), count),
    remediations: z.record(z.string(), count),
    branches: z.record(z.string(), z.array(z.string())),
    notes: z.record(z.string(), z.array(z.string())),
    haltReason: z.union([z.string(), z.null()]),
    clarificationQuestions: d(z.array(z.string()), 'The questions of the last clarification halt; kept after resume.'),
    clarificationAnswers: d(z.array(z.string()), "The user's answers to them, one per question; empty while they are open."),
    history: z.array(
      z.strictObject({
        event: z.enum(['start', 'enter', 'skip', 'leave', 'loop', 'remediate', 'branch', 'halt', 'resume', 'complete', 'set', 'learnings', 'decline']),
        step: z.union([z.string(), z.null()]),
        at: z.string(),
        to: z.union([z.string(), z.null()]).optional(),
        detail: z.string().optional(),
      }),
    ),
    revision: count,
    baseline: d(z.record(z.string(), z.union([z.string(), z.null()])), "What the current step's artifacts held when it was entered (artifact -> content digest; null: absent)."),
    stepOutputs: d(
      z.record(z.string(), z.array(z.strictObject({ visit: z.number().int().min(1), text: z.string(), digest: z.string(), at: z.string() }))),
      'What each step handed in with advance --output, every visit.',
    ),
    then: d(z.array(z.string().regex(FLOW_ID)), 'Flows to run after this one, in order (start --then, advance --then).'),
    verdicts: d(
      z.record(
        z.string(),
        z.array(
          z.strictObject({
            visit: z.number().int().min(1),
            verdict: z.enum(VERDICTS),
            at: z.string(),
            report: d(z.string(), 'Digest of the report without its verdict lines: a FAIL report edited to PASS has the same one, and is refused.').optional(),
          }),
        ),
      ),
      'The verdict each REMEDIATION step read from its verdict file, every visit.',
    ),
    handoff: d(
      z.strictObject({
        flow: d(z.string().regex(FLOW_ID), 'The flow the completion directive starts (the route, or the next queued flow).'),
        session: d(z.string().regex(SESSION_ID), 'The session it starts it as.'),
        declined: d(z.strictObject({ reason: z.string(), at: z.string() }), "The user's decision not to start it (ratchet flow decline).").optional(),
      }),
      'What a finished session hands over to: until that session exists or the user declined it, the work is not done.',
    ).optional(),
  })
  .register(flowsSchemaRegistry, { title: 'Ratchet flow session', description: '.ratchet/flows/<session>.json' });

/** `.ratchet/flow-artifacts.json`: every artifact and step output a gate accepted, by digest. */
export const LedgerDataSchema = z
  .strictObject({
    accepted: z.array(
      z.strictObject({
        digest: d(z.string(), 'contentDigest of the accepted text.'),
        session: z.string(),
        step: d(z.string(), 'The step it was accepted for; "(learnings)" for a skill\'s learnings.'),
        visit: d(z.number().int().min(1), 'Which visit of the step (loops and remediations enter it again).'),
        artifact: d(z.string(), 'The artifact path, or "step N output".'),
        at: z.string(),
      }),
    ),
  })
  .register(flowsSchemaRegistry, { title: 'Ratchet flow artifact ledger', description: '.ratchet/flow-artifacts.json' });

const directiveLine = (): z.ZodString => z.string().regex(/^[^\p{Cc}]*\S[^\p{Cc}]*$/u).max(MAX_DIRECTIVE_LINE);

/** `protocols/flow-settings.json`: project-wide flow settings (the CLI reads it for every flow command). */
export const FlowSettingsSchema = z
  .strictObject({
    $schema: z.string().optional(),
    schemaVersion: z.literal(1).optional(),
    directive: d(
      z.strictObject({
        heading: d(directiveLine(), 'First line of every directive, e.g. "**NEXT COMMAND (required):**".').optional(),
        warnings: d(z.array(directiveLine()).max(MAX_DIRECTIVE_WARNINGS), 'Lines printed after the command (may be empty).').optional(),
      }),
      "Replaces Ratchet's directive wording for every flow that sets no directive of its own (a flow's own directive wins).",
    ).optional(),
    memoryFiles: d(
      z.strictObject({
        agent: d(directiveLine(), 'Path template of every agent memory file: {task}, {task-id}, {session}, {flow}, {step}, {iteration}, {agent}, {role} (the agent name without "-agent").').optional(),
        transition: d(directiveLine(), "Path template of the memory agent's transition files: {task}, {task-id}, {session}, {flow}, {step}, {iteration}, {from}, {to}.").optional(),
        learnings: d(directiveLine(), "Path template of a skill's learnings file: {task}, {task-id}, {session}, {flow}.").optional(),
      }),
      "The project's memory-file names, for every flow's agent, transition and learnings gates (their length and sections stay the flow's).",
    ).optional(),
  })
  .register(flowsSchemaRegistry, { title: 'Ratchet flow settings', description: 'protocols/flow-settings.json: project-wide settings for `ratchet flow`.' });

function toJson(schema: z.ZodType, id: string): Record<string, unknown> {
  const generated = z.toJSONSchema(schema, { target: 'draft-2020-12', metadata: flowsSchemaRegistry }) as Record<string, unknown>;
  const { $schema, ...rest } = generated;
  return { $schema, $id: id, ...rest };
}

export function flowJsonSchema(): Record<string, unknown> {
  return toJson(FlowSchema, FLOW_SCHEMA_URL);
}

export function flowSettingsJsonSchema(): Record<string, unknown> {
  return toJson(FlowSettingsSchema, FLOW_SETTINGS_SCHEMA_URL);
}

export function sessionJsonSchema(): Record<string, unknown> {
  const file = z
    .strictObject({ $schema: z.string().optional(), schemaVersion: z.literal(SESSION_VERSION), ...SessionDataSchema.shape })
    .register(flowsSchemaRegistry, { title: 'Ratchet flow session', description: '.ratchet/flows/<session>.json' });
  return toJson(file, SESSION_SCHEMA_URL);
}

export function ledgerJsonSchema(): Record<string, unknown> {
  const file = z
    .strictObject({ $schema: z.string().optional(), schemaVersion: z.literal(LEDGER_VERSION), ...LedgerDataSchema.shape })
    .register(flowsSchemaRegistry, { title: 'Ratchet flow artifact ledger', description: '.ratchet/flow-artifacts.json' });
  return toJson(file, LEDGER_SCHEMA_URL);
}
