/**
 * The seam between an agent CLI and Ratchet's one decision core: an adapter reads the harness's
 * payload into the HookPayload the decisions read (tool names and inputs in Claude Code's
 * vocabulary), and writes the decision (a HookAnswer) in the harness's answer format.
 */
import type { HookAnswer } from '../answer.js';
import type { Harness, HookEvent } from '../events.js';
import type { HookPayload } from '../payload.js';

/** What the hook process prints and how it exits. */
export interface HookReply {
  stdout: string;
  exitCode: number;
}

export interface HarnessAdapter {
  harness: Harness;
  /** The payload object as the decisions read it. */
  read(event: HookEvent, raw: Record<string, unknown>): HookPayload;
  /** The harness's answer for one decision about `event`. */
  reply(event: HookEvent, answer: HookAnswer): HookReply;
}

export const NO_REPLY: HookReply = { stdout: '', exitCode: 0 };

export const json = (value: unknown): HookReply => ({ stdout: `${JSON.stringify(value)}\n`, exitCode: 0 });
