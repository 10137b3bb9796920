/** `ratchet hook subagent-stop`: a subagent answers for the same obligations as Stop. */
import { hookMain } from '../../hook-main.js';
import { handle } from './stop.js';

export { handle };
export const main = (harness?: string): Promise<number | undefined> => hookMain('subagent-stop', handle, harness);
