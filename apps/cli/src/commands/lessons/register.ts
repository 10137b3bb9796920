/**
 * `ratchet lessons ...`: the self-correction loop. Post-mortem lessons into knowledge_core/lessons.jsonl,
 * pending lessons applied to the protocols (then recompiled), manual ones listed for a person.
 */
import type { Command } from 'commander';
import type { RegisterArea } from '../../areas.js';

// No defaults on flags: commander would print "(default: false)" into the compiled docs.
const collect = (value: string, previous: string[] = []): string[] => [...previous, value];
const LESSONS = 'knowledge_core/lessons.jsonl';

export const registerLessons: RegisterArea = (program: Command, action) => {
  const lessons = program
    .command('lessons')
    .description('turn post-mortem lessons into protocol updates: extract, apply (with an audit trail), list, resolve');

  lessons
    .command('extract')
    .description(
      'read the Lesson/Action pairs of a post-mortem\'s "Corrective Actions & Lessons Learned" section into lessons.jsonl; ' +
        'extracting the same post-mortem twice adds nothing; unrecognised actions become manual lessons; a lesson that says nothing ' +
        '(a template placeholder, the template\'s example, fewer than 3 real words) is refused at its line and nothing is added',
    )
    .argument('<postmortem>', 'the post-mortem Markdown file')
    .option('--task <id>', 'task id (default: the **Task:** line of the post-mortem, else its file name)')
    .option('--lessons <file>', 'the lessons file', LESSONS)
    .addHelpText(
      'after',
      "\nRecognised actions:\n  add tool 'X' to protocol 'P'\n  update rule 'R' in protocol 'P' to '...'\n  deprecate tool 'X' in protocol 'P'\n  propose code change to 'path'   (followed by a ```diff block)\n\nExample:\n  ratchet lessons extract postmortems/task-42.md",
    )
    .action(action(() => import('./extract.js')));

  lessons
    .command('apply')
    .description(
      'apply pending lessons in order: each ends applied or failed, with reason and time in its history (an applied one with the ' +
        'files it changed and their digests: only apply makes a lesson applied); one failure ' +
        'does not stop the rest; the targets are recompiled once at the end. Code changes become plans; no lesson runs a shell command',
    )
    .option('--dry-run', 'show each diff (on top of the ones before it) and the AGENTS.md it would compile; write nothing')
    .option('--apply-code', 'also apply code-change diffs to the files (default: write a plan and the diff only)')
    .option('--retry-failed', 'also retry lessons that failed before (after you fixed the cause)')
    .option('--id <lesson_id>', 'only this lesson; repeat for several', collect)
    .option('--lessons <file>', 'the lessons file', LESSONS)
    .option('--protocols <dir>', 'the protocols directory', 'protocols')
    .option('--out <file>', 'target to recompile; repeat for several (default: the targets of <protocols>/compile.json, else AGENTS.md)', collect)
    .addHelpText(
      'after',
      '\nExit codes: 0 all applied, 1 a lesson failed (the others still ran), 2 a corrupt lessons.jsonl line (kept as is).\n\nExamples:\n  ratchet lessons apply --dry-run\n  ratchet lessons apply',
    )
    .action(action(() => import('./apply.js')));

  lessons
    .command('list')
    .description('list lessons with their status; corrupt lines are reported with their line number; a lessons file edited by hand is refused (ratchet doctor)')
    .option('--status <status>', 'only pending, applied, failed, manual or resolved lessons')
    .option('--lessons <file>', 'the lessons file', LESSONS)
    .addHelpText('after', '\nExample:\n  ratchet lessons list --status manual')
    .action(action(() => import('./list.js')));

  lessons
    .command('resolve')
    .description('mark a manual (or failed) lesson as handled by a person, with a note in its history')
    .argument('<lesson_id>', 'the lesson')
    .option('--note <text>', 'what was done', '')
    .option('--lessons <file>', 'the lessons file', LESSONS)
    .addHelpText('after', "\nExample:\n  ratchet lessons resolve lesson-1a2b3c4d5e6f7a8b --note 'discussed in the retro'")
    .action(action(() => import('./resolve.js')));
};
