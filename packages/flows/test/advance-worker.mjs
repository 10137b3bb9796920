// The concurrency test's worker, on the built package (fast start); advance-worker.ts is the same on the sources.
const [dist, root, sessionId] = process.argv.slice(2);
const { advanceFlow, loadFlowFile } = await import(dist);
const view = await advanceFlow({ root, loadFlow: (ref) => loadFlowFile(ref) }, { sessionId });
process.stdout.write(`${view.outcome} ${String(view.session.current)}\n`);
