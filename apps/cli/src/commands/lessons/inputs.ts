/**
 * The edge of the lessons area: commander's arguments and options (register.ts defines them)
 * parsed into the typed inputs of src/operations/lessons.ts. The command modules see only these.
 */
import type { ApplyLessonsInput, ExtractLessonsInput, ListLessonsInput, ResolveLessonInput } from '../../operations/lessons.js';
import { LESSONS_FILE, LESSON_STATUSES } from '../../operations/lessons.js';
import { argument, choiceOption, flagOption, stringOption, stringsOption, type OptionBag } from '../../option-values.js';

const isoNow = (): string => new Date().toISOString();

export function listInput(_args: readonly string[], options: OptionBag): ListLessonsInput {
  return { lessonsFile: stringOption(options, 'lessons') ?? LESSONS_FILE, status: choiceOption(options, 'status', LESSON_STATUSES) };
}

export function extractInput(args: readonly string[], options: OptionBag): ExtractLessonsInput {
  return { postmortem: argument(args, 0, 'postmortem'), lessonsFile: stringOption(options, 'lessons') ?? LESSONS_FILE, taskId: stringOption(options, 'task'), now: isoNow() };
}

export function applyInput(_args: readonly string[], options: OptionBag): ApplyLessonsInput {
  return {
    lessonsFile: stringOption(options, 'lessons') ?? LESSONS_FILE,
    protocolsDir: stringOption(options, 'protocols') ?? 'protocols',
    out: stringsOption(options, 'out'),
    ids: stringsOption(options, 'id'),
    dryRun: flagOption(options, 'dryRun'),
    applyCode: flagOption(options, 'applyCode'),
    retryFailed: flagOption(options, 'retryFailed'),
    now: isoNow,
  };
}

export function resolveInput(args: readonly string[], options: OptionBag): ResolveLessonInput {
  return { lessonId: argument(args, 0, 'lesson_id'), note: stringOption(options, 'note') ?? '', lessonsFile: stringOption(options, 'lessons') ?? LESSONS_FILE, now: isoNow() };
}
