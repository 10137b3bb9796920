/**
 * `.ratchet/trace.config.json`: the default budgets of a turn started without budget flags, and the
 * size traces.jsonl rotates at. Optional; a file that is there but wrong is an error naming its line.
 */
import { NotFoundError, ValidationError, readJsonFile, resolveInsideRoot } from '@ratchet/store';
import type { TraceConfig } from './types.js';
import { traceConfigIssues } from './validate.js';

export const DEFAULT_TRACE_CONFIG_FILE = '.ratchet/trace.config.json';

/** The config at `path`, or `{}` when there is none. */
export async function readTraceConfig(path: string, options: { root?: string | undefined } = {}): Promise<TraceConfig> {
  try {
    const file = options.root === undefined ? path : resolveInsideRoot(options.root, path, { allowAbsolute: true });
    const read = await readJsonFile(file, { maxBytes: 64 * 1024 });
    const issues = traceConfigIssues(read.value);
    if (issues.length > 0) throw new ValidationError(read.path, issues.map((i) => ({ ...i, ...read.locate(i.pointer) })), 'file');
    const { budgets, rotate_bytes } = read.value as TraceConfig;
    return { ...(budgets === undefined ? {} : { budgets }), ...(rotate_bytes === undefined ? {} : { rotate_bytes }) };
  } catch (err) {
    if (err instanceof NotFoundError) return {};
    throw err;
  }
}
