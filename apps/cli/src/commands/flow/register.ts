/**
 * `ratchet flow ...`: step and phase workflows (the reasoning protocol, composite skills) whose every
 * call saves the session, prints the step and ends with the one command to run next. Definitions
 * only; implementations load lazily.
 */
import type { Command } from 'commander';
import type { RegisterArea } from '../../areas.js';

const collect = (value: string, previous: string[] = []): string[] => [...previous, value];

export const registerFlow: RegisterArea = (program: Command, action) => {
  const flow = program
    .command('flow')
    .description(
      'run step-by-step workflows an agent cannot skip: each call saves the session, prints the step and names ' +
        "what must happen first and the exact next command; advancing waits until the step's files (agent memory, " +
        'memory-agent notes) and its output hold, written for this step: not left from earlier work, not copies',
    )
    .addHelpText(
      'after',
      '\nExit codes: 0 ok, 1 refused (a gate does not hold yet: the output says what is missing), 2 bad input.\n' +
        'Flows are found in protocols/flows/<name>.flow.{json,yaml} of the project first, then among the built-in ones.\n' +
        '\nDirective wording: protocols/flow-settings.json replaces Ratchet\'s for every flow that sets no "directive" of its own\n' +
        '(JSON Schema @ratchet/flows/schemas/flow-settings.schema.json; a file that does not validate is exit 2 with its place):\n' +
        '  { "directive": { "heading": "**Next, and only this:**", "warnings": ["- Your progress is saved."] } }\n' +
        'Memory-file names (every flow\'s agent, transition and learnings gates), e.g. the original\'s:\n' +
        '  { "memoryFiles": { "agent": ".claude/memory/{task-id}-{role}-memory.md" } }   ({role}: the agent name without "-agent")',
    );

  flow
    .command('list')
    .description('list the flows you can start (project ones first, then built-in) with what each is for and not for (routing goes by these), and the sessions in .ratchet/flows/')
    .addHelpText('after', '\nExample:\n  ratchet flow list')
    .action(action(() => import('./list.js')));

  flow
    .command('start')
    .description('start a session of a flow: saves it in .ratchet/flows/<session>.json, prints the first step and the next command')
    .argument('<flow>', 'a flow name (reasoning, develop-feature, or one in protocols/flows/) or a flow file path')
    .requiredOption('--session <id>', 'session id: letters, digits, ".", "_", "-"')
    .option('--input <key=value>', 'a flow input (repeatable); "task" names the memory files (default: the session id)', collect)
    .option('--agent', 'agent mode: this flow runs inside a sub-agent (the reasoning protocol then skips task routing)')
    .option('--then <flow>', 'a flow to run after this one (repeatable, in order): the completion directive starts it (dynamic skill sequencing)', collect)
    .addHelpText(
      'after',
      '\nExamples:\n  ratchet flow start reasoning --session s1 --input query="add a login page"\n' +
        '  ratchet flow start develop-feature --session s1-dev --input task=login --input depth=quick --then review\n' +
        '  ratchet flow start examples/flows/review.flow.yaml --session r1',
    )
    .action(action(() => import('./start.js')));

  flow
    .command('advance')
    .description('leave the current step once its gates hold (else exit 1, saying what is missing); there is no override')
    .requiredOption('--session <id>', 'the session')
    .option('--loop', 'ITERATIVE step: go back to its loop target (limited, 3 by default)')
    .option('--remediate', 'REMEDIATION step: send the work back to its remediation target (limited)')
    .option('--set <key=value>', 'set a session variable the step requires, e.g. route=develop-feature (repeatable); a value the flow does not allow (a route that names no flow) is exit 2', collect)
    .option('--note <text>', 'record a note on the step (repeatable)', collect)
    .option('--question <text>', 'record a clarifying question (repeatable, at most 5): the session halts until the user answers', collect)
    .option('--then <flow>', 'name a flow to run after this one (repeatable): a skill naming the next skill; it must be a flow the CLI can start', collect)
    .option('--output <file>', "hand in the step's output (a reasoning step's work) from a file, or - for standard input; kept in the session, checked against the step's output gate")
    .addHelpText(
      'after',
      '\nExamples:\n  ratchet flow advance --session s1 --output step-1.md\n  ratchet flow advance --session s1 --set route=develop-feature --set confidence=HIGH --output step-4.md\n' +
        '  ratchet flow advance --session s1 --set route=develop-feature --set confidence=MEDIUM --question "Which database?"\n' +
        '  write-step-2 | ratchet flow advance --session s1 --output -\n  ratchet flow advance --session s1-dev --loop\n' +
        '\nArtifacts count only when written for this step: a file unchanged since the step began, or identical to one\n' +
        'accepted for another session, step or iteration (.ratchet/flow-artifacts.json), is refused.',
    )
    .action(action(() => import('./advance.js')));

  flow
    .command('status')
    .description('show a session\'s current step again with its next command (after a crash or a lost context); without --session, list sessions')
    .option('--session <id>', 'the session')
    .addHelpText('after', '\nExamples:\n  ratchet flow status --session s1\n  ratchet flow status')
    .action(action(() => import('./status.js')));

  flow
    .command('complete-branch')
    .description('mark a branch of the current PARALLEL step complete once its files exist (exit 1 if they do not)')
    .argument('<branch>', 'STEP:BRANCH (or BRANCH for the current step), e.g. 3:design')
    .requiredOption('--session <id>', 'the session')
    .addHelpText('after', '\nExample:\n  ratchet flow complete-branch 3:design --session s1-dev')
    .action(action(() => import('./complete-branch.js')));

  flow
    .command('halt')
    .description('stop the session with a reason (e.g. routing confidence too low); resume continues at the same step')
    .requiredOption('--session <id>', 'the session')
    .requiredOption('--reason <text>', 'why the session stops')
    .addHelpText('after', '\nExample:\n  ratchet flow halt --session s1 --reason "no skill matches with HIGH confidence"')
    .action(action(() => import('./halt.js')));

  flow
    .command('decline')
    .description(
      "the user's decision not to start the flow a finished session routed to (the reasoning protocol's route): until it is started or declined, " +
        "Ratchet's hooks hold the agent's writes and its stop. Refused when RATCHET_ACTOR=agent: the agent told to start it does not excuse itself",
    )
    .requiredOption('--session <id>', 'the finished session (the reasoning flow session)')
    .requiredOption('--reason <text>', 'why the routed flow is not wanted (kept in the session with the decision)')
    .addHelpText(
      'after',
      '\nWith --json: the session view (JSON Schema: @ratchet/cli/schemas/output/flow-decline.v1.schema.json); its state.handoff.declined\n' +
        'holds the reason. A session that routes nowhere, or whose routed flow was started already, is exit 2.\n' +
        '\nExample:\n  ratchet flow decline --session cc-1a2b3c4d-1 --reason "just answer the question, no code change"',
    )
    .action(action(() => import('./decline.js')));

  flow
    .command('resume')
    .description(
      "the user's decision after a halt: continue the session at the step where it stopped, with one --answer per clarifying question " +
        '(refused when RATCHET_ACTOR=agent: an agent that halted to ask does not answer itself)',
    )
    .requiredOption('--session <id>', 'the session')
    .option('--answer <text>', "the user's answer to a clarifying question (repeatable, one per question, in order); kept beside the questions", collect)
    .option('--note <text>', 'record a note on the step (repeatable)', collect)
    .addHelpText('after', '\nExamples:\n  ratchet flow resume --session s1 --answer "admins only" --answer "PostgreSQL"\n  ratchet flow resume --session s1-dev')
    .action(action(() => import('./resume.js')));
};
