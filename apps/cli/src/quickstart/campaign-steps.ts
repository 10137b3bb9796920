/**
 * Quickstart steps for campaigns and workspaces: a plan as a DAG, a refused cycle, waves, parallel
 * claims, a blocked task cascading transitively, and its failure injected into a sibling's workspace.
 */
import type { TourStep } from './steps.js';

export const CAMPAIGN_STEPS: readonly TourStep[] = [
  {
    title: 'Start a campaign',
    explain: 'A campaign is one objective and a graph of tasks, kept in .ratchet/campaign.json and written only under a lock.',
    args: ['campaign', 'create', 'Add user authentication', '--framework', 'express'],
    expectExit: 0,
  },
  {
    title: 'A plan with a cycle is refused',
    explain: 'Every problem at once: the full cycle path and the unknown dependency, each with file:line:col; nothing is added (exit 1).',
    args: ['campaign', 'add-tasks', 'examples/campaign/cyclic-plan.json'],
    expectExit: 1,
    examples: ['campaign/cyclic-plan.json'],
  },
  {
    title: 'Add the planner\'s tasks',
    explain: 'FTL\'s plan.json contract: "001" and 1 are the same seq, depends is "none", one seq or a list.',
    args: ['campaign', 'add-tasks', 'examples/campaign/plan.json'],
    expectExit: 0,
    examples: ['campaign/plan.json', 'campaign/prior-knowledge.json'],
  },
  {
    title: 'The parallel waves',
    explain: 'Tasks of one wave can run at once: the two builds wait only for the spec.',
    args: ['campaign', 'waves'],
    expectExit: 0,
  },
  {
    title: 'A builder claims ready work',
    explain: 'ready --claim marks the first ready task in_progress for that runner, atomically: parallel builders never get the same task.',
    args: ['campaign', 'ready', '--claim', 'builder-1'],
    expectExit: 0,
  },
  {
    title: 'Its workspace, with what memory knows',
    explain: 'The XML brief for task 001: delta, verify, idioms, and prior knowledge (here from a file; the CLI composes memory in).',
    args: ['workspace', 'create', '001', '--prior-knowledge', 'examples/campaign/prior-knowledge.json'],
    expectExit: 0,
  },
  {
    title: 'Deliver it',
    explain: 'The workspace is renamed to _complete.xml atomically; the delivery (with <, & and all) becomes lineage for the children.',
    args: ['workspace', 'complete', '001', '--delivered', 'spec: 6 failing tests for login & sessions (<200 ms each)', '--utilized', 'fixture-first:pattern'],
    expectExit: 0,
  },
  {
    title: 'Only legal transitions',
    explain: 'in_progress -> complete is legal, and only for the holder of the claim (--runner); the task lifecycle is an fsm-core machine.',
    args: ['campaign', 'update-task', '001', 'complete', '--runner', 'builder-1'],
    expectExit: 0,
  },
  {
    title: 'Two builders in parallel',
    explain: 'Both builds are ready now; each claim takes a different one.',
    args: ['campaign', 'ready', '--claim', 'builder-1'],
    expectExit: 0,
  },
  {
    title: 'The second builder',
    explain: 'builder-2 gets the other task of the wave.',
    args: ['campaign', 'ready', '--claim', 'builder-2'],
    expectExit: 0,
  },
  {
    title: 'A build gets blocked',
    explain: 'Blocking is an informed hand-off: the workspace becomes _blocked.xml with the reason.',
    args: ['workspace', 'create', '002'],
    expectExit: 0,
  },
  {
    title: 'Record the block in the workspace',
    explain: 'Its first line becomes a sibling failure for every later workspace of this campaign.',
    args: ['workspace', 'block', '002', '--reason', 'bcrypt native build fails: gyp ERR! on node 20'],
    expectExit: 0,
  },
  {
    title: 'And in the campaign',
    explain: 'The task is an original failure (not a cascade).',
    args: ['campaign', 'update-task', '002', 'blocked', '--runner', 'builder-1', '--reason', 'bcrypt native build fails'],
    expectExit: 0,
  },
  {
    title: 'Memory remembers the failure',
    explain: 'memory observe learns from the finished workspaces: the blocked one becomes a failure in .ratchet/memory.json, so later campaigns are warned too (the delivered one is routine and not learned).',
    args: ['memory', 'observe'],
    expectExit: 0,
  },
  {
    title: 'Recall it by topic',
    explain: 'A query on the symptom finds it, ranked by relevance, cost, feedback and age.',
    args: ['memory', 'query', 'npm install fails building bcrypt with gyp ERR'],
    expectExit: 0,
  },
  {
    title: 'The sibling learns from it',
    explain: 'Task 003\'s workspace carries 001\'s delivery as lineage and 002\'s failure as sibling-002_user-store_blocked (cost 1000, injected="false").',
    args: ['workspace', 'create', '003'],
    expectExit: 0,
  },
  {
    title: 'Finish the sibling',
    explain: 'The login route is done.',
    args: ['campaign', 'update-task', '003', 'complete', '--runner', 'builder-2'],
    expectExit: 0,
  },
  {
    title: 'The campaign is stuck',
    explain: 'Unreachable is transitive: 004 waits on the blocked 002, and 005 waits on 004 (FTL only saw direct parents).',
    args: ['campaign', 'cascade-status'],
    expectExit: 0,
  },
  {
    title: 'Propagate the block',
    explain: 'Each cascaded task records its direct blocker and its root cause, 002.',
    args: ['campaign', 'propagate-blocks'],
    expectExit: 0,
  },
  {
    title: 'Draw it',
    explain: 'The task graph with statuses, as Mermaid.',
    args: ['campaign', 'graph', '--format', 'mermaid'],
    expectExit: 0,
  },
  {
    title: 'Not before the observer',
    explain: 'FTL\'s phases are an fsm-core machine: COMPLETE only from OBSERVE, which `ratchet memory observe` on the campaign records. Refused (exit 2) with what to do.',
    args: ['campaign', 'complete'],
    expectExit: 2,
  },
  {
    title: 'Archive the campaign',
    explain: 'Skipping the observer takes a reason, kept in the campaign\'s phase log. A summary goes to .ratchet/archive/<id>.json with the workspaces beside it; find-similar compares future campaigns against it.',
    args: ['campaign', 'complete', '--skip-observe', 'the tour teaches memory in its own steps'],
    expectExit: 0,
  },
];
