/**
 * @ratchet/self-correction: the closed loop. A post-mortem's lessons become knowledge_core/lessons.jsonl
 * entries; pending lessons edit protocol sources (through @ratchet/protocol-compiler) or become code
 * suggestion plans; the targets are recompiled. This entry never imports zod (see `./schema`).
 */
export {
  LESSONS_HEADING,
  POSTMORTEMS_DIR,
  POSTMORTEM_SECTIONS,
  TEMPLATE_EXAMPLES,
  renderPostMortemTemplate,
  templateLines,
  type PostMortemSection,
  type PostMortemTemplateInput,
  type TemplateExample,
} from './postmortem-template.js';
export { checkPostMortem, type PostMortemProblem } from './postmortem-check.js';
export { LESSON_MIN_WORDS, isBracketPlaceholder, realWords, wordCount } from './substance.js';
export { UNKNOWN_TASK, readOriginalLesson, type OriginalLesson } from './original-lesson.js';
export { reviewSelfCorrection, summarisePostMortem, type LessonRef, type PostMortemSummary, type ReviewOptions, type SelfCorrectionReview, type SuggestionRef } from './review.js';
export { extractLessons, isLessonsHeading, type ExtractOptions, type ExtractResult } from './extract.js';
export { lessonId, parseAction } from './action-phrase.js';
export { LESSONS_PATH, addLessons, parseLessons, readLessons, updateLessons, type LessonLine, type LessonsFile } from './lessons-file.js';
export { applyLessons, lessonToEdit, resolveLesson, type ApplyOptions, type ApplyResult, type LessonOutcome } from './apply.js';
export { verifyApplied, type UnprovenLesson, type VerifyAppliedOptions } from './verify-applied.js';
export { SUGGESTIONS_DIR, prepareCodeSuggestion, writeCodeSuggestion, type CodeSuggestion } from './code-suggestion.js';
export { applyPatch, parsePatch, type Hunk, type ParsedPatch } from './patch.js';
// Path safety lives in @ratchet/protocol-compiler (compile targets need it too); re-exported for callers of this package.
export { resolveInsideRoot } from '@ratchet/protocol-compiler';
export { checkLesson, isLesson } from './check-lesson.js';
export { LessonsError, type LessonsDiagnostic, type LessonsErrorCode } from './errors.js';
export type { ActionCommand, ActionType, FileChange, HistoryEntry, Lesson, LessonAction, LessonStatus } from './types.js';
