/**
 * What each command does to Ratchet's state, and which MCP tool does it for the agent. The table
 * decides, for every face:
 *   - `read`: changes no Ratchet state (it may write the agent's own work: a plan file, stdout). It
 *     runs anywhere, also inside the agent's sandbox;
 *   - `write`: changes Ratchet state. Inside the agent's sandbox, where Ratchet's files are
 *     read-only, it is refused (exit 2) naming the MCP tool that does it instead;
 *   - `user`: a person's decision (accepting an edit, merging a proposal, resuming a halted flow,
 *     converting another system's files). Refused for the agent on every channel (exit 2).
 * Some commands change state only with an option (`campaign ready --claim`, `memory query
 * --record`) or not with one (`--dry-run`, `--check`): their effect is a function of the options.
 * A command missing from the table counts as `write` (fail closed), and a test holds the table to
 * the command tree and to the MCP server's tools.
 */
export type Effect = 'read' | 'write' | 'user';

export interface CommandEffect {
  effect: Effect | ((options: Readonly<Record<string, unknown>>) => Effect);
  /** The MCP tool that performs a `write` for the agent. */
  mcp?: string;
}

const R: CommandEffect = { effect: 'read' };
const U: CommandEffect = { effect: 'user' };
const w = (mcp: string): CommandEffect => ({ effect: 'write', mcp });
/** A write unless `flag` is set (a dry run, a check). */
const unless = (flag: string, mcp: string): CommandEffect => ({ effect: (o) => (o[flag] === true ? 'read' : 'write'), mcp });
/** A write only when `flag` is given. */
const when = (flag: string, mcp: string): CommandEffect => ({ effect: (o) => (o[flag] === undefined || o[flag] === false ? 'read' : 'write'), mcp });

export const COMMAND_EFFECTS: Readonly<Record<string, CommandEffect>> = {
  'fsm check': R,
  'fsm render': R,
  'fsm accept': R,
  'plan lint': R,
  'plan analyze': R,
  // A plan file is the agent's own work (PLANNING allows writing plans), not Ratchet state.
  'plan fmt': R,
  'plan registry register': w('plan_registry_register'),
  'plan registry deregister': w('plan_registry_deregister'),
  'plan registry list': R,
  init: U,
  quickstart: R,
  // Prints a shell script; the user's shell decides where it goes.
  completion: R,
  'task start': w('task_start'),
  'task close': w('task_close'),
  'task submit': w('task_submit'),
  // Dropping a task's progress is the user's call (it forgets obligations).
  'task reset': U,
  'run plan': w('run_plan'),
  'run next': R,
  'run done': w('run_done'),
  'run status': R,
  'research plan': w('research_plan'),
  'research done': w('research_done'),
  'protocol compile': unless('check', 'protocol_compile'),
  'protocol show': R,
  'protocol update add-tool': unless('dryRun', 'protocol_update'),
  'protocol update update-rule': unless('dryRun', 'protocol_update'),
  'protocol update deprecate-tool': unless('dryRun', 'protocol_update'),
  'lessons extract': w('lessons_extract'),
  'lessons apply': unless('dryRun', 'lessons_apply'),
  'lessons list': R,
  'lessons resolve': U,
  'jixo check': R,
  'jixo lock': w('jixo_lock'),
  'jixo unlock': w('jixo_unlock'),
  'jixo triage': unless('dryRun', 'jixo_triage'),
  'jixo task lock': w('jixo_task_lock'),
  'jixo task complete': w('jixo_task_finish'),
  'jixo task fail': w('jixo_task_finish'),
  'jixo task pause': w('jixo_task_finish'),
  'jixo task unblock': w('jixo_task_edit'),
  'jixo task edit': w('jixo_task_edit'),
  'jixo task depends': w('jixo_task_edit'),
  'jixo task remove': w('jixo_task_edit'),
  'jixo task add': w('jixo_task_add'),
  'jixo task retry': w('jixo_task_edit'),
  'jixo task cancel': w('jixo_task_edit'),
  'jixo task list': R,
  'jixo log add': w('jixo_log_add'),
  'jixo title': w('jixo_task_edit'),
  'jixo progress': R,
  'jixo exit': w('jixo_exit'),
  'jixo clarify add': w('jixo_clarify'),
  'jixo clarify list': R,
  'jixo clarify remove': U,
  // The outer loop launches agents: a person starts it.
  'jixo run': U,
  // Accepting an edit to a JIXO log, or restoring the kept copy, is a person's decision (as doctor --accept).
  'jixo accept': U,
  'jixo restore': U,
  'flow list': R,
  'flow start': w('flow_start'),
  'flow advance': w('flow_advance'),
  'flow status': R,
  'flow complete-branch': w('flow_complete_branch'),
  'flow halt': w('flow_halt'),
  'flow resume': U,
  // Declining a flow for this prompt is the user's choice, never the agent's way out of it.
  'flow decline': U,
  'campaign create': w('campaign_create'),
  'campaign add-tasks': w('campaign_add_tasks'),
  'campaign ready': when('claim', 'campaign_ready'),
  'campaign heartbeat': w('campaign_heartbeat'),
  'campaign update-task': w('campaign_update_task'),
  'campaign cascade-status': R,
  'campaign propagate-blocks': w('campaign_propagate_blocks'),
  'campaign waves': R,
  'campaign graph': R,
  'campaign status': R,
  'campaign complete': w('campaign_complete'),
  'campaign phase': w('campaign_phase'),
  'campaign find-similar': R,
  'workspace create': w('workspace_create'),
  'workspace complete': w('workspace_finish'),
  'workspace block': w('workspace_finish'),
  'workspace show': R,
  'workspace list': R,
  'memory add-failure': w('memory_add_failure'),
  'memory add-pattern': w('memory_add_pattern'),
  'memory query': when('record', 'memory_query'),
  'memory explain': R,
  'memory feedback': w('memory_feedback'),
  'memory link': w('memory_link'),
  'memory related': R,
  'memory prune': unless('dryRun', 'memory_prune'),
  'memory import': U,
  'memory stats': R,
  'memory observe': w('memory_observe'),
  // Run by the harness, never by the agent (see hook/run.ts).
  hook: R,
  // The dashboard reads state and serves it; it never writes.
  serve: R,
  // Converting another system's files into Ratchet's state is a migration a person runs.
  import: { effect: (o) => (o.write === true ? 'user' : 'read') },
  doctor: { effect: (o) => (o.accept !== undefined || o.restore !== undefined ? 'user' : 'read') },
  'store status': R,
  'store export': R,
  'store import': U,
  'goals add': w('goals_add'),
  'goals list': R,
  'goals context': R,
  'goals plan check': R,
  'goals plan start': w('goals_plan'),
  'goals plan step': w('goals_plan'),
  'goals plan show': R,
  'goals progress': w('goals_progress'),
  'goals share': U,
  'goals compact': U,
  'goals history': R,
  'goals revert': U,
  'actions add': w('actions_add'),
  'actions list': R,
  'actions move': w('actions_update'),
  'actions complete': w('actions_complete'),
  'actions retype': w('actions_update'),
  'actions update': w('actions_update'),
  'actions confirm': U,
  'actions stats': R,
  'actions types': R,
  'questions add': w('questions_add'),
  'questions list': R,
  'stories update': w('stories_update'),
  'stories list': R,
  'scratch add': w('scratch_add'),
  'scratch list': R,
  'scratch review': w('scratch_update'),
  'scratch promote': w('scratch_update'),
  'scratch archive': w('scratch_update'),
  'scratch expire': w('scratch_update'),
  'proposals submit': w('proposals_submit'),
  'proposals amend': w('proposals_submit'),
  'proposals list': R,
  'proposals show': R,
  'proposals review': U,
  'proposals merge': U,
  'proposals export': R,
  'turn assess': R,
  'turn commit': w('turn_commit'),
  'turn start': w('turn_start'),
  'turn end': w('turn_end'),
  'turn trace span start': w('turn_trace'),
  'turn trace span end': w('turn_trace'),
  'turn trace event': w('turn_trace'),
  'turn trace show': R,
  'turn trace replay': R,
};

/** The effect of `command` (its words, e.g. `campaign ready`) run with `options`; unknown commands count as writes. */
export function effectOf(command: string, options: Readonly<Record<string, unknown>> = {}): { effect: Effect; mcp: string | undefined } {
  const entry = COMMAND_EFFECTS[command];
  // Acting as the user is a person's move, whatever the command.
  if (options.as === 'user') return { effect: 'user', mcp: entry?.mcp };
  if (entry === undefined) return { effect: 'write', mcp: undefined };
  return { effect: typeof entry.effect === 'function' ? entry.effect(options) : entry.effect, mcp: entry.mcp };
}
