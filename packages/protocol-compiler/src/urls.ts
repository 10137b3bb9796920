/** Where the shipped JSON Schemas are published (a file Ratchet scaffolds into a project points at them). */
export const PROTOCOL_SCHEMA_URL = 'https://unpkg.com/@ratchet/protocol-compiler/schemas/protocol.schema.json';
export const COMPILE_CONFIG_SCHEMA_URL = 'https://unpkg.com/@ratchet/protocol-compiler/schemas/compile-config.schema.json';
