/**
 * zod schemas of the parsed forms (the one source of truth; scripts/generate.ts writes
 * schemas/*.schema.json from them). Import through `@ratchet/jixo-log/schema`: the main entry never loads zod.
 */
import { z } from 'zod';
import { ROLES, TASK_STATUSES, WORK_LOG_RESULTS, type RoadmapItem } from './types.js';

export const LOG_SCHEMA_URL = 'https://unpkg.com/@ratchet/jixo-log/schemas/jixo-log.schema.json';
export const JOB_SCHEMA_URL = 'https://unpkg.com/@ratchet/jixo-log/schemas/jixo-job.schema.json';

/** A private registry (the global one would throw when source and dist are both loaded). */
export const jixoSchemaRegistry = z.registry<{ id?: string; description?: string }>();

export const TaskStatusSchema = z.enum(TASK_STATUSES).register(jixoSchemaRegistry, { id: 'TaskStatus', description: 'Task state: Pending->Locked->Completed|Failed, Locked->Pending, Failed->Pending|Cancelled, Pending->Cancelled.' });

export const RoadmapItemSchema: z.ZodType<RoadmapItem> = z
  .strictObject({
    id: z.string().describe('Leading number of the text (1.2), else the whole text.'),
    text: z.string().describe('Everything after the checkbox.'),
    checked: z.boolean(),
    status: TaskStatusSchema.optional().describe('Absent for phases.'),
    runner: z.string().optional(),
    leaseUntil: z.string().optional().describe('"leaseUntil:" on a Locked task (ISO-8601): the lock is stale once this time has passed. Absent: no lease (stale only when its runner is not active).'),
    dependsOn: z.array(z.string()).optional(),
    statusInferred: z.boolean().optional().describe('The status was read from the checkbox (JIXO v1/v2 checklists have no status line); not written back.'),
    notes: z.array(z.string()).describe('Sub-bullets Ratchet does not understand, verbatim.'),
    get children(): z.ZodArray<z.ZodType<RoadmapItem>> {
      return z.array(RoadmapItemSchema);
    },
  })
  .register(jixoSchemaRegistry, { id: 'RoadmapItem', description: 'A checklist item of the Roadmap: a phase or a task.' });

export const WorkLogEntrySchema = z
  .strictObject({
    number: z.number().int().min(0),
    job: z.string(),
    time: z.string(),
    role: z.string().describe(`Usually one of ${ROLES.join(', ')}.`),
    objective: z.string(),
    result: z.string().describe(`Usually one of ${WORK_LOG_RESULTS.join(', ')}.`),
    summary: z.string(),
    runner: z.string().optional().describe('"**Runner**": the runner that committed the entry.'),
    blocker: z.string().optional().describe('"**Blocker**": on a Pending entry, what the runner needs from a Planner; triage reads this field, not the summary.'),
    extra: z.string().describe('Anything else in the entry, verbatim.'),
    legacy: z.strictObject({ format: z.enum(['v1', 'v3']), text: z.string() }).optional().describe('An entry in an older JIXO layout (v1 bullet, v3 "### Log-N @ time for runner"), kept verbatim.'),
  })
  .register(jixoSchemaRegistry, { id: 'WorkLogEntry', description: 'One "### Log N @Job (time)" entry.' });

export const TasksExitSchema = z
  .strictObject({ code: z.union([z.literal(0), z.literal(1), z.literal(2)]), reason: z.string(), runner: z.string(), time: z.string() })
  .register(jixoSchemaRegistry, { id: 'TasksExit', description: 'The last jixo_tasks_exit: 0 done, 1 error, 2 standby.' });

export const PlannerRoundSchema = z
  .strictObject({ runner: z.string().min(1), leaseUntil: z.string().describe('UTC time; another runner may be elected after it.'), since: z.string() })
  .register(jixoSchemaRegistry, { id: 'PlannerRound', description: 'The elected Planner: Planner moves by an agent are refused unless it is this runner.' });

export const LogFileSchema = z
  .strictObject({
    frontMatter: z.strictObject({
      title: z.string(),
      progress: z.number().min(0).max(1).describe('0..1; the file says "NN%".'),
      createTime: z.string().optional(),
      updateTime: z.string().optional(),
      exit: TasksExitSchema.optional(),
      planner: PlannerRoundSchema.optional(),
      extra: z.record(z.string(), z.unknown()),
    }),
    preamble: z.string(),
    roadmapIntro: z.string(),
    roadmap: z.array(RoadmapItemSchema),
    roadmapOutro: z.string(),
    workLogIntro: z.string(),
    workLog: z.array(WorkLogEntrySchema).describe('Newest first.'),
    sections: z.array(z.strictObject({ title: z.string(), body: z.string() })).describe('Other level-2 sections, verbatim.'),
    roadmapTitle: z.string().optional().describe('The roadmap heading as written when not "Roadmap" (JIXO v1/v2: 工作计划, 工作路线图); "" when the file has none (a JIXO v1 log of entries only).'),
    workLogTitle: z.string().optional().describe('The work log heading as written when not "Work Log" (JIXO v1/v2: 工作日志); "" when the entries have none (JIXO v1: after the plan and a "---" line, or entries only).'),
  })
  .register(jixoSchemaRegistry, { id: 'LogFile', description: 'The parsed form of a JIXO *.log.md file.' });

export const ClarificationSchema = z
  .strictObject({ id: z.string().min(1), toUser: z.string(), question: z.string(), response: z.string(), answered: z.boolean() })
  .register(jixoSchemaRegistry, { id: 'Clarification', description: 'A "### JIXO: CLARIFICATION REQUEST" block.' });

export const JobFileSchema = z
  .strictObject({
    frontMatter: z.strictObject({
      name: z.string().optional(),
      dirs: z.array(z.string()).optional(),
      agents: z.array(z.string()).optional(),
      model: z.string().optional(),
      useLog: z.string().optional(),
      extra: z.record(z.string(), z.unknown()),
    }),
    goal: z.string(),
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
