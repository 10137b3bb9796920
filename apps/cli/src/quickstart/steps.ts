/**
 * The quickstart tour: real `ratchet` commands run in a fresh directory, each with the exit code it
 * must produce. Later capabilities append their steps here. The tour fails loudly if any step does
 * not behave as described, so it doubles as an end-to-end smoke test.
 */
export interface TourStep {
  title: string;
  /** One or two sentences on what the step shows. */
  explain: string;
  /** Arguments after `ratchet`; run with --cwd set to the tour directory. */
  args: string[];
  expectExit: number;
  /** Files copied from the bundled examples into the tour directory before the step runs. */
  examples?: string[];
}

export const TOUR: readonly TourStep[] = [
  {
    title: 'Scaffold Ratchet into a repository',
    explain: 'init adds the protocol state machines and the state directory; it never overwrites a file.',
    args: ['init'],
    expectExit: 0,
  },
  {
    title: 'Check the protocol state machines',
    explain: 'Every problem in every definition is reported with file:line:col; these three are clean.',
    args: ['fsm', 'check', '--strict', 'protocols/fdc.fsm.json', 'protocols/orchestrator.fsm.json', 'protocols/research.fsm.json'],
    expectExit: 0,
  },
  {
    title: 'A broken machine: all problems at once',
    explain: 'An undefined target state, an unknown symbol, an unreachable state, an unused symbol: one run finds them all (exit 1).',
    args: ['fsm', 'check', 'examples/fsm/broken.fsm.json'],
    expectExit: 1,
    examples: ['fsm/broken.fsm.json'],
  },
  {
    title: 'A plan that follows the plan language',
    explain: 'set_plan, a step, a write, then the mandatory close: the word is in the language (exit 0).',
    args: ['fsm', 'accept', 'protocols/fdc.fsm.json', 'plan_op', 'step_op', 'write_op', 'close_op'],
    expectExit: 0,
  },
  {
    title: 'A plan that skips a step',
    explain: 'Writing before the first step is illegal; Ratchet says where and what would have been legal (exit 1).',
    args: ['fsm', 'accept', 'protocols/fdc.fsm.json', 'plan_op', 'write_op', 'close_op'],
    expectExit: 1,
  },
  {
    title: 'A plan that never closes',
    explain: 'The Closure Mandate: a plan must end with the close command (exit 1).',
    args: ['fsm', 'accept', 'protocols/fdc.fsm.json', 'plan_op', 'step_op', 'write_op'],
    expectExit: 1,
  },
  {
    title: 'Draw the task lifecycle',
    explain: 'The orchestrator lifecycle as a Mermaid diagram (paste it into any Markdown that renders Mermaid).',
    args: ['fsm', 'render', 'protocols/orchestrator.fsm.json', '--format', 'mermaid'],
    expectExit: 0,
  },
  {
    title: 'Lint a broken plan',
    explain: 'Every finding at once, each with its line: a missing file, a write before the first step, an unknown command, a sub-plan outside the project, no close (exit 1).',
    args: ['plan', 'lint', 'examples/plans/broken.txt'],
    expectExit: 1,
    examples: ['plans/broken.txt'],
  },
  {
    title: 'Lint a good plan with a nested call_plan',
    explain: 'The sub-plan is checked from the FSM start state, the loop expands against the simulated file system, and the plan ends with the close command (exit 0).',
    args: ['plan', 'lint', 'examples/plans/add-greeting.txt'],
    expectExit: 0,
    examples: ['plans/add-greeting.txt', 'plans/write-tests.txt'],
  },
  {
    title: 'Register the sub-plan by name',
    explain: 'call_plan resolves registry names first, then paths; the registry is a versioned state file written under a lock.',
    args: ['plan', 'registry', 'register', 'write-tests', 'examples/plans/write-tests.txt'],
    expectExit: 0,
  },
  {
    title: 'Analyze the plan',
    explain: 'Complexity by loop nesting and whether it writes anything, sub-plans included.',
    args: ['plan', 'analyze', 'examples/plans/add-greeting.txt'],
    expectExit: 0,
  },
];
