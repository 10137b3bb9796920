/**
 * The zod schemas (one source of truth per format): the campaign state file, the archive entry and
 * the plan.json input. `scripts/generate.ts` writes schemas/*.schema.json from them; a test fails
 * when those are stale, and another checks the hand-written hot-path validators agree with them.
 * Import through `@ratchet/campaign-dag/schema` only: the main entry never loads zod.
 */
import { CAMPAIGN_PHASES, PHASE_EVENTS } from './phase.js';
import { z } from 'zod';
import { CAMPAIGN_STATUSES, SLUG_PATTERN, TASK_STATUSES, TASK_TYPES } from './types.js';
import { graphIssues } from './validate.js';

export const CAMPAIGN_SCHEMA_URL = 'https://unpkg.com/@ratchet/campaign-dag/schemas/campaign.schema.json';
export const ARCHIVE_SCHEMA_URL = 'https://unpkg.com/@ratchet/campaign-dag/schemas/campaign-archive.schema.json';
export const PLAN_SCHEMA_URL = 'https://unpkg.com/@ratchet/campaign-dag/schemas/plan.schema.json';

interface Meta {
  id?: string;
  title?: string;
  description?: string;
}
/** A private registry (the global one would throw when source and dist are both loaded). */
export const campaignSchemaRegistry = z.registry<Meta>();
const d = <T extends z.ZodType>(schema: T, description: string): T => {
  campaignSchemaRegistry.add(schema, { description });
  return schema;
};

const Seq = z.number().int().min(0).max(999_999_999);

/** A leased claim that expired: its runner stopped heartbeating (crashed, hung, cut off). */
export const LostClaimSchema = z.strictObject({
  runner: z.string(),
  attempt: d(z.number().int().min(1), "1 for the task's first claim."),
  leaseUntil: d(z.string(), 'When the lease ran out (the backend\'s clock).'),
  recoveredAt: d(z.string(), 'When another claim took the task over.'),
});

/** One task of a campaign: the one definition of its fields (types.ts derives `Task` from it). */
export const TaskSchema = z
  .strictObject({
    seq: d(Seq, 'Sequence number, normalised to an integer ("001" in a plan is 1).'),
    slug: d(z.string().regex(SLUG_PATTERN), 'Short name; part of the workspace file name: 1-64 letters, digits, ".", "_" or "-", not starting with "." (so it can never point outside the workspace directory).'),
    type: z.enum(TASK_TYPES),
    description: d(z.string(), 'What the task does (the workspace objective); the campaign objective when absent.').optional(),
    delta: d(z.array(z.string()), 'Project-relative files the task changes.'),
    verify: d(z.string(), 'The command that proves the task done.'),
    budget: z.number().min(0).optional(),
    preflight: z.array(z.string()).optional(),
    depends: d(z.array(Seq), 'Seqs this task waits for (sorted, unique).'),
    status: z.enum(TASK_STATUSES),
    runner: d(z.string(), 'Who claimed the task (ready --claim RUNNER).').optional(),
    reason: d(z.string(), 'Why the task is blocked, or the note of its last update.').optional(),
    blockedBy: d(z.array(Seq), 'Direct parents that made the task unreachable (propagate-blocks).').optional(),
    rootCause: d(Seq, 'The original failure this block cascades from.').optional(),
    cascade: d(z.boolean(), 'true: blocked by propagation; false: an original failure.').optional(),
    updatedAt: z.string().optional(),
    round: d(z.number().int().min(0).max(999_999_999), 'How many times the task went back to pending after a claim or block; names its current claim-queue item ("<seq>", then "<seq>.<round>").').optional(),
    claimItem: d(z.string(), 'The claim-queue item of the current leased claim (ready --claim R --lease 15m).').optional(),
    lostAttempts: d(
      z.array(LostClaimSchema),
      'Leased claims that expired before their runner finished (crashed or stopped heartbeating); another runner took the task over.',
    ).optional(),
  })
  .register(campaignSchemaRegistry, { id: 'Task' });

export const CampaignSchema = z
  .strictObject({
    id: d(z.string().min(1), 'Creation time and objective slug; names the archive entry.'),
    objective: z.string(),
    framework: z.string().nullable(),
    idioms: z.strictObject({ required: z.array(z.string()), forbidden: z.array(z.string()) }),
    createdAt: z.string(),
    status: z.enum(CAMPAIGN_STATUSES),
    tasks: d(z.array(TaskSchema), 'The tasks: a DAG. Every dependency names another task, none twice, no cycles, unique seqs (checked when the file is read; JSON Schema cannot say it).'),
    phase: d(z.enum(CAMPAIGN_PHASES), "FTL's phase: EXPLORE, PLAN, BUILD, OBSERVE, COMPLETE (an fsm-core machine decides the legal changes). Absent in campaigns written before phases: inferred when read.").optional(),
    phaseLog: d(
      z.array(
        z.strictObject({
          event: z.enum([...PHASE_EVENTS, 'inferred']),
          from: z.enum(CAMPAIGN_PHASES).nullable(),
          to: z.enum(CAMPAIGN_PHASES),
          at: z.string(),
          reason: d(z.string(), 'Why (always given for skip_observe).').optional(),
        }),
      ),
      'Every phase change, oldest first.',
    ).optional(),
  })
  // A hand-edited graph that is not a DAG would leave tasks that never become ready: refuse it.
  .superRefine((campaign, ctx) => {
    for (const issue of graphIssues(campaign.tasks)) ctx.addIssue({ code: 'custom', path: [...issue.path], message: issue.message });
  })
  .register(campaignSchemaRegistry, { title: 'Ratchet campaign', description: '.ratchet/campaign.json: the active campaign, written only through @ratchet/store.' });

const SeqInput = z.union([Seq, z.string().regex(/^\s*\d{1,9}\s*$/)]);

/**
 * FTL's task types in any case, as a pattern JSON Schema can carry: a regex flag (`/i`) does not
 * survive into the generated schema, so an editor would refuse the capitals FTL writes.
 */
const CASELESS_TYPE = new RegExp(`^(${['spec', 'build', 'verify'].map((w) => [...w].map((ch) => `[${ch}${ch.toUpperCase()}]`).join('')).join('|')})$`, 'u');

export const PlanSchema = z
  .looseObject({
    objective: d(z.string().min(1), 'Optional: FTL\'s add_tasks never read it (the campaign has its objective).').optional(),
    campaign: d(z.string(), 'The campaign this plan is for (its id or objective); informational.').optional(),
    framework: d(z.string().nullable(), 'The project\'s framework (e.g. "fastapi"), or null; kept with the campaign for builders.').optional(),
    idioms: d(
      z.looseObject({
        required: d(z.array(z.string()), 'Idioms every task must follow.').optional(),
        forbidden: d(z.array(z.string()), 'Idioms no task may use.').optional(),
      }),
      'The framework idioms builders are held to.',
    ).optional(),
    tasks: d(
      z.array(
        z.looseObject({
          seq: d(SeqInput, 'A seq: an integer or a digit string ("001" and 1 are the same).'),
          slug: d(z.string().regex(SLUG_PATTERN), 'Short name, part of the workspace file name: 1-64 letters, digits, ".", "_" or "-", not starting with "."; derived from the description when absent.').optional(),
          type: d(z.string().regex(CASELESS_TYPE), 'SPEC, BUILD or VERIFY, in any case (FTL writes them in capitals).').optional(),
          description: d(z.string(), 'What the task does: the workspace objective (the campaign objective when absent).').optional(),
          delta: d(z.array(z.string()).min(1), 'Project-relative paths; absolute paths and .. out of the project are refused.'),
          verify: d(z.string().min(1), 'The command that proves the task done (run by the builder and the observer).'),
          budget: d(z.number().min(0), 'The builder\'s tool-call budget for the task (FTL gives builders 3-7); a failure\'s memory cost is budget x 1000.').optional(),
          preflight: d(z.array(z.string()), 'Commands to run before building (checks that must pass first).').optional(),
          depends: d(z.union([z.literal('none'), z.null(), SeqInput, z.array(SeqInput)]), '"none", one seq, or a list of seqs.').optional(),
        }),
      ),
      'The tasks to add: their dependencies must form a DAG with the campaign\'s existing tasks.',
    ),
  })
  .register(campaignSchemaRegistry, { title: 'FTL plan.json', description: 'Input of `ratchet campaign add-tasks` (the planner contract).' });

export const ArchiveSchema = z
  .looseObject({
    campaign: CampaignSchema,
    summary: z.looseObject({
      completedAt: d(z.string(), 'When the campaign completed (for one imported from FTL: its completed_at as FTL wrote it).'),
      text: d(z.string(), 'A prose summary (FTL\'s own, for a campaign imported from it).').optional(),
      total: z.number().int(),
      counts: z.strictObject({ pending: z.number().int(), in_progress: z.number().int(), complete: z.number().int(), blocked: z.number().int() }),
      rootFailures: z.array(Seq),
      cascaded: z.array(Seq),
      deltaFiles: z.array(z.string()),
    }),
    ftl: d(
      z.looseObject({ summary: z.unknown().optional(), fingerprint: z.unknown().optional(), patterns_extracted: z.unknown().optional() }),
      'For a campaign imported from FTL: its summary, fingerprint and patterns_extracted as FTL wrote them.',
    ).optional(),
  })
  .register(campaignSchemaRegistry, { title: 'Ratchet campaign archive entry', description: '.ratchet/archive/<id>.json, written by `ratchet campaign complete`.' });

const envelope = (url: string, version: number, schema: Record<string, unknown>): Record<string, unknown> => {
  const props = (schema.properties ?? {}) as Record<string, unknown>;
  const required = Array.isArray(schema.required) ? (schema.required as string[]) : [];
  return { ...schema, $id: url, properties: { $schema: { type: 'string' }, schemaVersion: { const: version }, ...props }, required: ['schemaVersion', ...required] };
};

const toJson = (schema: z.ZodType): Record<string, unknown> => z.toJSONSchema(schema, { target: 'draft-2020-12', metadata: campaignSchemaRegistry, unrepresentable: 'any' });

export function campaignJsonSchema(): Record<string, unknown> {
  return envelope(CAMPAIGN_SCHEMA_URL, 1, toJson(CampaignSchema));
}
export function archiveJsonSchema(): Record<string, unknown> {
  return envelope(ARCHIVE_SCHEMA_URL, 1, toJson(ArchiveSchema));
}
export function planJsonSchema(): Record<string, unknown> {
  return { ...toJson(PlanSchema), $id: PLAN_SCHEMA_URL };
}
