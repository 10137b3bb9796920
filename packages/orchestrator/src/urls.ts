/** `$schema` URLs of the orchestrator's files (the JSON Schemas ship in the package's schemas/). */
export const SESSION_SCHEMA_URL = 'https://unpkg.com/@ratchet/orchestrator/schemas/session.schema.json';
export const ACTIVITY_LOG_SCHEMA_URL = 'https://unpkg.com/@ratchet/orchestrator/schemas/activity-log-entry.schema.json';
export const AGENT_META_SCHEMA_URL = 'https://unpkg.com/@ratchet/orchestrator/schemas/agent-meta.schema.json';
export const ORIENTATION_REPORT_SCHEMA_URL = 'https://unpkg.com/@ratchet/orchestrator/schemas/orientation-report.schema.json';
