/**
 * The orchestrator lifecycle, embedded so the published package needs no file at run time.
 * It must stay identical to protocols/orchestrator.fsm.json (a test compares them).
 */
export const ORCHESTRATOR_DEFINITION = {
  $schema: '../packages/fsm-core/schemas/fsm-definition.schema.json',
  id: 'orchestrator',
  description:
    'Master control: the task lifecycle an agent moves through one command at a time. Triggers are named so the orchestrator looks them up (triggerBetween) instead of hard-coding them.',
  states: [
    'START',
    'ORIENTING',
    'PLANNING',
    'RESEARCHING',
    'AWAITING_RESULT',
    'EXECUTING',
    'AWAITING_ANALYSIS',
    'POST_MORTEM',
    'SELF_CORRECTING',
    'AWAITING_SUBMISSION',
    'DONE',
    'ERROR',
  ],
  initial_state: 'START',
  final_states: ['DONE'],
  transitions: [
    { source: 'START', dest: 'ORIENTING', trigger: 'begin_task' },
    { source: 'ORIENTING', dest: 'PLANNING', trigger: 'orientation_complete' },
    { source: 'ORIENTING', dest: 'ERROR', trigger: 'orientation_failed' },
    { source: 'PLANNING', dest: 'PLANNING', trigger: 'plan_rejected' },
    { source: 'PLANNING', dest: 'EXECUTING', trigger: 'plan_accepted' },
    { source: 'PLANNING', dest: 'RESEARCHING', trigger: 'research_needed' },
    { source: 'RESEARCHING', dest: 'AWAITING_RESULT', trigger: 'research_launched' },
    { source: 'AWAITING_RESULT', dest: 'PLANNING', trigger: 'research_complete' },
    { source: 'AWAITING_RESULT', dest: 'ERROR', trigger: 'research_failed' },
    { source: 'EXECUTING', dest: 'EXECUTING', trigger: 'step_complete' },
    { source: 'EXECUTING', dest: 'AWAITING_ANALYSIS', trigger: 'plan_complete' },
    { source: 'EXECUTING', dest: 'ERROR', trigger: 'step_failed' },
    { source: 'AWAITING_ANALYSIS', dest: 'POST_MORTEM', trigger: 'analysis_complete' },
    { source: 'POST_MORTEM', dest: 'SELF_CORRECTING', trigger: 'post_mortem_complete' },
    { source: 'SELF_CORRECTING', dest: 'AWAITING_SUBMISSION', trigger: 'lessons_applied' },
    { source: 'AWAITING_SUBMISSION', dest: 'DONE', trigger: 'submit' },
    { source: 'ERROR', dest: 'ORIENTING', trigger: 'reorient' },
    { source: 'ERROR', dest: 'POST_MORTEM', trigger: 'abandon_task' },
  ],
} as const;
