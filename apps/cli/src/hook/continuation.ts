/**
 * A stop hook's reason that comes back as a prompt. Copilot CLI submits the reason of a blocked
 * agentStop as a new user prompt, and fires userPromptSubmitted for it: answered as a prompt, it
 * would start a reasoning flow for Ratchet's own words, a new obligation that blocks the next stop
 * again. The prompt names the obligations of this session's last block (hook memory), so it is
 * recognised by that text whatever the reason's wording, and left to the Stop guard.
 */
import { openHookMemory } from './memory.js';
import type { HookPayload } from './payload.js';

export function isStopContinuation(root: string, payload: HookPayload): boolean {
  if (payload.prompt === undefined || payload.sessionId === undefined) return false;
  let lastBlock: string | null;
  try {
    lastBlock = openHookMemory(root, payload.sessionId).readSync().lastBlock;
  } catch {
    // Unreadable memory: the prompt handler reports it.
    return false;
  }
  return lastBlock !== null && lastBlock !== '' && payload.prompt.includes(lastBlock);
}
