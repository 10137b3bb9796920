/**
 * Records a refusal the hook just answered (a deny or a Stop block) in the refusal log, for
 * `ratchet serve`. Called once by run.ts after the answer is written, so it can never change or
 * delay what the agent is told; a failure here is a stderr note and nothing else. On files it is
 * one O_APPEND write (`appendFast`); on a shared backend the record goes to that backend's log
 * (every machine's refusals on one page), through a module loaded only then.
 */
import { join } from 'node:path';
import { openJsonl, storageKind } from '@ratchet/store';
import { REFUSAL_LOG, refusalRecord, refusalValidator, type RefusalRecord } from '../refusal-log.js';
import type { HookAnswer } from './answer.js';
import type { HookPayload } from './payload.js';

export async function recordRefusal(root: string, event: string, answer: HookAnswer, payload: HookPayload, env: Readonly<Record<string, string | undefined>>): Promise<void> {
  if (answer.kind !== 'deny' && answer.kind !== 'block') return;
  const record: RefusalRecord = refusalRecord({ time: new Date(), event, decision: answer.kind, reason: answer.reason, tool: payload.toolName, session: payload.sessionId });
  if (storageKind(root, env) === 'file') {
    await openJsonl(join(root, REFUSAL_LOG), { schema: refusalValidator, createParentDirs: true }).appendFast([record]);
    return;
  }
  const { appendSharedRefusal } = await import('./refusal-shared.js');
  await appendSharedRefusal(root, env, record);
}
