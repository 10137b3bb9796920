/** Helpers shared by the campaign and workspace commands: seq arguments, options, error mapping. */
import { CampaignError, formatSeq, normalizeSeq, type CampaignOptions, type PlanProblem, type Task } from '@ratchet/campaign-dag';
import { ValidationError, type ValidationIssue } from '@ratchet/store';
import type { Context } from '../../context.js';
import { CliError } from '../../errors.js';
import { displayPath } from '../../paths.js';
import { storageOf } from '../../storage.js';

export function seqArg(value: string | undefined): number {
  const seq = normalizeSeq(value);
  if (seq === undefined) throw new CliError(`not a task seq: ${JSON.stringify(value ?? '')} (expected a number like 001 or 1)`, { code: 'bad-seq' });
  return seq;
}

/** The campaign options a command's `--workspace-dir` (where `ratchet workspace` created the workspaces) gives. */
function campaignOptions(workspaceDir: string | undefined): CampaignOptions {
  return workspaceDir === undefined ? {} : { workspaceDir };
}

/**
 * The campaign options plus the project's storage backend, for the commands that touch claims:
 * leased claims and heartbeats, and the writes that offer newly ready tasks to the claim queue.
 */
export async function campaignOptionsWithBackend(ctx: Context, workspaceDir?: string): Promise<CampaignOptions> {
  return { ...campaignOptions(workspaceDir), backend: await storageOf(ctx) };
}

/**
 * Library refusals are input errors (exit 2) with the file and place when there is one. An invalid
 * campaign.json (a hand edit: bad shape, or a graph that is not a DAG) lists every problem, each as
 * file:line:col with its JSON pointer; the file is left as it is.
 */
export async function guard<T>(ctx: Context, fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (err) {
    if (err instanceof ValidationError && err.issues.length > 0) {
      const file = displayPath(ctx, err.path);
      const place = (i: ValidationIssue): string => `${file}${i.line === undefined ? '' : `:${i.line}:${i.column ?? 1}`}: ${i.message}${i.pointer === '' ? '' : ` (at ${i.pointer})`}`;
      const [first, ...rest] = err.issues;
      const lead = err.source === 'file' ? 'invalid content' : 'refused to write an invalid value, nothing was written';
      throw new CliError([`${lead}: ${first!.message}${first!.pointer === '' ? '' : ` (at ${first!.pointer})`}`, ...rest.map(place)].join('\n'), {
        code: err.code,
        file,
        ...(first!.line === undefined ? {} : { line: first!.line }),
        ...(first!.column === undefined ? {} : { column: first!.column }),
      });
    }
    if (err instanceof CampaignError && !('problems' in err)) {
      throw new CliError(err.reason, {
        code: err.code,
        ...(err.path === undefined ? {} : { file: displayPath(ctx, err.path) }),
        ...(err.line === undefined ? {} : { line: err.line }),
        ...(err.column === undefined ? {} : { column: err.column }),
      });
    }
    throw err;
  }
}

export function formatProblem(file: string, p: PlanProblem): string {
  const place = p.line === undefined ? `${file}` : `${file}:${p.line}:${p.column ?? 1}`;
  return `${place}: ${p.message} [${p.rule}${p.line === undefined && p.pointer !== '' ? ` at ${p.pointer}` : ''}]`;
}

export function taskLine(t: Task): string {
  const deps = t.depends.length === 0 ? 'none' : t.depends.map(formatSeq).join(',');
  const cascade = t.cascade === true && t.blockedBy !== undefined ? `cascade: blocked by ${t.blockedBy.map(formatSeq).join(', ')}${t.rootCause === undefined ? '' : ` (root cause ${formatSeq(t.rootCause)})`}` : '';
  const extra = [t.runner === undefined ? '' : `runner ${t.runner}`, cascade, t.reason === undefined ? '' : t.reason].filter((x) => x !== '').join('; ');
  return `${formatSeq(t.seq)}  ${t.slug.padEnd(20)} ${t.type.padEnd(6)} ${t.status.padEnd(11)} deps ${deps}${extra === '' ? '' : `  (${extra})`}`;
}
