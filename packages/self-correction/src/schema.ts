/**
 * The zod schema of a lessons.jsonl line: the one source of truth for schemas/lesson.schema.json
 * (`scripts/generate.ts`). The main entry validates with the hand-written `checkLesson` instead, so
 * the CLI never loads zod; a test checks the two agree.
 */
import { z } from 'zod';

export const LESSON_SCHEMA_URL = 'https://unpkg.com/@ratchet/self-correction/schemas/lesson.schema.json';

const text = z.string().min(1);
/** Lesson ids name files: no path separators, no leading dot, bounded length. */
export const LESSON_ID = /^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$/;
export const LessonStatusSchema = z.enum(['pending', 'applied', 'failed', 'manual', 'resolved']);

export const LessonActionSchema = z.discriminatedUnion('command', [
  z.strictObject({ type: z.literal('UPDATE_PROTOCOL'), command: z.literal('add-tool'), parameters: z.strictObject({ protocol_id: text, tool: text }) }),
  z.strictObject({ type: z.literal('UPDATE_PROTOCOL'), command: z.literal('deprecate-tool'), parameters: z.strictObject({ protocol_id: text, tool: text }) }),
  z.strictObject({
    type: z.literal('UPDATE_PROTOCOL'),
    command: z.literal('update-rule'),
    parameters: z.strictObject({ protocol_id: text, rule_id: text, description: text }),
  }),
  z.strictObject({ type: z.literal('PROPOSE_CODE_CHANGE'), command: z.literal('propose-code-change'), parameters: z.strictObject({ filepath: text, diff: text }) }),
  z.strictObject({ type: z.literal('MANUAL'), command: z.literal('manual'), parameters: z.strictObject({ text: z.string(), note: z.string().optional() }) }),
]);

const SHA256 = z.string().regex(/^[0-9a-f]{64}$/);

export const FileChangeSchema = z.strictObject({
  file: text.describe('Project-relative path of a file the lesson changed (or checked: an edit already in place).'),
  before: SHA256.nullable().describe('SHA-256 of its text before; null when it did not exist.'),
  after: SHA256.describe('SHA-256 of its text after.'),
});

export const HistoryEntrySchema = z.strictObject({
  status: LessonStatusSchema,
  time: text,
  reason: z.string(),
  changes: z
    .array(FileChangeSchema)
    .optional()
    .describe('The application record `lessons apply` writes on an applied entry: what it changed, which file, before/after digests.'),
});

export const LessonSchema = z.strictObject({
  lesson_id: z
    .string()
    .regex(LESSON_ID)
    .describe('Stable id: a hash of the task, the insight and the action, so re-extraction adds nothing. It names files, so no path separators.'),
  task_id: text,
  date: z.string().regex(/^\d{4}-\d{2}-\d{2}$/).describe("The post-mortem's completion date, else the day of extraction (YYYY-MM-DD)."),
  insight: z.string().describe('The lesson, as written after **Lesson:**.'),
  action: LessonActionSchema,
  status: LessonStatusSchema,
  history: z.array(HistoryEntrySchema).describe('The audit trail: every status change with its time and reason.'),
  extra: z
    .record(z.string(), z.unknown())
    .optional()
    .describe("Fields of a line the original system wrote that Ratchet's shape has no place for (category, severity, failure, ...), kept as they were."),
});

export function lessonJsonSchema(): Record<string, unknown> {
  const schema = z.toJSONSchema(LessonSchema, { target: 'draft-7' }) as Record<string, unknown>;
  return { ...schema, $id: LESSON_SCHEMA_URL, title: 'Ratchet lesson (one line of knowledge_core/lessons.jsonl)' };
}
