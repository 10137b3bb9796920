/** The `ratchet flow` part of the quickstart tour: gates that refuse, then the reasoning protocol's halt on questions. */
import type { TourStep } from './steps.js';

export const FLOW_STEPS: readonly TourStep[] = [
  {
    title: 'Workflows an agent cannot skip',
    explain: 'flow list shows the built-in flows: the 9-step reasoning protocol and a composite skill whose phases are gated by agent memory files.',
    args: ['flow', 'list'],
    expectExit: 0,
  },
  {
    title: 'Start a short flow',
    explain: 'start saves the session before printing the step; the output ends with the one command to run next.',
    args: ['flow', 'start', 'examples/flows/review.flow.yaml', '--session', 'review', '--input', 'task=demo'],
    expectExit: 0,
    examples: ['flows/review.flow.yaml', 'flows/review/scope.md', 'flows/review/check.md'],
  },
  {
    title: 'Advancing too early is refused',
    explain: 'The step needs a scope note with a "## Risks" heading; without it advance exits 1 and says what is missing. There is no --force.',
    args: ['flow', 'advance', '--session', 'review'],
    expectExit: 1,
  },
  {
    title: 'Write the note, then advance',
    explain: 'With the note in place the gate holds and the session moves to the next step.',
    args: ['flow', 'advance', '--session', 'review'],
    expectExit: 0,
    examples: ['flows/notes/demo-scope.md'],
  },
  {
    title: 'The reasoning protocol',
    explain: 'Step 0 is Johari discovery: share what you infer, ask what you must, acknowledge assumptions, explore unknowns.',
    args: ['flow', 'start', 'reasoning', '--session', 'think', '--input', 'query=add a login page'],
    expectExit: 0,
  },
  {
    title: 'Clarifying questions halt it',
    explain: 'Recording a question halts the session until the user answers: they run ratchet flow resume --answer ... from their own shell (an agent cannot).',
    args: ['flow', 'advance', '--session', 'think', '--question', 'Which users need the page?'],
    expectExit: 0,
  },
];
