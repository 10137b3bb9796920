/**
 * The seed's nine action types, as shipped in protocols/action_types.json (a test checks they are
 * the same). Statuses follow the public registry: user_task goes open -> awaiting_confirmation ->
 * done | cancelled. The first status of each type is where new actions start.
 */
import type { ActionType } from './types.js';
import { ACTION_TYPES_SCHEMA_URL } from './urls.js';

const taskFlow = {
  allowed_statuses: ['open', 'in_progress', 'done', 'cancelled'],
  allowed_transitions: { open: ['in_progress', 'done', 'cancelled'], in_progress: ['open', 'done', 'cancelled'] },
};

export const DEFAULT_ACTION_TYPES: readonly ActionType[] = [
  {
    id: 'agent_task',
    display_name: 'Agent task',
    description: 'Executable by the agent; may auto-complete.',
    allowed_owners: ['agent'],
    default_policies: { requires_confirmation: false, auto_complete: true, blocking: false },
    ...taskFlow,
    deprecation_status: 'active',
  },
  {
    id: 'user_task',
    display_name: 'User task',
    description: 'Requires user acknowledgment to complete; the agent can never complete it.',
    allowed_owners: ['user'],
    default_policies: { requires_confirmation: true, auto_complete: false, blocking: false },
    allowed_statuses: ['open', 'awaiting_confirmation', 'done', 'cancelled'],
    allowed_transitions: { open: ['awaiting_confirmation', 'cancelled'], awaiting_confirmation: ['done', 'cancelled', 'open'] },
    policy_handlers: { completion_guard: 'user_acknowledgment' },
    deprecation_status: 'active',
  },
  {
    id: 'approval_request',
    display_name: 'Approval request',
    description: 'Requires confirmation before proceeding; blocks until the user decides.',
    allowed_owners: ['user'],
    default_policies: { requires_confirmation: true, auto_complete: false, blocking: true, escalation: { after: 'PT24H', policy: 'notify_owner' } },
    allowed_statuses: ['pending', 'approved', 'rejected', 'cancelled'],
    allowed_transitions: { pending: ['approved', 'rejected', 'cancelled'] },
    deprecation_status: 'active',
  },
  {
    id: 'reminder',
    display_name: 'Reminder',
    description: 'A time-based nudge; escalates once it is past due.',
    allowed_owners: ['agent', 'user'],
    default_policies: { requires_confirmation: false, auto_complete: true, blocking: false, escalation: { after: 'PT0S', policy: 'notify_owner' } },
    allowed_statuses: ['scheduled', 'escalated', 'done', 'dismissed'],
    allowed_transitions: { scheduled: ['escalated', 'done', 'dismissed'], escalated: ['done', 'dismissed'] },
    policy_handlers: { escalation: 'notify_owner' },
    deprecation_status: 'active',
  },
  {
    id: 'follow_up',
    display_name: 'Follow-up',
    description: 'Check back after an event or a time window.',
    allowed_owners: ['agent', 'user'],
    default_policies: { requires_confirmation: false, auto_complete: true, blocking: false, escalation: { after: 'PT24H', policy: 'notify_owner' } },
    allowed_statuses: ['waiting', 'escalated', 'done', 'cancelled'],
    allowed_transitions: { waiting: ['escalated', 'done', 'cancelled'], escalated: ['done', 'cancelled'] },
    deprecation_status: 'active',
  },
  {
    id: 'research',
    display_name: 'Research',
    description: 'Gather information before execution.',
    allowed_owners: ['agent'],
    default_policies: { requires_confirmation: false, auto_complete: true, blocking: false },
    ...taskFlow,
    deprecation_status: 'active',
  },
  {
    id: 'decision',
    display_name: 'Decision',
    description: 'Requires an explicit choice among options, confirmed by the user.',
    allowed_owners: ['user', 'agent'],
    default_policies: { requires_confirmation: true, auto_complete: true, blocking: true },
    allowed_statuses: ['open', 'decided', 'cancelled'],
    allowed_transitions: { open: ['decided', 'cancelled'] },
    policy_handlers: { completion_guard: 'choice_recorded' },
    deprecation_status: 'active',
  },
  {
    id: 'background_job',
    display_name: 'Background job',
    description: 'A long-running or asynchronous process to monitor.',
    allowed_owners: ['agent'],
    default_policies: { requires_confirmation: false, auto_complete: true, blocking: false },
    allowed_statuses: ['queued', 'running', 'failed', 'succeeded', 'cancelled'],
    allowed_transitions: { queued: ['running', 'cancelled'], running: ['succeeded', 'failed', 'cancelled'], failed: ['queued', 'cancelled'] },
    deprecation_status: 'active',
  },
  {
    id: 'blocker',
    display_name: 'Blocker',
    description: 'A blocking condition that halts progress until resolved.',
    allowed_owners: ['agent', 'user'],
    default_policies: { requires_confirmation: false, auto_complete: true, blocking: true },
    allowed_statuses: ['open', 'resolved', 'cancelled'],
    allowed_transitions: { open: ['resolved', 'cancelled'] },
    deprecation_status: 'active',
  },
];

/** The registry document as shipped (`protocols/action_types.json`). */
export function defaultRegistryDocument(): { $schema: string; schemaVersion: 1; action_types: ActionType[] } {
  return { $schema: ACTION_TYPES_SCHEMA_URL, schemaVersion: 1, action_types: structuredClone([...DEFAULT_ACTION_TYPES]) };
}
