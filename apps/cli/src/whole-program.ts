/**
 * Every command's definition, for what documents the command tree (the usage AGENTS.md embeds, the
 * shell completion scripts). A command area's own bundle (dist/cli-<area>.cjs, scripts/bundle.mjs)
 * holds only that area's commands, so there the tree comes from the full program beside it,
 * dist/cli.cjs: only the definitions are read from it, never a command run.
 */
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import type { Command } from 'commander';
import type { Io } from './context.js';
import { buildProgram } from './program.js';

export async function wholeProgram(): Promise<Command> {
  if (process.env.RATCHET_BUNDLE_AREA === undefined) return buildProgram(silentIo(), { exitCode: 0 });
  const full = createRequire(import.meta.url)(fileURLToPath(new URL('./cli.cjs', import.meta.url))) as { buildProgram: typeof buildProgram };
  return full.buildProgram(silentIo(), { exitCode: 0 });
}

function silentIo(): Io {
  return { stdout: () => {}, stderr: () => {}, isTTY: false, env: {}, cwd: '/', readStdin: () => Promise.resolve('') };
}
