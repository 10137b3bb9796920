/** `ratchet hook post-tool-use`: its own start-up bundle (see src/hook-main.ts). */
import type { Session } from '@ratchet/orchestrator/session-view';
import { hookMain } from '../../hook-main.js';
import { readTaskSession } from '../obligations.js';
import { postToolUse } from '../post-tool-use.js';
import type { HookHandler } from '../run.js';

export const handle: HookHandler = async (ctx, root, payload) => {
  let session: Session | undefined;
  try {
    session = readTaskSession(root);
  } catch {
    // An unreadable session still gets its tool call logged (without a step); Stop and
    // PreToolUse are the ones that report it.
    session = undefined;
  }
  await postToolUse(root, payload, session, ctx.io.env);
  return { kind: 'none' };
};
export const main = (harness?: string): Promise<number | undefined> => hookMain('post-tool-use', handle, harness);
