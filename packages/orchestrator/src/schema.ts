/**
 * The zod schemas of the orchestrator's files, the single source of their JSON Schemas
 * (schemas/*.schema.json, written by scripts/generate.ts). Exposed as `@ratchet/orchestrator/schema`:
 * the main entry validates with the hand-written checks in validate.ts instead, because importing
 * zod costs ~100 ms of CLI start-up and `ratchet run next` runs many times per turn. A property test
 * holds the two to the same verdicts.
 */
import { z } from 'zod';
import { ACTIVITY_LOG_SCHEMA_URL, AGENT_META_SCHEMA_URL, ORIENTATION_REPORT_SCHEMA_URL, SESSION_SCHEMA_URL } from './urls.js';

export { ACTIVITY_LOG_SCHEMA_URL, AGENT_META_SCHEMA_URL, SESSION_SCHEMA_URL };

const text = z.string().min(1);

export const PlanFrameSchema = z.strictObject({
  planPath: text,
  steps: z.array(z.string()),
  current: z.number().int().nonnegative(),
});

export const HistoryEntrySchema = z.strictObject({
  at: text,
  from: text,
  trigger: text,
  to: text,
  message: z.string().optional(),
});

export const ResearchInfoSchema = z.strictObject({
  topic: text,
  planPath: text,
  startedAt: text,
  reportPath: text.describe('The report the research plan creates; `research done` requires it, with content.').optional(),
  from: text.describe('The state the research started in (PLANNING, or EXECUTING with the plan paused); `research done` returns there. Absent: PLANNING.').optional(),
});

export const PostMortemInfoSchema = z.strictObject({
  path: text,
  templateSha256: z.string().regex(/^[0-9a-f]{64}$/),
  outcome: z.enum(['SUCCESS', 'FAILURE']),
});

export const PlanPinsSchema = z.strictObject({
  plans: z.record(z.string(), z.string().regex(/^[0-9a-f]{64}$/)).describe('Plan path -> SHA-256 of the text `run plan` linted.'),
  registry: z.record(z.string(), text).describe('The plan registry `run plan` linted with (name -> plan path): the run resolves call_plan names through it.'),
});

export const FrameExpansionSchema = z.strictObject({
  plan: text.describe('The plan the frame runs.'),
  loops: z.array(z.array(text)).describe('The files each for_each_file of the frame iterates, in the order the frame reaches them.'),
});

const sha256 = z.string().regex(/^[0-9a-f]{64}$/);

export const StepBaselineSchema = z.strictObject({
  planPath: text.describe('The plan of the step the baseline belongs to.'),
  index: z.number().int().nonnegative().describe('The step\'s index in its plan.'),
  line: text.describe('The step\'s line.'),
  path: text.describe('Project-relative path of the file the step names.'),
  sha256: sha256.nullable().describe('SHA-256 of the file when the step became current; null: it did not exist.'),
  expected: sha256.describe('SHA-256 of the file once the known diff of a code-change plan is applied.').optional(),
  diff: text.describe('The diff file `expected` comes from.').optional(),
});

/** The session without the store's envelope keys ($schema, schemaVersion). */
export const SessionSchema = z.strictObject({
  taskId: text,
  sessionId: text.optional(),
  state: text,
  stack: z.array(PlanFrameSchema),
  history: z.array(HistoryEntrySchema),
  createdAt: text,
  updatedAt: text,
  research: ResearchInfoSchema.optional(),
  postMortem: PostMortemInfoSchema.optional(),
  pins: PlanPinsSchema.optional(),
  expansion: z
    .record(z.string(), FrameExpansionSchema)
    .describe('Frame position (the step indexes of the call_plan lines leading to it, "/"-separated; "" is the entry plan) -> what lint\'s simulated file system matched for its for_each_file lines. Frames are removed as they load; absent in sessions written before it existed.')
    .optional(),
  registry: text.describe('The plan registry `run plan --registry` named, project-relative (call_plan names resolve through it while the plan runs); absent: knowledge_core/plan_registry.json.').optional(),
  stepBaseline: StepBaselineSchema.describe('The current step\'s file as it was when the step became current: `run done` checks the step changed it.').optional(),
});

/** One line of logs/activity.log.jsonl: the seed's LOGGING_SCHEMA fields. */
export const ActivityEntrySchema = z.strictObject({
  log_id: text.describe('Unique id of this entry (UUID v4).'),
  session_id: text.describe('The `task start` run this entry belongs to.'),
  timestamp: text.describe('ISO 8601 time.'),
  phase: text.describe('The lifecycle state when the action happened (ORIENTING, PLANNING, EXECUTING, ...).'),
  task: z.strictObject({
    id: text,
    plan_step: z.number().int().nonnegative().nullable().describe('Index of the step in its plan, or null outside a plan.'),
  }),
  action: z.strictObject({
    type: text.describe('TASK_START, PLAN_ACCEPTED, PLAN_REJECTED, STEP_COMPLETE, STEP_FAILED, RESEARCH_START, RESEARCH_END, TASK_END, TASK_SUBMIT'),
    details: z.record(z.string(), z.unknown()),
  }),
  outcome: z.strictObject({
    status: z.enum(['SUCCESS', 'FAILURE', 'INFO']),
    message: z.string(),
  }),
  actor: z
    .strictObject({
      via: z.enum(['mcp', 'shell']).describe('The channel: an MCP tool call, or the command line.'),
      role: z.enum(['agent', 'user']).optional().describe('Who acted, as the harness pinned it (RATCHET_ACTOR, the MCP server, the agent sandbox); absent when nothing pinned it.'),
      tool_use_id: text.optional().describe("The harness's id of the tool call that ran the command, when the channel says."),
    })
    .optional()
    .describe('Who made this entry and through which channel (absent in entries written before Ratchet recorded it).'),
});

/**
 * knowledge_core/agent_meta.json: who the agent is (orientation level 1). Jules repositories name
 * the agent `model_name` instead of `name`; either is accepted (orientation.ts reads one as the other).
 */
export const AgentMetaSchema = z
  .object({
    $schema: z.string().optional().describe('The JSON Schema this file follows (for editors).'),
    name: text.optional().describe('The agent this repository is set up for (shown at orientation level 1). Required unless model_name is given.'),
    model_name: text.optional().describe("The agent's model, as Jules repositories write it; stands in for name when name is absent."),
    knowledge_cutoff: z.string().optional().describe("The model's training cutoff (Jules' agent meta), e.g. 2024-06."),
    version: z.string().optional().describe("The agent's or its configuration's version."),
    description: z.string().optional().describe('What the agent is for, in a sentence or two.'),
    capabilities: z.array(z.string()).optional().describe('What the agent can do (tools, languages), one item each.'),
    limitations: z.array(z.string()).optional().describe('What the agent cannot or must not do, one item each.'),
  })
  .catchall(z.unknown())
  .refine((meta) => meta.name !== undefined || meta.model_name !== undefined, { message: 'needs "name" (or "model_name")', path: ['name'] })
  .meta({ anyOf: [{ required: ['name'] }, { required: ['model_name'] }] });

const ms = z.number().nonnegative();
const lessonRef = z.strictObject({ id: text, taskId: text, insight: z.string() });

/** .ratchet/orientation.json: what `ratchet task start` found at each level of the cascade. */
export const OrientationReportSchema = z.strictObject({
  $schema: z.string(),
  schemaVersion: z.literal(1),
  taskId: text,
  sessionId: text.optional(),
  generatedAt: text.describe('ISO 8601 time the cascade ran.'),
  level1: z.strictObject({ path: text.describe('knowledge_core/agent_meta.json'), agent: AgentMetaSchema }).describe('Self-awareness: who the agent is.'),
  level2: z
    .strictObject({
      artifacts: z.array(
        z.strictObject({
          path: text,
          kind: z.enum(['json', 'jsonl', 'markdown', 'other']),
          bytes: z.number().int().nonnegative(),
          ok: z.boolean(),
          items: z.number().int().nonnegative().optional().describe('Records of a .jsonl, top-level keys of a .json object, headings of a .md.'),
          error: z.string().optional().describe('Why the artifact could not be loaded, with its line where known.'),
        }),
      ),
      truncated: z.boolean().describe('More artifacts than the cascade summarises (500).'),
      review: z
        .strictObject({
          lastPostMortem: z
            .strictObject({
              path: text,
              taskId: text.optional(),
              outcome: text.optional().describe('As the header says: success, failure, ...'),
              endedAt: text.optional(),
              summary: text.optional().describe('The Summary section on one line; absent while it is the unfilled template.'),
            })
            .nullable()
            .describe('The most recent postmortems/*.md (by its Ended time), or null when there is none.'),
          pendingLessons: z.array(lessonRef).describe('Lessons `ratchet lessons apply` has not carried out.'),
          manualLessons: z.array(lessonRef).describe('Lessons waiting for a person (`ratchet lessons resolve`).'),
          openSuggestions: z.array(z.strictObject({ lessonId: text, plan: text, file: text })).describe('Code suggestion plans whose diff still applies: the change is not in the code yet.'),
          errors: z.array(z.string()).describe('What could not be read, with the file.'),
        })
        .describe('What the last tasks left: the last post-mortem, pending and manual lessons, open code suggestions.'),
    })
    .describe('Repository sync: every knowledge_core/ artifact, loaded and summarised, and a review of what the last tasks left.'),
  level3: z
    .strictObject({
      filesystem: z.strictObject({ ok: z.boolean(), writeMs: ms.optional(), readMs: ms.optional(), deleteMs: ms.optional(), error: z.string().optional() }),
      network: z.strictObject({ skipped: z.boolean(), target: z.string().optional(), ok: z.boolean().optional(), ms: ms.optional(), error: z.string().optional() }),
      environment: z.strictObject({ present: z.array(z.string()), missing: z.array(z.string()) }).describe('Names of standard variables only, never values.'),
    })
    .describe('Environment probe.'),
});

function toJson(schema: z.ZodType, id: string, title: string): Record<string, unknown> {
  const { $schema, ...rest } = z.toJSONSchema(schema, { target: 'draft-2020-12' }) as Record<string, unknown>;
  return { $schema, $id: id, title, ...rest };
}

export const sessionJsonSchema = (): Record<string, unknown> => {
  const base = toJson(SessionSchema, SESSION_SCHEMA_URL, 'Ratchet orchestrator session (.ratchet/session.json)');
  const properties = base.properties as Record<string, unknown>;
  return {
    ...base,
    properties: { $schema: { type: 'string' }, schemaVersion: { type: 'integer', const: 1 }, ...properties },
    required: ['schemaVersion', ...(base.required as string[])],
  };
};
export const activityEntryJsonSchema = (): Record<string, unknown> => toJson(ActivityEntrySchema, ACTIVITY_LOG_SCHEMA_URL, 'Ratchet activity log entry (one line of logs/activity.log.jsonl)');
export const agentMetaJsonSchema = (): Record<string, unknown> => toJson(AgentMetaSchema, AGENT_META_SCHEMA_URL, 'Ratchet agent meta (knowledge_core/agent_meta.json)');
export const orientationReportJsonSchema = (): Record<string, unknown> => toJson(OrientationReportSchema, ORIENTATION_REPORT_SCHEMA_URL, 'Ratchet orientation report (.ratchet/orientation.json)');
