import { existsSync } from 'node:fs';
import type { Context } from '../../context.js';
import { CliError } from '../../errors.js';
import { EXIT_OK } from '../../exit-codes.js';
import { withInput } from '../../option-values.js';
import { versioned } from '../../output/json-output.js';
import { assetPath } from '../../paths.js';
import { startDashboard } from '../../serve/dashboard.js';
import { isLoopback } from '../../serve/server.js';
import { storageOf } from '../../storage.js';
import { serveInput, type ServeInput } from './inputs.js';

/** Resolves on the first SIGINT or SIGTERM (and stops listening for them). */
function untilSignal(): Promise<NodeJS.Signals> {
  return new Promise((resolve) => {
    const on = (signal: NodeJS.Signals): void => {
      process.off('SIGINT', on);
      process.off('SIGTERM', on);
      resolve(signal);
    };
    process.on('SIGINT', on);
    process.on('SIGTERM', on);
  });
}

/** `ratchet serve`: the dashboard, until a signal. */
async function serve(ctx: Context, { port, host }: ServeInput): Promise<number> {
  const assetsDir = assetPath('serve');
  if (!existsSync(`${assetsDir}/index.html`)) throw new CliError(`the dashboard's page is missing from this installation (${assetsDir}); reinstall @ratchet/cli, or run \`pnpm build\` in a checkout`, { code: 'missing-assets', exitCode: 70 });
  const backend = await storageOf(ctx);
  const signal = untilSignal();
  let dashboard;
  try {
    dashboard = await startDashboard(ctx, backend, { port, host, assetsDir });
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'EADDRINUSE') throw new CliError(`port ${port} on ${host} is in use (another \`ratchet serve\`?): pick another with --port, or --port 0 for any free one`, { code: 'port-in-use' });
    if (code === 'EADDRNOTAVAIL' || code === 'ENOTFOUND' || code === 'EAI_AGAIN') throw new CliError(`cannot listen on ${host}: not an address of this machine`, { code: 'bad-host' });
    if (code === 'EACCES') throw new CliError(`not allowed to listen on port ${port} (ports below 1024 need privileges): pick another with --port`, { code: 'port-denied' });
    throw err;
  }
  const loopback = isLoopback(dashboard.host);
  // The URL is the first line on stdout whatever else happens: scripts and tests read it.
  if (ctx.json) ctx.io.stdout(`${JSON.stringify(versioned('serve', { ok: true, url: dashboard.url, host: dashboard.host, port: dashboard.port, loopback, project: ctx.cwd, backend: { kind: backend.kind, location: backend.location } }))}\n`);
  else ctx.io.stdout(`${dashboard.url}\n`);
  if (!loopback) {
    ctx.io.stderr(`ratchet serve: WARNING: listening on ${dashboard.host}, not only this machine: anyone who can reach this address can read the project's state (tasks, plans, logs). The page is read-only; there is no login.\n`);
  }
  ctx.note(`ratchet serve: ${ctx.cwd} (${backend.kind === 'file' ? 'files, watched' : `${backend.location}, polled`}); Ctrl-C to stop`);
  const got = await signal;
  ctx.note(`ratchet serve: ${got}: stopping`);
  await dashboard.close();
  return EXIT_OK;
}
export default withInput(serveInput, serve);
