/**
 * The types of a knowledge_core/lessons.jsonl line, derived from its zod schema (schema.ts, the one
 * source of the format: it also generates schemas/lesson.schema.json). `import type` only: the main
 * entry validates with the hand-written `checkLesson` and never loads zod.
 */
import type { z } from 'zod';
import type { FileChangeSchema, HistoryEntrySchema, LessonActionSchema, LessonSchema, LessonStatusSchema } from './schema.js';

/**
 * One line of knowledge_core/lessons.jsonl. `lesson_id` names files (knowledge_core/suggestions/<id>.plan);
 * `history`'s first entry says where the lesson was extracted from (file:line); `extra` keeps fields of a
 * line written by the original system that Ratchet's shape has no place for.
 */
export type Lesson = z.infer<typeof LessonSchema>;
/** `manual` lessons wait for a person (`lessons resolve`); `pending` ones for `lessons apply`. */
export type LessonStatus = z.infer<typeof LessonStatusSchema>;
export type LessonAction = z.infer<typeof LessonActionSchema>;
export type ActionCommand = LessonAction['command'];
export type ActionType = LessonAction['type'];
/** One status change: its time (from the injected clock), why, and for `applied` the files changed. */
export type HistoryEntry = z.infer<typeof HistoryEntrySchema>;
/** A file a lesson changed (or checked), with the SHA-256 of its text before (null: absent) and after. */
export type FileChange = z.infer<typeof FileChangeSchema>;
