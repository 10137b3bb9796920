/** Where the shipped JSON Schemas live (files Ratchet writes carry them as `$schema`). */
export const ACTION_TYPES_SCHEMA_URL = 'https://unpkg.com/@ratchet/goals/schemas/action-types.schema.json';
export const GOALS_STATE_SCHEMA_URL = 'https://unpkg.com/@ratchet/goals/schemas/goals-state.schema.json';
export const TURN_COMMIT_SCHEMA_URL = 'https://unpkg.com/@ratchet/goals/schemas/turn-commit.schema.json';
export const PROPOSAL_SCHEMA_URL = 'https://unpkg.com/@ratchet/goals/schemas/proposal.schema.json';
export const PROPOSAL_AMENDMENT_SCHEMA_URL = 'https://unpkg.com/@ratchet/goals/schemas/proposal-amendment.schema.json';
export const PLAN_CONTEXT_SCHEMA_URL = 'https://unpkg.com/@ratchet/goals/schemas/plan-context.schema.json';
export const PLAN_SCHEMA_URL = 'https://unpkg.com/@ratchet/goals/schemas/plan.schema.json';
export const ACTION_STATS_SCHEMA_URL = 'https://unpkg.com/@ratchet/goals/schemas/action-stats.schema.json';
