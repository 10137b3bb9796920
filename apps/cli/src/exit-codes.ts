/** Exit codes shared by every command (DESIGN.md, CLI conventions). */
export const EXIT_OK = 0;
/** The check ran and found problems: lint errors, a rejected word, a stale file, a gate not met. */
export const EXIT_PROBLEMS = 1;
/** Usage or input error: unknown option, missing or malformed file. */
export const EXIT_USAGE = 2;
