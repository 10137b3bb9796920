/**
 * A registry proposal as a patch that `git apply` accepts (`a/` and `b/` prefixes, `/dev/null` for
 * a file the patch creates). jsdiff (the `diff` package) computes it, imported when a proposal is
 * merged or exported so that no other command loads it.
 */

/** `created`: the file does not exist yet, so the patch creates it (`--- /dev/null`, as git writes it). */
export async function registryPatch(before: string, after: string, path: string, options: { created?: boolean } = {}): Promise<string> {
  if (before === after && options.created !== true) return '';
  const { FILE_HEADERS_ONLY, createTwoFilesPatch } = await import('diff');
  const from = options.created === true ? '/dev/null' : `a/${path}`;
  return createTwoFilesPatch(from, `b/${path}`, options.created === true ? '' : before, after, undefined, undefined, { context: 3, headerOptions: FILE_HEADERS_ONLY });
}
