/**
 * The entry of the CommonJS program bundles the bin runs (scripts/bundle.mjs): `run`, and the
 * command tree, which an area bundle reads from the full one for the usage text of every command
 * (commands/protocol/shared.ts). Not the library entry: index.ts keeps commander out of its types.
 */
export { run } from './main.js';
export { buildProgram } from './program.js';
