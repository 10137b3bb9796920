import { formatProgress, runJob, type RunEvent } from '@ratchet/jixo-log';
import type { Context } from '../../context.js';
import { EXIT_OK, EXIT_PROBLEMS } from '../../exit-codes.js';
import { at, guard, int } from './shared.js';

/** `ratchet jixo run <job> --agent CMD`: the outer loop; progress on stderr, agents' output prefixed. */
export default async function run(ctx: Context, args: string[], options: Record<string, unknown>): Promise<number> {
  const jobPath = at(ctx, args[0]!);
  const onEvent = (e: RunEvent): void => {
    if (e.type === 'loop-start') ctx.note(`loop ${e.loop}: ${e.runners.length} runner(s) ${e.runners.join(', ')}`);
    else if (e.type === 'agent-exit' && e.code !== 0) ctx.note(`  ${e.runner} crashed (${e.code ?? e.signal ?? '?'})`);
    else if (e.type === 'agent-retry') ctx.note(`  retry ${e.attempt} as ${e.runner}`);
    else if (e.type === 'agent-output') for (const line of e.text.replace(/\n$/, '').split('\n')) ctx.note(`  [${e.runner.slice(-12)}] ${line}`);
    else if (e.type === 'loop-end') ctx.note(`loop ${e.loop} done: progress ${formatProgress(e.progress)}${e.exit ? `, exit ${e.exit.code} (${e.exit.reason})` : ''}`);
  };
  const result = await guard(jobPath, () =>
    runJob({
      jobPath,
      agent: String(options.agent),
      runners: int('runners', options.runners ?? 1, 1),
      maxLoops: int('max-loops', options.maxLoops ?? 20, 1),
      maxTurns: int('max-turns', options.maxTurns ?? 40, 1),
      once: options.once === true,
      force: options.force === true,
      onEvent,
      // Agents that call `ratchet` can use the very CLI that started them (RATCHET_JIXO_CLI).
      ...(process.argv[1] !== undefined && /ratchet(?:\.js)?$/.test(process.argv[1]) ? { env: { RATCHET_JIXO_CLI: `${process.execPath} ${process.argv[1]}` } } : {}),
    }),
  );
  if (ctx.json) ctx.emitJson({ ok: result.status === 'completed' || result.status === 'skipped' || result.status === 'once', ...result });
  else ctx.out(`${result.status}: ${result.reason} (loops ${result.loops}, progress ${formatProgress(result.progress)})`);
  return result.status === 'completed' || result.status === 'skipped' || result.status === 'once' ? EXIT_OK : EXIT_PROBLEMS;
}
