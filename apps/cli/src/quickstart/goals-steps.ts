/**
 * Quickstart steps for Frontal Cortex (@ratchet/goals): a goal, actions for the agent and the user,
 * owner semantics refusing the agent, the turn-start assessment, a turn commit (with an unknown
 * action type coerced and proposed), its idempotent replay, and the audit trail.
 */
import type { TourStep } from './steps.js';

export const GOALS_STEPS: readonly TourStep[] = [
  {
    title: 'A long-horizon goal',
    explain: 'Goals, pending actions, questions and stories live in .ratchet/goals.json; every change is a new version with an audit entry.',
    args: ['goals', 'add', 'Ship the beta', '--priority', '5'],
    expectExit: 0,
  },
  {
    title: 'A pending action for the agent',
    explain: 'Its type comes from the action-type registry (protocols/action_types.json): statuses, transitions and policies.',
    args: ['actions', 'add', 'agent_task', 'Write the migration', '--priority', '3', '--goal', 'g1'],
    expectExit: 0,
  },
  {
    title: 'A pending action for the user',
    explain: 'A user_task is owned by the user and requires their confirmation.',
    args: ['actions', 'add', 'user_task', 'Approve the release notes'],
    expectExit: 0,
  },
  {
    title: 'The agent cannot complete what the user owns',
    explain: 'Owner semantics are enforced, not suggested: the refusal says why and nothing is written (exit 1).',
    args: ['actions', 'complete', 'a2'],
    expectExit: 1,
  },
  {
    title: 'Turn start: what to look at',
    explain: 'Top goals, then pending actions per owner by utility density (priority / effort), due date, blocking and goal alignment, ties broken deterministically.',
    args: ['turn', 'assess'],
    expectExit: 0,
  },
  {
    title: 'Turn end: commit the deltas',
    explain: 'Progress with evidence, a completed action, new actions and a story, in one version. "load_test" is not a registered type: it becomes a user_task requiring confirmation and a registry proposal is filed.',
    args: ['turn', 'commit', 'examples/goals/turn-1.json'],
    expectExit: 0,
    examples: ['goals/turn-1.json'],
  },
  {
    title: 'Replay the same turn',
    explain: 'Commits are idempotent by turn id: replaying changes nothing.',
    args: ['turn', 'commit', 'examples/goals/turn-1.json'],
    expectExit: 0,
  },
  {
    title: 'The proposal waiting for review',
    explain: 'Proposals never change the running turn; a maintainer reviews, merges into the registry file, or exports a patch.',
    args: ['proposals', 'list'],
    expectExit: 0,
  },
  {
    title: 'The audit trail',
    explain: 'Who changed what, when, from which version to which; `ratchet goals revert <version>` goes back to any of them.',
    args: ['goals', 'history'],
    expectExit: 0,
  },
];
