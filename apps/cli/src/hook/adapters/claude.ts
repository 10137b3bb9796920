/** Claude Code: the shape the decisions read, and its own answer format. */
import { claudeAnswerText } from '../answer.js';
import { claudePayload } from '../payload.js';
import type { HarnessAdapter } from './types.js';

export const claude: HarnessAdapter = {
  harness: 'claude',
  read: (_event, raw) => ({ ...claudePayload(raw), harness: 'claude' }),
  reply: (_event, answer) => ({ stdout: claudeAnswerText(answer), exitCode: 0 }),
};
