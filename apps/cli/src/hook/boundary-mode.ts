/**
 * Which boundary holds this project's agent, for the session's first words: Claude Code's sandbox
 * with Ratchet's files read-only to the agent's shell (set up by `ratchet init --claude`), or no OS
 * boundary at all (another harness, or the sandbox off), where the agent's shell has the user's
 * rights and Ratchet can only refuse what its hooks see and detect the rest afterwards.
 */
import { join } from 'node:path';
import { readJsonFileSync } from '@ratchet/store';

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

function sandboxOf(path: string): Json | undefined {
  try {
    const { value } = readJsonFileSync(path, { maxBytes: 4 * 1024 * 1024 });
    return isObject(value) && isObject(value.sandbox) ? value.sandbox : undefined;
  } catch {
    return undefined;
  }
}

/** Whether the project's Claude Code settings keep `.ratchet` read-only to a sandboxed shell that cannot leave the sandbox. */
export function sandboxed(root: string): boolean {
  // settings.local.json overrides settings.json, key by key.
  const merged: Json = { ...sandboxOf(join(root, '.claude/settings.json')), ...sandboxOf(join(root, '.claude/settings.local.json')) };
  const fs = isObject(merged.filesystem) ? merged.filesystem : {};
  const deny = Array.isArray(fs.denyWrite) ? fs.denyWrite : [];
  return merged.enabled === true && merged.allowUnsandboxedCommands === false && deny.some((p) => p === './.ratchet' || p === '.ratchet' || p === './.ratchet/');
}

export function boundaryNote(root: string): string {
  return sandboxed(root)
    ? "Ratchet's state, rules and config are read-only to your shell (Claude Code's sandbox): change state through Ratchet's MCP tools (task_start, run_plan, run_done, ...); read-only `ratchet` commands work in the shell."
    : "No OS boundary here: your shell has the user's rights over Ratchet's files. Ratchet refuses what its hooks can see, and a state file changed, removed or rolled back outside Ratchet stops every command until a person repairs it (`ratchet doctor`).";
}
