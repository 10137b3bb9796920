import { DEFAULT_LEASE_MS, formatProgress, logPathFor, readJobFile, runJob, type RunEvent } from '@ratchet/jixo-log';
import { parseDurationText } from '@ratchet/store';
import type { Context } from '../../context.js';
import { CliError } from '../../errors.js';
import { EXIT_OK, EXIT_PROBLEMS } from '../../exit-codes.js';
import { leaseOption } from '../../lease-option.js';
import { argument, flagOption, stringOption, withInput, type OptionBag } from '../../option-values.js';
import { at, guard, int, logAt } from './shared.js';

/** `--agent-timeout`: `90s`, `5m`, `1.5h`, `500ms`, or a bare number of seconds. */
export function parseAgentTimeout(value: string): number {
  const ms = parseDurationText(value, { bareUnit: 's', fractions: true });
  if (ms === undefined) throw new CliError(`--agent-timeout must be a duration such as 90s, 5m, 1h or 500ms, got "${value}"`);
  return ms;
}

/** `--max-wait`: a duration as --agent-timeout takes it, or 0 (never wait for a runner elsewhere). */
function parseMaxWait(value: string): number {
  if (value.trim() === '0') return 0;
  const ms = parseDurationText(value, { bareUnit: 's', fractions: true });
  if (ms === undefined) throw new CliError(`--max-wait must be a duration such as 90s, 15m or 1h (or 0), got "${value}"`);
  return ms;
}

/** `jixo run`'s options, read at the edge (checked, not cast). */
interface RunJobInput {
  job: string;
  agent: string;
  runners: number;
  maxLoops: number;
  maxRuns: number | undefined;
  agentTimeoutMs: number | undefined;
  maxTurns: number;
  lockLeaseMs: number;
  maxWaitMs: number | undefined;
  once: boolean;
  force: boolean;
}

function runInput(args: readonly string[], options: OptionBag): RunJobInput {
  const agent = stringOption(options, 'agent');
  if (agent === undefined) throw new CliError('--agent is required');
  const agentTimeout = stringOption(options, 'agentTimeout');
  const maxRuns = stringOption(options, 'maxRuns');
  const maxWait = stringOption(options, 'maxWait');
  return {
    job: argument(args, 0, 'job'),
    agent,
    runners: int('runners', stringOption(options, 'runners') ?? 1, 1),
    maxLoops: int('max-loops', stringOption(options, 'maxLoops') ?? 20, 1),
    agentTimeoutMs: agentTimeout === undefined ? undefined : parseAgentTimeout(agentTimeout),
    maxRuns: maxRuns === undefined ? undefined : int('max-runs', maxRuns, 1),
    maxTurns: int('max-turns', stringOption(options, 'maxTurns') ?? 40, 1),
    lockLeaseMs: leaseOption(stringOption(options, 'lease')) ?? DEFAULT_LEASE_MS,
    maxWaitMs: maxWait === undefined ? undefined : parseMaxWait(maxWait),
    once: flagOption(options, 'once'),
    force: flagOption(options, 'force'),
  };
}

/** `ratchet jixo run <job> --agent CMD`: the outer loop; progress on stderr, agents' output prefixed. */
async function run(ctx: Context, input: RunJobInput): Promise<number> {
  const jobPath = at(ctx, input.job);
  const { runners, maxLoops, agentTimeoutMs } = input;
  const onEvent = (e: RunEvent): void => {
    if (e.type === 'agent-start') {
      const what = e.assignment.role === 'Runner' ? `task ${e.assignment.taskId}` : e.assignment.role === 'Planner' ? 'Planner' : 'no assignment';
      ctx.note(`slot ${e.slot}: run ${e.run} ${e.runner} (${what})`);
    } else if (e.type === 'agent-timeout') ctx.note(`  ${e.runner} timed out after ${e.timeoutMs} ms: killed${e.released.length > 0 ? `, task ${e.released.join(', ')} back to Pending` : ''}`);
    else if (e.type === 'agent-exit') ctx.note(`slot ${e.slot}: ${e.runner} ${e.code === 0 ? 'done' : e.timedOut ? 'killed' : `crashed (${e.code ?? e.signal ?? '?'})`}, progress ${formatProgress(e.progress)}${e.exit ? `, exit ${e.exit.code} (${e.exit.reason})` : ''}`);
    else if (e.type === 'slot-idle') ctx.note(`slot ${e.slot}: waiting (${e.reason})`);
    else if (e.type === 'agent-output') for (const line of e.text.replace(/\n$/, '').split('\n')) ctx.note(`  [${e.runner.slice(-12)}] ${line}`);
  };
  // On a shared backend the log is the database's document; the job file stays in this working directory.
  const { job } = await guard(jobPath, () => readJobFile(jobPath));
  const log = await logAt(ctx, logPathFor(jobPath, job));
  const result = await guard(jobPath, () =>
    runJob({
      log,
      jobPath,
      agent: input.agent,
      runners,
      maxLoops,
      ...(input.maxRuns !== undefined ? { maxRuns: input.maxRuns } : {}),
      ...(agentTimeoutMs !== undefined ? { agentTimeoutMs } : {}),
      maxTurns: input.maxTurns,
      lockLeaseMs: input.lockLeaseMs,
      ...(input.maxWaitMs !== undefined ? { maxWaitMs: input.maxWaitMs } : {}),
      once: input.once,
      force: input.force,
      onEvent,
      // Agents that call `ratchet` can use the very CLI that started them (RATCHET_JIXO_CLI).
      ...(process.argv[1] !== undefined && /ratchet(?:\.js)?$/.test(process.argv[1]) ? { env: { RATCHET_JIXO_CLI: `${process.execPath} ${process.argv[1]}` } } : {}),
    }),
  );
  if (ctx.json) ctx.emitJson({ ok: result.status === 'completed' || result.status === 'skipped' || result.status === 'once', ...result });
  else ctx.out(`${result.status}: ${result.reason} (agent runs ${result.runs}, progress ${formatProgress(result.progress)})`);
  return result.status === 'completed' || result.status === 'skipped' || result.status === 'once' ? EXIT_OK : EXIT_PROBLEMS;
}
export default withInput(runInput, run);
