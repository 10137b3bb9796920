/**
 * `ratchet goals|actions|proposals|turn`: Frontal Cortex (@ratchet/goals). Long-horizon goals,
 * pending actions with owner semantics, the action-type registry and its proposals, and the
 * turn-start assessment / turn-end commit an agent runs every turn. Definitions only: each
 * implementation is imported when its command runs.
 */
import { Option, type Command } from 'commander';
import type { RegisterArea } from '../../areas.js';

const STATE = '.ratchet/goals.json';

const collect = (value: string, previous: string[] = []): string[] => [...previous, value];

/** Where the turn trace is: the commands that record into it or read it. */
function traced(cmd: Command): Command {
  return cmd
    .option('--traces <file>', 'the turn trace (JSON Lines), relative to --cwd; rotated files sit beside it (traces.1.jsonl, ...)', '.ratchet/traces.jsonl')
    .option('--trace-config <file>', 'default budgets and rotation size', '.ratchet/trace.config.json')
    .option('--now <time>', 'the clock (ISO 8601; default: now)');
}

/** Options every goals command shares: where the state and the registry are. */
function common(cmd: Command): Command {
  return cmd
    .option('--state <file>', 'the goals state file, relative to --cwd (with a shared store, RATCHET_STORE=postgres://..., the key of the state in the database)', STATE)
    .option('--registry <file>', 'action-type registry (JSON or YAML; default: protocols/action_types.json, .yaml or .yml if present, else the bundled one)')
    .option('--agent <id>', 'the acting agent (default: $RATCHET_AGENT): it sees and changes only goals, actions and Scratch Page items in its scope or shared with it; new items are stamped with it. Where RATCHET_AGENT is set, another --agent is refused')
    .option('--org <id>', 'the acting agent\'s org (default: $RATCHET_ORG); where RATCHET_ORG is set, another --org is refused');
}

/** Commands that change the state: who is acting, and optimistic locking. */
function writer(cmd: Command): Command {
  return common(cmd)
    .addOption(
      new Option('--as <role>', 'who is acting: the agent or the user (owner semantics depend on it); default: $RATCHET_ACTOR, else agent. Where RATCHET_ACTOR=agent (set by the harness for its agents), --as user is refused').choices(['agent', 'user']),
    )
    .option('--who <name>', 'name recorded in the audit trail (default: the role)')
    .option('--expected-version <n>', 'optimistic locking: refuse (exit 1) unless the state is at this version');
}

export const registerGoals: RegisterArea = (program, action) => {
  const goals = program.command('goals').description('long-horizon goals: add, list, progress, and the versioned history you can revert');
  writer(goals.command('add').description('add a goal, or with the --id of an existing goal change only the fields given (the others keep their values)').argument('[title]', 'what the goal is (required for a new goal)'))
    .option('--id <id>', 'goal id (default: g1, g2, ...)')
    // No default: with --id, a default would reset the priority of a goal whose update did not name it.
    .option('--priority <n>', 'priority, higher first (a new goal: 0)')
    .option('--description <text>', 'longer description')
    .option('--parent <id>', 'parent goal id')
    .option('--horizon-days <n>', 'how far ahead the goal looks, in days (>= 0)')
    .option('--horizon-steps <n>', 'how far ahead the goal looks, in steps (a whole number >= 0)')
    .option('--metric <name=value>', 'a measure of the goal and its current value, a number (repeatable; with --id it sets that metric and keeps the others)', collect)
    .option('--constraint <text>', 'a constraint the goal must respect (repeatable; with --id the list given replaces the old one)', collect)
    .addOption(new Option('--status <status>', 'the goal\'s status (a new goal: active)').choices(['proposed', 'active', 'paused', 'achieved', 'abandoned']))
    .addHelpText(
      'after',
      '\nExamples:\n  ratchet goals add "Ship the beta" --priority 5\n  ratchet goals add "Grow signups" --horizon-days 90 --metric signups=120 --constraint "no paid ads" --status proposed\n' +
        '  ratchet goals add --id g1 --description "public beta by June"   # title and priority unchanged\n  ratchet goals add --id g1 --status achieved --metric signups=150',
    )
    .action(action(() => import('./goals.js'), 'add'));
  common(goals.command('list').description('list goals, highest priority first'))
    .option('--all', 'include paused, achieved and abandoned goals', false)
    .action(action(() => import('./goals.js'), 'list'));
  common(goals.command('context').description("the planner's inputs in one bounded document: active goals and progress, top pending actions per owner, relevant questions and stories, the registry's action types, relevant memories"))
    .option('--query <text>', 'the stimulus: goals, questions and memories relevant to it rank first (memories default to the top goals\' titles)')
    .option('--budget <chars>', 'at most this many characters of output (the JSON with --json, else the Markdown); what is cut to fit is listed in the output')
    .option('--limit <n>', 'how many pending actions per owner', '10')
    .option('--goals <n>', 'how many goals', '10')
    .option('--questions <n>', 'how many questions', '5')
    .option('--memory <file>', 'the memory file to query, inside the project', '.ratchet/memory.json')
    .option('--no-memory', 'leave memories out')
    .option('--now <time>', 'the clock (ISO 8601; default: now): same state and clock, same output')
    .addHelpText(
      'after',
      '\nWith --json: one document (JSON Schema: @ratchet/goals/schemas/plan-context.schema.json); otherwise compact Markdown for a prompt.\n' +
        'Over the budget, items are cut round-robin (memories, questions, user actions, agent actions, action types), lowest-ranked first; goals only once all else is gone.\n' +
        '\nExamples:\n  ratchet goals context --query "speed up the signup page" --budget 4000\n  ratchet --json goals context --now 2030-01-01T09:00:00Z > context.json',
    )
    .action(action(() => import('./context.js'), 'context'));
  const plan = goals.command('plan').description("plans in the seed's format: a narrative, then \"## Step N: name\" sections with Success Criteria, Actions and Parallelizable with");
  plan
    .command('check')
    .description('parse and check a plan: every step has success criteria, parallel steps exist and list each other, the order and parallel groups form a DAG; prints the waves (exit 1 on problems, 2 if unreadable)')
    .argument('<file>', 'the plan (Markdown); "-" for stdin')
    .addHelpText(
      'after',
      '\nSteps run in the order written, except alongside the steps they are declared parallel with; "None - must wait for Step N"\n' +
        'adds an explicit wait. With --json: the parsed plan (JSON Schema: @ratchet/goals/schemas/plan.schema.json), every problem with its line.\n' +
        '\nExamples:\n  ratchet goals plan check plan.md\n  ratchet --json goals plan check - < plan.md',
    )
    .action(action(() => import('./plan.js'), 'check'));
  traced(writer(plan.command('start').description('start executing a plan that checks: its steps are recorded in the goals state (refused, exit 1, if the plan has errors)').argument('<file>', 'the plan (Markdown); "-" for stdin')))
    .option('--id <id>', 'plan id (default: pl1, pl2, ...)')
    .option('--goal <id>', 'the goal it serves')
    .option('--turn <id>', 'the turn it was made in')
    .addHelpText('after', '\nExample:\n  ratchet goals plan start plan.md --goal g1 && ratchet goals plan step pl1 1 start')
    .action(action(() => import('./plan.js'), 'start'));
  traced(writer(
    plan
      .command('step')
      .description('record a step started, succeeded (with --evidence: what shows its success criteria were met) or failed (with --reason; --regenerate asks for a new plan). A step starts only after the steps it waits for succeeded; only a started step succeeds or fails (refusals exit 1)')
      .argument('<plan>', 'plan id')
      .argument('<step>', 'step number')
      .argument('<event>', 'start, succeed or fail'),
  ))
    .option('--turn <id>', 'the turn whose trace records the step (default: $RATCHET_TURN, else the open turn started last); each step is a span <plan>.s<N>')
    .option('--evidence <ref...>', 'evidence that the success criteria were met (files, URLs, tool results); required to succeed')
    .option('--note <text>', 'how the evidence meets the criteria')
    .option('--reason <text>', 'why the step failed (required to fail)')
    .option('--regenerate', 'with fail: request a new plan from the planner', false)
    .addHelpText('after', '\nExamples:\n  ratchet goals plan step pl1 1 start\n  ratchet goals plan step pl1 1 succeed --evidence profiles/signup.json\n  ratchet goals plan step pl1 2 fail --reason "the cache is not shared" --regenerate')
    .action(action(() => import('./plan.js'), 'step'));
  common(plan.command('show').description('list plan runs, or show one run\'s steps, their evidence and what is ready').argument('[plan]', 'plan id'))
    .action(action(() => import('./plan.js'), 'show'));
  writer(goals.command('progress').description('set or add progress (0 to 1) on a goal, with evidence links').argument('<id>', 'goal id'))
    .option('--set <x>', 'absolute progress, 0 to 1')
    .option('--delta <x>', 'progress to add (clamped to 0..1)')
    .option('--evidence <ref...>', 'evidence links (files, URLs, tool results)')
    .addHelpText('after', '\nExample:\n  ratchet goals progress g1 --delta 0.25 --evidence ci/run/812')
    .action(action(() => import('./goals.js'), 'progress'));
  writer(
    goals
      .command('share')
      .description('grant another agent or org read or write access to a goal, action or Scratch Page item in your scope (or withdraw it with --access none); only the item\'s own agent (or org) shares it')
      .argument('<kind>', 'goal, action or observation')
      .argument('<id>', 'the item id'),
  )
    .option('--agent-grant <id>', 'the agent to grant (with --org-grant: only within that org)')
    .option('--org-grant <id>', 'the org to grant: every agent of it')
    .addOption(new Option('--access <access>', 'read, write (changes, never the scope or ACL) or none (withdraw)').choices(['read', 'write', 'none']).makeOptionMandatory())
    .addHelpText(
      'after',
      '\nItems without agent_id/org_id (state written before scopes, or by a user without --agent) are visible to all.\n' +
        'An agent that reads or changes an item outside its scope and grants is refused (exit 1, code scope-violation) with the item\'s scope.\n' +
        '\nExamples:\n  ratchet goals share goal g3 --agent-grant b --access read --agent a --org acme\n  ratchet goals share action a7 --org-grant acme --access write\n  ratchet goals share goal g3 --agent-grant b --access none',
    )
    .action(action(() => import('./share.js')));
  writer(goals.command('compact').description('compact the oldest audit entries into a summary that keeps evidence pointers, goal milestones, archived questions and stories with their lineage, per-type action counts and a revert point; the state file stays bounded (the user only: --as user)'))
    .option('--keep <n>', 'keep this many of the newest audit entries as they are', '1000')
    .option('--before <time>', 'compact only entries written before this time (ISO 8601)')
    .option('--revert-points <n>', 'how many of the newest summaries keep their revert point (the before-images that make it one)', '5')
    .addHelpText(
      'after',
      '\nA revert still goes back to any version from the oldest kept entry on, and to each summary\'s revert point\n' +
        '(the version before its range) while the summary keeps its before-images. ratchet goals history shows the summaries.\n' +
        '\nExamples:\n  ratchet goals compact --as user --keep 500\n  ratchet goals compact --as user --before 2030-01-01T00:00:00Z --revert-points 2',
    )
    .action(action(() => import('./compact.js')));
  common(goals.command('history').description('the audit trail: every version, who made it, when, and what changed'))
    .option('--since <version>', 'only versions after this one', '0')
    .action(action(() => import('./goals.js'), 'history'));
  writer(goals.command('revert').description('make a new version whose goals, actions, questions and stories are as they were at <version> (the agent cannot undo a user\'s confirmation or review; nobody reverts across a registry merge)').argument('<version>', 'version to go back to'))
    .addHelpText('after', '\nExample:\n  ratchet goals history && ratchet goals revert 3')
    .action(action(() => import('./goals.js'), 'revert'));

  const actions = program.command('actions').description("pending actions for the agent or the user, each with a registry type whose statuses and policies are enforced");
  writer(actions.command('add').description('add a pending action; an unknown type becomes a user_task requiring confirmation and files a proposal').argument('<type>', 'action type id (ratchet actions types)').argument('<title>', 'what to do'))
    .option('--id <id>', 'action id (default: a1, a2, ...)')
    .addOption(new Option('--owner <owner>', 'who is expected to act (default: the type\'s first allowed owner)').choices(['agent', 'user']))
    .option('--priority <n>', 'priority (utility density is priority / effort)', '0')
    .option('--effort <n>', 'estimated effort (> 0, default 1)')
    .option('--due <time>', 'due time (ISO 8601)')
    .option('--goal <id>', 'the goal it serves')
    .option('--blocking', 'blocks progress until done')
    .option('--meta <key=value...>', 'metadata to record on the action')
    .addHelpText('after', '\nExamples:\n  ratchet actions add agent_task "Write the migration" --priority 3 --goal g1\n  ratchet actions add approval_request "Approve the schema change" --due 2030-01-02T09:00:00Z')
    .action(action(() => import('./actions.js'), 'add'));
  common(actions.command('list').description('list actions, in assessment order'))
    .option('--all', 'include finished actions', false)
    .addOption(new Option('--owner <owner>', 'only this owner\'s actions').choices(['agent', 'user']))
    .option('--status <statuses>', 'only these statuses, comma separated (finished ones included)')
    .option('--type <types>', 'only these action types, comma separated')
    .option('--goal <id>', 'only actions serving this goal')
    .addHelpText('after', '\nExamples:\n  ratchet actions list --owner user --status awaiting_confirmation\n  ratchet --json actions list --type decision,approval_request --goal g1')
    .action(action(() => import('./actions.js'), 'list'));
  writer(
    actions
      .command('update')
      .description("change an existing action's title, description, priority, effort, due date, goal or blocking flag (only the fields given; its status moves with move/complete). The agent cannot change a user-owned action's (exit 1)")
      .argument('<id>', 'action id'),
  )
    .option('--title <text>', 'the new title')
    .option('--description <text>', 'the new description')
    .option('--priority <n>', 'the new priority (>= 0; utility density is priority / effort)')
    .option('--effort <n>', 'the new estimated effort (> 0)')
    .option('--due <time>', 'the new due time (ISO 8601)')
    .option('--goal <id>', 'the goal it serves')
    .option('--blocking', 'mark it as blocking progress')
    .option('--no-blocking', 'mark it as not blocking')
    .addHelpText(
      'after',
      '\nWith --json: {ok, version, action} (JSON Schema: @ratchet/cli/schemas/output/actions-update.v1.schema.json). Nothing to change,\n' +
        'a bad value or an unknown id is exit 2 and nothing is written.\n' +
        '\nExamples:\n  ratchet actions update a1 --priority 5 --due 2030-02-01T09:00:00Z\n  ratchet actions update a1 --title "Write and test the migration"\n  ratchet actions update a4 --priority 1 --as user   # the user re-prioritises their own task',
    )
    .action(action(() => import('./actions.js'), 'update'));
  writer(actions.command('move').description("move an action to another status (the type's state machine decides what is legal)").argument('<id>', 'action id').argument('<status>', 'target status'))
    .option('--evidence <ref...>', 'evidence links')
    .option('--meta <key=value...>', 'metadata to record first (e.g. choice=postgres, which a decision needs before it closes)')
    .action(action(() => import('./actions.js'), 'move'));
  writer(actions.command('complete').description("complete an action (through the type's intermediate statuses); the agent cannot complete user-owned actions").argument('<id>', 'action id'))
    .option('--evidence <ref...>', 'evidence links')
    .option('--meta <key=value...>', 'metadata to record first (e.g. choice=postgres, which a decision needs before it closes)')
    .addHelpText('after', '\nExamples:\n  ratchet actions complete a1\n  ratchet actions complete a2 --as user\n  ratchet actions complete a3 --as user --meta choice=postgres')
    .action(action(() => import('./actions.js'), 'complete'));
  writer(actions.command('retype').description('give an action coerced to user_task (its type was unknown) the type it asked for, once that type\'s proposal is merged').argument('<id>', 'action id'))
    .addHelpText('after', '\nExample:\n  ratchet proposals merge p1 --as user && ratchet actions retype a3')
    .action(action(() => import('./actions.js'), 'retype'));
  writer(actions.command('confirm').description('the user confirms an action that requires confirmation (use --as user)').argument('<id>', 'action id'))
    .action(action(() => import('./actions.js'), 'confirm'));
  common(actions.command('stats').description('per action type: created, completed, completion rate, open, overdue, escalated, cancelled, failed and failure rate (from the audit trail and the current state), to watch a type\'s rollout'))
    .option('--since <time>', 'only what happened at or after this time (ISO 8601); open and overdue are always as of now')
    .option('--now <time>', 'the clock (ISO 8601; default: now): same state and clock, same output')
    .addHelpText(
      'after',
      '\ncompletion rate: of the actions created in the window, the share completed by now; failure rate: failed / (completed + cancelled + failed).\n' +
        '"coerced" counts actions asked for with a type id the registry lacked (they became user_task). Reverts are not counted.\n' +
        'With --json: one document (JSON Schema: @ratchet/goals/schemas/action-stats.schema.json). Scoped to what --agent may see.\n' +
        '\nExamples:\n  ratchet actions stats\n  ratchet --json actions stats --since 2030-01-01T00:00:00Z --now 2030-01-08T00:00:00Z',
    )
    .action(action(() => import('./stats.js')));
  common(actions.command('types').description('check the action-type registry and list its types, statuses and transitions (exit 2 if it is invalid)'))
    .action(action(() => import('./actions.js'), 'types'));

  const questions = program.command('questions').description('guiding questions: the open ones rank in turn assess; each may have a story');
  writer(questions.command('add').description('add a question, or with the --id of an existing one change only the fields given').argument('[text]', 'the question (required for a new one)'))
    .option('--id <id>', 'question id (default: q1, q2, ...)')
    .option('--goal <id>', 'the goal it serves')
    .option('--priority <n>', 'priority (a new question: 0)')
    .addOption(new Option('--status <status>', 'status').choices(['open', 'answered', 'archived']))
    .addOption(new Option('--owner <owner>', 'who answers it').choices(['agent', 'user']))
    .option('--tag <tag...>', 'tags to add')
    .addHelpText('after', '\nExamples:\n  ratchet questions add "Which users churn first?" --goal g1 --priority 2\n  ratchet questions add --id q1 --status answered')
    .action(action(() => import('./questions.js'), 'question-add'));
  common(questions.command('list').description('list questions, highest priority first (open ones unless --all)'))
    .option('--all', 'include answered and archived questions', false)
    .option('--goal <id>', 'only questions serving this goal')
    .addHelpText('after', '\nExample:\n  ratchet --json questions list --goal g1')
    .action(action(() => import('./questions.js'), 'question-list'));

  const stories = program.command('stories').description("a question's evolving story: narrative, acceptance criteria and evidence (criteria and evidence only grow)");
  writer(stories.command('update').description("create or update a story (by --id, or the --question's story)"))
    .option('--id <id>', 'story id')
    .option('--question <id>', 'the question it answers (creates its story if it has none)')
    .option('--narrative <text>', 'the narrative (replaces the previous one)')
    .option('--criterion <text...>', 'acceptance criteria to add')
    .option('--evidence <ref...>', 'evidence links to add')
    .addOption(new Option('--status <status>', 'status').choices(['draft', 'active', 'accepted', 'archived']))
    .addHelpText('after', '\nExamples:\n  ratchet stories update --question q1 --narrative "Churn starts at onboarding" --criterion "cohort data for 3 months"\n  ratchet stories update --id s1 --evidence reports/churn.md --status accepted')
    .action(action(() => import('./questions.js'), 'story-update'));
  common(stories.command('list').description('list stories'))
    .option('--question <id>', 'only the story of this question')
    .addHelpText('after', '\nExample:\n  ratchet --json stories list --question q1')
    .action(action(() => import('./questions.js'), 'story-list'));

  const scratch = program.command('scratch').description('the Scratch Page: low-commitment stories and observations that expire (7 days by default) unless reviewed, promoted to a goal or action, or archived');
  const clock = (cmd: Command): Command => cmd.option('--now <time>', 'the clock (ISO 8601; default: now): expiry is judged against it');
  clock(writer(scratch.command('add').description('note an observation (what a tool or daemon saw)').argument('<content>', 'what was observed')))
    .requiredOption('--source <where>', 'the tool, daemon or file that saw it')
    .option('--id <id>', 'id (default: o1, o2, ...)')
    .addOption(new Option('--type <type>', 'kind of item').choices(['observation', 'story', 'insight', 'alert']))
    .addOption(new Option('--owner <owner>', 'whose it is (default: who adds it)').choices(['agent', 'user']))
    .option('--confidence <x>', 'confidence, 0 to 1 (default 0.5)')
    .option('--tag <tag...>', 'tags')
    .option('--ttl <duration>', 'time to live, ISO 8601 (default P7D)')
    .option('--expires <time>', 'expiry time instead of a ttl (ISO 8601)')
    .addHelpText('after', '\nExample:\n  ratchet scratch add "signup p95 doubled since Monday" --source tool:grafana --tag perf --confidence 0.8')
    .action(action(() => import('./scratch.js'), 'add'));
  clock(common(scratch.command('list').description('the active items, newest first (expired ones leave the list on read)')))
    .option('--all', 'also list expired, resolved and archived items', false)
    .addOption(new Option('--status <status>', 'only this status').choices(['active', 'pending_review', 'resolved', 'archived']))
    .option('--tag <tag>', 'only items with this tag')
    .action(action(() => import('./scratch.js'), 'list'));
  clock(writer(scratch.command('review').description('move an item to pending_review, back to active, or resolve it').argument('<id>', 'observation id').argument('<status>', 'active, pending_review or resolved')))
    .option('--note <text>', 'a review note')
    .action(action(() => import('./scratch.js'), 'review'));
  clock(writer(scratch.command('promote').description('make an observation a goal or a pending action that links back to it (scratch:<id> in its evidence; an action also gets metadata.observation_id); the item is resolved').argument('<id>', 'observation id').argument('<to>', 'goal or action')))
    .option('--title <text>', 'title (default: the observation)')
    .option('--action-type <type>', 'the action type (default agent_task)')
    .option('--priority <n>', 'priority')
    .option('--goal <id>', 'for an action: the goal it serves')
    .addHelpText('after', '\nExamples:\n  ratchet scratch promote o1 action --action-type research --title "Find why signup got slow"\n  ratchet scratch promote o2 goal --priority 3')
    .action(action(() => import('./scratch.js'), 'promote'));
  clock(writer(scratch.command('archive').description('archive an item (final)').argument('<id>', 'observation id'))).action(action(() => import('./scratch.js'), 'archive'));
  clock(writer(scratch.command('expire').description('archive every item past its expiry (reads already leave them out; this records it)'))).action(action(() => import('./scratch.js'), 'expire'));

  const proposals = program.command('proposals').description('proposals to change the action-type registry: submit, amend, show, review, merge, export as a patch (each move during an open turn is an event in its trace)');
  traced(writer(proposals.command('submit').description('propose adding, modifying or deprecating an action type').argument('[file]', 'a JSON proposal ({proposal_type, type_id, allowed_statuses, ...}); "-" for stdin')))
    .addOption(new Option('--kind <kind>', 'proposal type').choices(['add', 'modify', 'deprecate']))
    .option('--type-id <id>', 'the action type concerned')
    .option('--rationale <text>', 'why')
    .addHelpText('after', '\nExamples:\n  ratchet proposals submit examples/goals/code-review.proposal.json\n  ratchet proposals submit --kind deprecate --type-id research --rationale "use agent_task"')
    .action(action(() => import('./proposals.js'), 'submit'));
  traced(writer(
    proposals
      .command('amend')
      .description('change an open or approved proposal before it is merged: the fields the file gives replace the proposal\'s (an approved one goes back to review)')
      .argument('<id>', 'proposal id')
      .argument('[file]', 'a JSON amendment ({type_id?, display_name?, allowed_owners?, suggested_policies?, allowed_statuses?, allowed_transitions?, policy_handlers?, rationale?, ...}); "-" for stdin'),
  ))
    .option('--type-id <id>', 'set the action type id')
    .option('--rationale <text>', 'replace the rationale')
    .addHelpText(
      'after',
      '\nThe file is checked against @ratchet/goals/schemas/proposal-amendment.schema.json, and the action type an add\n' +
        'proposal describes is checked as the registry checks one; problems are placed at file:line:col (exit 2).\n' +
        'Rejected and merged proposals are final (exit 1). The audit trail (ratchet goals history) keeps before and after.\n' +
        '\nExamples:\n  ratchet proposals amend p1 code-review.amend.json --as user\n  ratchet proposals amend p1 --type-id deploy_window',
    )
    .action(action(() => import('./proposals.js'), 'amend'));
  common(proposals.command('list').description('list proposals'))
    .addOption(new Option('--status <status>', 'only this status').choices(['open', 'approved', 'rejected', 'merged']))
    .action(action(() => import('./proposals.js'), 'list'));
  common(proposals.command('show').description('show one proposal in full: the type it describes, rationale, examples, risks, reviews').argument('<id>', 'proposal id'))
    .addHelpText('after', '\nExample:\n  ratchet proposals show p1\n  ratchet proposals export p1   # the same change as a diff of the registry file')
    .action(action(() => import('./proposals.js'), 'show'));
  traced(writer(proposals.command('review').description('approve or reject a proposal, with comments (the user reviews: --as user)').argument('<id>', 'proposal id').argument('<decision>', 'approve or reject')))
    .option('--comments <text>', 'review comments', '')
    .action(action(() => import('./proposals.js'), 'review'));
  traced(writer(proposals.command('merge').description('write an approved proposal into the registry file (the user merges: --as user; never changes a turn already running)').argument('<id>', 'proposal id')))
    .action(action(() => import('./proposals.js'), 'merge'));
  common(proposals.command('export').description('print the proposal as a unified diff of the registry file (git apply accepts it)').argument('<id>', 'proposal id'))
    .addHelpText('after', '\nExample:\n  ratchet proposals export p1 > p1.patch && git apply p1.patch')
    .action(action(() => import('./proposals.js'), 'export'));

  const turn = program.command('turn').description('turn integration: assess at turn start, commit deltas at turn end (idempotent by turn id), and the turn trace (start, end, trace)');
  common(turn.command('assess').description('top goals, pending actions (by utility density, due date, blocking, goal alignment) and questions'))
    .option('--limit <n>', 'how many actions (overall and per owner)', '10')
    .option('--goals <n>', 'how many goals', '10')
    .option('--query <text>', 'the stimulus: goals and questions sharing words with it rank first')
    .addOption(new Option('--owner <owner>', "only this owner's actions").choices(['agent', 'user']))
    .option('--now <time>', 'the turn clock (ISO 8601; default: now)')
    .addHelpText('after', '\nExample:\n  ratchet --json turn assess --limit 5')
    .action(action(() => import('./turn.js'), 'assess'));
  traced(writer(turn.command('commit').description('apply a turn\'s deltas (progress, new and completed actions, story updates); replaying a turn changes nothing; a turn started with `turn start` is judged against the registry it started with').argument('<file>', 'the commit as JSON ({turn_id, expected_version?, progress, new_actions, completed_actions, story_updates}); "-" for stdin')))
    .addHelpText('after', '\nWhen the turn has an open trace (ratchet turn start), the commit is recorded in it as a Decision, and each proposal it filed as a Policy event naming the proposal.\n\nExample:\n  ratchet turn commit turn-42.json')
    .action(action(() => import('./turn.js'), 'commit'));
  registerTrace(turn, action);
};

/** `ratchet turn start|end` and `ratchet turn trace span|event|show|replay`. */
function registerTrace(turn: Command, action: Parameters<RegisterArea>[1]): void {
  const load = () => import('./trace.js');
  traced(turn.command('start').description('start a turn\'s trace with its budgets (defaults from .ratchet/trace.config.json); planner steps, commits, proposals and the harness then record into it').argument('[turn]', 'turn id (default: turn-<base36 time>)'))
    .option('--tokens <n>', 'token budget of the turn')
    .option('--tools <n>', 'tool invocation budget of the turn')
    .option('--time-ms <n>', 'wall-clock budget of the turn, in ms')
    .option('--registry <file>', "the action-type registry the turn runs under (default: the project's protocols/action_types.*, else the bundled one); the agent cannot bring its own")
    .addOption(new Option('--as <role>', 'who starts the turn (default: $RATCHET_ACTOR, else agent)').choices(['agent', 'user']))
    .addHelpText(
      'after',
      '\nThe turn runs under the action-type registry in use when it starts (kept in .ratchet/registry-pins/): a type merged\n' +
        'while it runs is not usable in its commit (it is coerced to user_task, as an unknown type), only from the next turn.\n' +
        'A span or turn that goes past a budget gets a Policy event naming the budget and by how much (and a note on stderr).\n' +
        'Recordings go to --turn, else $RATCHET_TURN, else the turn started last.\n' +
        '\nExamples:\n  ratchet turn start t42 --tokens 200000 --tools 40 --time-ms 600000\n  export RATCHET_TURN=t42',
    )
    .action(action(load, 'start'));
  traced(turn.command('end').description('end a turn: spans still open end with status error, --summary adds a Summary event; nothing more is recorded into it').argument('[turn]', 'turn id (default: --turn, $RATCHET_TURN, else the turn started last)'))
    .option('--summary <text>', 'what the turn achieved')
    .option('--turn <id>', 'the turn')
    .addHelpText('after', '\nExample:\n  ratchet turn end t42 --summary "cache added, tests green"')
    .action(action(load, 'end'));
  const trace = turn.command('trace').description("the turn trace: a harness's spans and events, a turn shown as a tree with budgets used vs allowed, replay in dependency order");
  const span = trace.command('span').description('record a span of work (a tool call, a sub-agent, a phase) starting or ending');
  traced(span.command('start').description('start a span in the current turn').argument('<span>', 'span id, unique in the turn'))
    .option('--component <name>', 'what runs in it: planner, executor, a tool name', 'harness')
    .option('--parent <span>', 'the open span it is part of')
    .option('--depends-on <span...>', 'spans (already started in this turn) it comes after in a replay')
    .option('--tokens <n>', "the span's token budget")
    .option('--tools <n>', "the span's tool invocation budget")
    .option('--time-ms <n>', "the span's wall-clock budget, in ms")
    .option('--turn <id>', 'the turn (default: $RATCHET_TURN, else the turn started last)')
    .addHelpText('after', '\nExample:\n  ratchet turn trace span start fetch --component web_fetch --depends-on plan --tokens 5000')
    .action(action(load, 'span', 'start'));
  traced(span.command('end').description('end an open span (refused before its start time, twice, or with open child spans)').argument('<span>', 'span id'))
    .addOption(new Option('--status <status>', 'how it ended').choices(['ok', 'error']).default('ok'))
    .option('--tokens <n>', 'tokens the span used (added to its usage)')
    .option('--tools <n>', 'tool invocations the span made (added to its usage)')
    .option('--turn <id>', 'the turn (default: $RATCHET_TURN, else the turn started last)')
    .addHelpText('after', '\nExample:\n  ratchet turn trace span end fetch --tokens 3120 --tools 1')
    .action(action(load, 'span', 'end'));
  traced(trace.command('event').description('record an event in the current turn (in an open span with --span)').argument('<kind>', 'Decision, ToolInvocation, Observation, Error, Policy or Summary').argument('<summary>', 'one line saying what happened'))
    .option('--span <span>', 'the open span it happened in')
    .option('--payload <json>', 'details, as a JSON object')
    .option('--proposal <id>', 'the registry proposal it is about')
    .option('--tokens <n>', 'tokens used')
    .option('--tools <n>', 'tool invocations (a ToolInvocation counts 1 by default)')
    .option('--turn <id>', 'the turn (default: $RATCHET_TURN, else the turn started last)')
    .addHelpText('after', '\nExamples:\n  ratchet turn trace event ToolInvocation "grep -r cache src" --span exec --tokens 800\n  ratchet turn trace event Decision "keep the old API" --payload \'{"options":2}\'')
    .action(action(load, 'event'));
  traced(trace.command('show').description('a turn as a tree of spans with their events, and its budgets used vs allowed').argument('[turn]', 'turn id (default: $RATCHET_TURN, else the turn started last)'))
    .option('--turn <id>', 'the turn')
    .addHelpText('after', '\nWith --json: {trace, tree, over, warnings} (JSON Schema: @ratchet/cli/schemas/output/turn-trace-show.v1.schema.json; the trace: @ratchet/goals/schemas/turn-trace.schema.json).\nA torn last line (a writer killed mid-append) is skipped with a warning; any other bad line is an error naming file and line (exit 2).\n\nExample:\n  ratchet turn trace show t42')
    .action(action(load, 'show'));
  traced(trace.command('replay').description("a turn's spans in a topological order over depends_on (ties: start time, then id); a cycle or a dangling depends_on is refused naming the spans (exit 2)").argument('[turn]', 'turn id (default: $RATCHET_TURN, else the turn started last)'))
    .option('--turn <id>', 'the turn')
    .addHelpText('after', '\nWith --json: JSON Schema @ratchet/cli/schemas/output/turn-trace-replay.v1.schema.json.\n\nExample:\n  ratchet --json turn trace replay t42')
    .action(action(load, 'replay'));
}
