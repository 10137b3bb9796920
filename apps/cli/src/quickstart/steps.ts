/**
 * The quickstart tour: real `ratchet` commands run in a fresh directory, each with the exit code it
 * must produce. Each capability keeps its steps in its own <area>-steps.ts; tour.ts puts them in order. The tour fails loudly if any step does
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
  /** Run the command this many times (default 1), each expecting `expectExit`; only the last output is shown. */
  repeat?: number;
  /** A bundled example (path under examples/) fed to the command on standard input, as Claude Code feeds a hook. */
  stdin?: string;
  /** Text the output must contain (for commands whose decision is not in their exit code: hooks always exit 0). */
  expectOutput?: string;
  /** Files (project-relative path -> text) written before the step runs: the work the agent did for it. */
  writes?: Record<string, string>;
}

/** The core tour: FSMs, plans, and one task through master control. tour.ts appends each capability's steps. */
export const CORE_STEPS: readonly TourStep[] = [
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
  {
    title: 'Start a task: the orientation cascade',
    explain: 'L1 reads knowledge_core/agent_meta.json (init wrote one), L2 loads knowledge_core/, L3 probes the file system and environment; TASK_START goes to logs/activity.log.jsonl.',
    args: ['task', 'start', '--task-id', 'add-greeting', '--no-network'],
    expectExit: 0,
  },
  {
    title: 'The hooks: an agent tries to write code while PLANNING',
    explain: 'Claude Code runs `ratchet hook pre-tool-use` before every tool call (the plugin, or `ratchet init --claude`). No file is written before a plan is accepted: the Write is denied, and the reason names the command to run instead.',
    args: ['hook', 'pre-tool-use'],
    expectExit: 0,
    examples: ['hooks/write-during-planning.json'],
    stdin: 'hooks/write-during-planning.json',
    expectOutput: '"permissionDecision":"deny"',
  },
  {
    title: 'The hooks: an agent tries to edit the session by hand',
    explain: 'Ratchet\'s state is written by `ratchet` only, whatever the tool and however the path is spelled (here a sed through Bash, in capitals).',
    args: ['hook', 'pre-tool-use'],
    expectExit: 0,
    examples: ['hooks/edit-session.json'],
    stdin: 'hooks/edit-session.json',
    expectOutput: 'is Ratchet state',
  },
  {
    title: 'Submit the broken plan to the orchestrator',
    explain: 'Master control lints every plan before it runs: this one is rejected with its findings and the task stays in PLANNING (exit 1).',
    args: ['run', 'plan', 'examples/plans/broken.txt'],
    expectExit: 1,
  },
  {
    title: 'Submit the good plan',
    explain: 'Accepted: the plan goes on the stack and the first step is the directive.',
    args: ['run', 'plan', 'examples/plans/add-greeting.txt'],
    expectExit: 0,
  },
  {
    title: 'Execute it one step at a time',
    explain: 'The agent does each step and reports it with `run done`.',
    args: ['run', 'done'],
    expectExit: 0,
    repeat: 3,
  },
  {
    title: 'A step that creates a file is checked on disk',
    explain: 'The dialect says create_file_with_block creates its path: reporting it done before src/greet.js exists is refused (exit 1) and the step stays current.',
    args: ['run', 'done'],
    expectExit: 1,
  },
  {
    title: 'Create the file, report the step, into the sub-plan',
    explain: 'Now the effect is on disk. The call_plan is reached next: the parent moves past it and the sub-plan is pushed, so the next step is the sub-plan\'s first.',
    args: ['run', 'done'],
    expectExit: 0,
    writes: { 'src/greet.js': "export const greeting = 'hello';\n" },
  },
  {
    title: 'The plan stack',
    explain: 'Two frames: the root plan (waiting after its call_plan) and the sub-plan running on top of it.',
    args: ['run', 'status'],
    expectExit: 0,
  },
  {
    title: 'Finish the sub-plan',
    writes: { 'test/greet.test.js': "import { greeting } from '../src/greet.js';\nif (greeting !== 'hello') throw new Error(greeting);\n" },
    explain: 'Its last step (the close command) pops it: execution resumes in the root plan, at the for_each_file loop expanded over protocols/*.fsm.json.',
    args: ['run', 'done'],
    expectExit: 0,
    repeat: 5,
  },
  {
    title: 'Through the loop',
    explain: 'One step per matching file, then the tests.',
    args: ['run', 'done'],
    expectExit: 0,
    repeat: 4,
  },
  {
    title: 'Ask for the next step',
    explain: 'The last step of the root plan is the close command.',
    args: ['run', 'next'],
    expectExit: 0,
  },
  {
    title: 'Report the last step',
    explain: 'The end of the root plan completes it: the lifecycle moves to AWAITING_ANALYSIS.',
    args: ['run', 'done'],
    expectExit: 0,
  },
  {
    title: 'Close the task',
    explain: 'TASK_END is logged and postmortems/add-greeting.md is written: its "Corrective Actions & Lessons Learned" section feeds self-correction.',
    args: ['task', 'close', '--task-id', 'add-greeting'],
    expectExit: 0,
  },
  {
    title: 'Submitting before self-correction is refused',
    explain: 'The post-mortem is the input of the self-correction loop: submit lists everything still missing, in order (every section written, its lessons extracted and applied, AGENTS.md current) and exits 1.',
    args: ['task', 'submit', '--task-id', 'add-greeting'],
    expectExit: 1,
  },
  {
    title: 'The hooks: the agent tries to stop before submitting',
    explain: 'Claude Code runs `ratchet hook stop` when the agent wants to end its turn: while the task is not submitted, the stop is blocked and the agent is told the exact next command.',
    args: ['hook', 'stop'],
    expectExit: 0,
    examples: ['hooks/stop.json'],
    stdin: 'hooks/stop.json',
    expectOutput: '"decision":"block"',
  },
];
