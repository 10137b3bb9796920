/** Where the turn trace's JSON Schemas are published. */
export const TURN_TRACE_SCHEMA_URL = 'https://unpkg.com/@ratchet/goals/schemas/turn-trace.schema.json';
export const TRACE_RECORD_SCHEMA_URL = 'https://unpkg.com/@ratchet/goals/schemas/trace-record.schema.json';
export const TRACE_CONFIG_SCHEMA_URL = 'https://unpkg.com/@ratchet/goals/schemas/trace-config.schema.json';
