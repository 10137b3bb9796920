/** Limits of the regex guard, shared by its structural check and its trial run. */
export const MATCH_MAX_LENGTH = 200;
/** The most characters a checked pattern ever sees (callers cut the subject to it). */
export const MATCH_SUBJECT_LIMIT = 256;
