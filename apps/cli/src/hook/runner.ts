/** The runner name a Claude Code session claims campaign work under. */
import type { HookMemory } from './memory.js';

export function defaultRunner(env: Record<string, string | undefined>, sessionId: string | undefined): string {
  const fromEnv = env.RATCHET_RUNNER;
  if (fromEnv !== undefined && /^[\x21-\x7e]{1,64}$/.test(fromEnv)) return fromEnv;
  return `claude-${(sessionId ?? 'session').replace(/[^A-Za-z0-9]/g, '').slice(0, 8) || 'session'}`;
}

/** Every runner this session answers for: its default and those it claimed under. */
export function sessionRunners(env: Record<string, string | undefined>, sessionId: string | undefined, memory: HookMemory): string[] {
  return [...new Set([defaultRunner(env, sessionId), ...memory.runners])];
}
