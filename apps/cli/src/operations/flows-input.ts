/**
 * The inputs of the flows area's typed operations (src/operations/flows.ts), apart from the
 * operations so that their declarations import no library type.
 */

/** One flow session by id, or (without one) every session. */
export interface FlowStatusInput {
  session?: string | undefined;
}
