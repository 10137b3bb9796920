/**
 * The inputs of the task lifecycle's typed operations (src/operations/orchestrator.ts), apart from
 * the operations so that their declarations import no library type.
 */

/** Which task session: its file, relative to the project (default .ratchet/session.json). */
export interface TaskSessionInput {
  session?: string | undefined;
}
