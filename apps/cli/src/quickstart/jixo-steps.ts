/**
 * Quickstart steps for `ratchet jixo`: a two-runner job run to completion by a scripted agent
 * (examples/jixo/fake-agent.mjs, which only uses `ratchet jixo` commands), then the lock and the
 * diagnostics a broken log gets.
 */
import type { TourStep } from './steps.js';

export const JIXO_STEPS: readonly TourStep[] = [
  {
    title: 'A JIXO job',
    explain: 'A *.job.md file states the goal; its log (*.log.md) will hold the roadmap and the Work Log that concurrent runners share.',
    args: ['jixo', 'check', 'examples/jixo/docs.job.md'],
    expectExit: 0,
    examples: ['jixo/docs.job.md', 'jixo/fake-agent.mjs'],
  },
  {
    title: 'Two runners finish the job',
    explain:
      'jixo run spawns two agents per loop with their runner ids and the system prompt; one plans while the other stands by (exit 2), then each locks, does and completes one task, all through `ratchet jixo` commands, until one records exit 0.',
    args: ['jixo', 'run', 'examples/jixo/docs.job.md', '--agent', 'node fake-agent.mjs', '--runners', '2', '--max-loops', '6'],
    expectExit: 0,
  },
  {
    title: 'The roadmap they left',
    explain: 'Every task Completed exactly once, each with its Work Log entry; progress is 100%.',
    args: ['jixo', 'task', 'list', 'examples/jixo/docs.log.md'],
    expectExit: 0,
  },
  {
    title: 'A lock that holds between commands',
    explain: 'jixo lock takes the log lock for runner alice and prints the fresh content; it stays held after the command exits.',
    args: ['jixo', 'lock', 'examples/jixo/docs.log.md', '--runner', 'alice'],
    expectExit: 0,
  },
  {
    title: 'Only the holder may unlock',
    explain: 'bob does not hold the lock, so his unlock is refused (exit 1) and alice keeps it.',
    args: ['jixo', 'unlock', 'examples/jixo/docs.log.md', '--runner', 'bob'],
    expectExit: 1,
  },
  {
    title: 'The holder unlocks',
    explain: 'alice releases the lock.',
    args: ['jixo', 'unlock', 'examples/jixo/docs.log.md', '--runner', 'alice'],
    expectExit: 0,
  },
  {
    title: 'A broken log: every problem, with its line',
    explain: 'An unknown status and a duplicate task id are reported with file:line:col (exit 1); commands refuse to rewrite such a log.',
    args: ['jixo', 'check', 'examples/jixo/broken.log.md'],
    expectExit: 1,
    examples: ['jixo/broken.log.md'],
  },
];
