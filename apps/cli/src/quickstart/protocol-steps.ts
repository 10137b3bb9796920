/**
 * The self-correction loop in the quickstart: a protocol compiled into AGENTS.md, a post-mortem's
 * lessons extracted, applied (a protocol edited, a code change turned into a linted plan), AGENTS.md
 * recompiled and checked. Runs after the core steps (`init` has put protocols/fdc.* in place).
 */
import type { TourStep } from './steps.js';

const DEMO = 'examples/protocols/demo';
const EXAMPLES = ['protocols/demo/VERSION', 'protocols/demo/10-greeting.protocol.json', 'protocols/demo/10-greeting.protocol.md', 'protocols/postmortem.md', 'protocols/src/greet.js'];
/** Content-derived (task, insight, action), so the id is the same on every run. */
const CODE_LESSON = 'lesson-5b6df692500a8eaf';

export const PROTOCOL_STEPS: readonly TourStep[] = [
  {
    title: 'Compile a protocol into AGENTS.md',
    explain: 'Each protocol becomes readable rules plus its JSON, with the usage of the ratchet commands it names, inside a managed block.',
    args: ['protocol', 'compile', '--protocols', DEMO, '--out', 'AGENTS.md'],
    expectExit: 0,
    examples: EXAMPLES,
  },
  {
    title: 'Extract lessons from a post-mortem',
    explain: 'Lesson/Action pairs become knowledge_core/lessons.jsonl entries; the unrecognised action is kept as a manual lesson.',
    args: ['lessons', 'extract', 'examples/protocols/postmortem.md'],
    expectExit: 0,
  },
  {
    title: 'Preview what the lessons would change',
    explain: '--dry-run shows the diff of every protocol edit and code change, each on top of the ones before, and the AGENTS.md it would compile; it writes nothing.',
    args: ['lessons', 'apply', '--dry-run', '--protocols', DEMO],
    expectExit: 0,
  },
  {
    title: 'Apply the lessons',
    explain: 'The protocol gets a tool and a sharper rule, the code change becomes a plan, each lesson records the outcome, AGENTS.md is recompiled.',
    args: ['lessons', 'apply', '--protocols', DEMO, '--out', 'AGENTS.md'],
    expectExit: 0,
  },
  {
    title: 'The code-change plan passes plan lint',
    explain: 'The diff was checked to apply cleanly inside the project; the plan that applies it is an ordinary, valid plan.',
    args: ['plan', 'lint', `knowledge_core/suggestions/${CODE_LESSON}.plan`],
    expectExit: 0,
  },
  {
    title: 'Edit a protocol by hand, through the tool',
    explain: 'protocol update validates the edit against the schema and keeps the file formatting.',
    args: ['protocol', 'update', 'deprecate-tool', 'greeting', 'ratchet plan lint', '--protocols', DEMO],
    expectExit: 0,
  },
  {
    title: 'AGENTS.md is now stale',
    explain: '--check writes nothing, shows the difference and exits 1: this is what fails CI.',
    args: ['protocol', 'compile', '--check', '--protocols', DEMO, '--out', 'AGENTS.md'],
    expectExit: 1,
  },
  {
    title: 'Recompile',
    explain: 'Same sources, same bytes: only the managed block changes, text outside it is kept.',
    args: ['protocol', 'compile', '--protocols', DEMO, '--out', 'AGENTS.md'],
    expectExit: 0,
  },
];
