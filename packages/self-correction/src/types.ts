/** One line of knowledge_core/lessons.jsonl. */
export type ActionCommand = 'add-tool' | 'update-rule' | 'deprecate-tool' | 'propose-code-change' | 'manual';
export type ActionType = 'UPDATE_PROTOCOL' | 'PROPOSE_CODE_CHANGE' | 'MANUAL';
/** `manual` lessons wait for a person (`lessons resolve`); `pending` ones for `lessons apply`. */
export type LessonStatus = 'pending' | 'applied' | 'failed' | 'manual' | 'resolved';

export type LessonAction =
  | { type: 'UPDATE_PROTOCOL'; command: 'add-tool' | 'deprecate-tool'; parameters: { protocol_id: string; tool: string } }
  | { type: 'UPDATE_PROTOCOL'; command: 'update-rule'; parameters: { protocol_id: string; rule_id: string; description: string } }
  | { type: 'PROPOSE_CODE_CHANGE'; command: 'propose-code-change'; parameters: { filepath: string; diff: string } }
  | { type: 'MANUAL'; command: 'manual'; parameters: { text: string; note?: string } };

export interface HistoryEntry {
  status: LessonStatus;
  /** ISO time from the injected clock. */
  time: string;
  /** Why (failed), what was done (applied), where it came from (pending). */
  reason: string;
  /**
   * The application record `lessons apply` writes on an `applied` entry: every file the lesson
   * changed (or, for an edit that was already in place, the file it checked), with the SHA-256 of its
   * content before and after. `task submit` accepts an applied lesson only with one.
   */
  changes?: FileChange[];
}

export interface FileChange {
  /** Project-relative path (POSIX separators). */
  file: string;
  /** SHA-256 of the file's text before (null: the file did not exist). */
  before: string | null;
  /** SHA-256 of the file's text after. */
  after: string;
}

export interface Lesson {
  /** Names files (knowledge_core/suggestions/<id>.plan): letters, digits, `.`, `_`, `-`; no separators. */
  lesson_id: string;
  task_id: string;
  /** YYYY-MM-DD: the post-mortem's completion date, else the day of extraction. */
  date: string;
  insight: string;
  action: LessonAction;
  status: LessonStatus;
  /** The audit trail; the first entry says where the lesson was extracted from (file:line). */
  history: HistoryEntry[];
  /**
   * Fields of a line written by the original system that Ratchet's shape has no place for
   * (`category`, `severity`, `failure`, a structured `actionable_change`, ...), kept as they were.
   */
  extra?: Record<string, unknown>;
}
