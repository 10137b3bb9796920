/**
 * zod schemas of the parsed forms (the one source of truth; scripts/generate.ts writes
 * schemas/*.schema.json from them). Import through `@ratchet/jixo-log/schema`: the main entry never loads zod.
 */
import { z } from 'zod';
import { ROLES, TASK_STATUSES, WORK_LOG_RESULTS } from './types.js';

export const LOG_SCHEMA_URL = 'https://unpkg.com/@ratchet/jixo-log/schemas/jixo-log.schema.json';
export const JOB_SCHEMA_URL = 'https://unpkg.com/@ratchet/jixo-log/schemas/jixo-job.schema.json';

/** A private registry (the global one would throw when source and dist are both loaded). */
export const jixoSchemaRegistry = z.registry<{ id?: string; description?: string }>();

export const TaskStatusSchema = z.enum(TASK_STATUSES).register(jixoSchemaRegistry, { id: 'TaskStatus', description: 'Task state: Pending->Locked->Completed|Failed, Locked->Pending, Failed->Pending|Cancelled, Pending->Cancelled.' });

// Built before it is registered: the getter's annotation can name a plain object type, where the
// registered chain would make the type refer to itself.
const RoadmapItemObject = z.strictObject({
    id: z.string().describe('Leading number of the text (`1.2` for `1.2. Move code`), else the whole text. Derived from `text`.'),
    text: z.string().describe('Everything after the checkbox, as written (`1.2. Move shared code to `packages/core``).'),
    checked: z.boolean(),
    status: TaskStatusSchema.optional().describe('Absent for phases.'),
    runner: z.string().optional(),
    leaseUntil: z
      .string()
      .optional()
      .describe(
        '"leaseUntil:" (ISO-8601) on a Locked task: the runner holds the task until then unless it renews the lease; once it has passed, the task is recoverable from any host (stale). Absent (logs written before leases, or by hand): never expires by time, stale only when its runner is not active.',
      ),
    dependsOn: z.array(z.string()).optional(),
    statusInferred: z
      .boolean()
      .optional()
      .describe('True when the file has no "status:" sub-bullet and the status was read from the checkbox (JIXO v1/v2 checklists): [x] Completed, [ ] Pending. Not written back; the audit does not ask for its entry.'),
    notes: z.array(z.string()).describe('Sub-bullets and lines Ratchet does not understand, kept verbatim (de-indented to the item).'),
    get children(): z.ZodArray<typeof RoadmapItemObject> {
      return z.array(RoadmapItemObject);
    },
  });
export const RoadmapItemSchema = RoadmapItemObject.register(jixoSchemaRegistry, { id: 'RoadmapItem', description: 'A checklist item of the Roadmap: a phase or a task.' });

export const WorkLogEntrySchema = z
  .strictObject({
    number: z.number().int().min(0),
    job: z.string(),
    time: z.string(),
    role: z.string().describe(`Usually one of ${ROLES.join(', ')}.`),
    objective: z.string(),
    result: z.string().describe(`Usually one of ${WORK_LOG_RESULTS.join(', ')}.`),
    summary: z.string(),
    runner: z.string().optional().describe('"**Runner**": the runner that committed the entry (absent in entries written by hand or before 0.x).'),
    blocker: z
      .string()
      .optional()
      .describe('"**Blocker**": on a Pending entry, what the runner cannot go on without (from a Planner). Triage reads this field, never the summary: a Pending entry without it is a normal pause the next runner continues.'),
    extra: z.string().describe('Anything else in the entry, verbatim.'),
    legacy: z
      .strictObject({ format: z.enum(['v1', 'v3']), text: z.string() })
      .optional()
      .describe('An entry in an older JIXO layout (v1 bullet with sub-bullets, v3 "### Log-N @ time for runner" heading), kept byte for byte; new entries are always written in the current layout.'),
  })
  .register(jixoSchemaRegistry, { id: 'WorkLogEntry', description: 'One "### Log N @Job (time)" entry.' });

export const TasksExitSchema = z
  .strictObject({ code: z.union([z.literal(0), z.literal(1), z.literal(2)]), reason: z.string(), runner: z.string(), time: z.string() })
  .register(jixoSchemaRegistry, { id: 'TasksExit', description: 'The last jixo_tasks_exit: 0 done, 1 error, 2 standby.' });

export const PlannerRoundSchema = z
  .strictObject({ runner: z.string().min(1), leaseUntil: z.string().describe('UTC time; another runner may be elected after it.'), since: z.string() })
  .register(jixoSchemaRegistry, { id: 'PlannerRound', description: 'The elected Planner: Planner moves by an agent are refused unless it is this runner.' });

/** The front matter of a *.log.md file. */
export const LogFrontMatterSchema = z.strictObject({
  title: z.string(),
  progress: z.number().min(0).max(1).describe('0..1; the file says "NN%".'),
  createTime: z.string().optional(),
  updateTime: z.string().optional(),
  exit: TasksExitSchema.optional(),
  planner: PlannerRoundSchema.optional(),
  extra: z.record(z.string(), z.unknown()).describe('Unknown keys, kept in order.'),
});

/** A level-2 section Ratchet does not own, kept verbatim. */
export const ExtraSectionSchema = z.strictObject({ title: z.string(), body: z.string() });

export const LogFileSchema = z
  .strictObject({
    frontMatter: LogFrontMatterSchema,
    preamble: z.string().describe('Text between the front matter and the first "##" heading.'),
    roadmapIntro: z.string().describe('Text in "## Roadmap" before the checklist.'),
    roadmap: z.array(RoadmapItemSchema),
    roadmapOutro: z.string().describe('Text in "## Roadmap" after the checklist.'),
    workLogIntro: z.string(),
    workLog: z.array(WorkLogEntrySchema).describe('Newest first, as the seed writes them.'),
    sections: z.array(ExtraSectionSchema).describe('Other level-2 sections, verbatim.'),
    roadmapTitle: z.string().optional().describe('The roadmap heading as written when not "Roadmap" (JIXO v1/v2: 工作计划, 工作路线图); "" when the file has none (a JIXO v1 log of entries only).'),
    workLogTitle: z.string().optional().describe('The work log heading as written when not "Work Log" (JIXO v1/v2: 工作日志); "" when the entries have none (JIXO v1: after the plan and a "---" line, or entries only).'),
  })
  .register(jixoSchemaRegistry, { id: 'LogFile', description: 'The parsed form of a JIXO *.log.md file.' });

export const ClarificationSchema = z
  .strictObject({ id: z.string().min(1), toUser: z.string(), question: z.string(), response: z.string().describe('The response text, without the placeholder comment; empty when unanswered.'), answered: z.boolean() })
  .register(jixoSchemaRegistry, { id: 'Clarification', description: 'A "### JIXO: CLARIFICATION REQUEST" block.' });

/** The front matter of a *.job.md file. */
export const JobFrontMatterSchema = z.strictObject({
  name: z.string().optional(),
  dirs: z.array(z.string()).optional(),
  agents: z.array(z.string()).optional(),
  model: z.string().optional(),
  useLog: z.string().optional(),
  extra: z.record(z.string(), z.unknown()),
});

export const JobFileSchema = z
  .strictObject({
    frontMatter: JobFrontMatterSchema,
    goal: z.string().describe('The body without clarification blocks: the job\'s goal.'),
    clarifications: z.array(ClarificationSchema),
  })
  .register(jixoSchemaRegistry, { id: 'JobFile', description: 'The parsed form of a JIXO *.job.md file.' });

function toJson(schema: z.ZodType, id: string, url: string): Record<string, unknown> {
  const json = z.toJSONSchema(schema, { metadata: jixoSchemaRegistry, target: 'draft-2020-12', io: 'output', unrepresentable: 'any' }) as Record<string, unknown>;
  return { $schema: 'https://json-schema.org/draft/2020-12/schema', $id: url, title: id, ...json };
}

export function logJsonSchema(): Record<string, unknown> {
  return toJson(LogFileSchema, 'JIXO log (parsed)', LOG_SCHEMA_URL);
}
export function jobJsonSchema(): Record<string, unknown> {
  return toJson(JobFileSchema, 'JIXO job (parsed)', JOB_SCHEMA_URL);
}
