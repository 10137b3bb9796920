// A separate process for the concurrency test: advance one session once, print the outcome.
import { advanceFlow, loadFlowFile } from '../src/index.js';

const [root, sessionId] = process.argv.slice(2) as [string, string];
const view = await advanceFlow({ root, loadFlow: (ref) => loadFlowFile(ref) }, { sessionId });
process.stdout.write(`${view.outcome} ${String(view.session.current)}\n`);
