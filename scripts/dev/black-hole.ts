/**
 * Test helper (repo-internal, never published): a loopback TCP port where a connect never
 * completes and never fails, the way an unroutable address behaves, without sending a packet off
 * this machine. A child process listens with a backlog of 1 and is stopped (SIGSTOP), so it never
 * accepts; two filler connections fill the kernel's accept queue, and from then on Linux drops
 * every new SYN: the caller's connect waits until its own deadline. Linux only (other kernels
 * answer a full queue differently); callers skip elsewhere.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { connect, type Socket } from 'node:net';

export interface BlackHole {
  host: string;
  port: number;
  close(): void;
}

const LISTENER = `const s = require('node:net').createServer();
s.listen({ host: '127.0.0.1', port: 0, backlog: 1 }, () => process.stdout.write(s.address().port + '\\n'));`;

export async function blackHole(): Promise<BlackHole> {
  const child: ChildProcess = spawn(process.execPath, ['-e', LISTENER], { stdio: ['ignore', 'pipe', 'inherit'] });
  const port = await new Promise<number>((resolve, reject) => {
    child.once('error', reject);
    child.stdout!.once('data', (chunk: Buffer) => resolve(Number(String(chunk).trim())));
  });
  child.kill('SIGSTOP');
  const fillers: Socket[] = [];
  // The accept queue holds backlog + 1 connections; open a few more than that so it is surely full.
  const connected = [0, 1, 2, 3].map(
    () =>
      new Promise<boolean>((resolve) => {
        const socket = connect({ host: '127.0.0.1', port });
        fillers.push(socket);
        socket.once('connect', () => resolve(true));
        socket.once('error', () => resolve(false));
        setTimeout(() => resolve(false), 300).unref();
      }),
  );
  const results = await Promise.all(connected);
  if (results.filter(Boolean).length > 2) {
    throw new Error(`black hole: ${results.filter(Boolean).length} connections completed against a stopped listener; this kernel does not drop SYNs on a full accept queue`);
  }
  return {
    host: '127.0.0.1',
    port,
    close() {
      for (const s of fillers) s.destroy();
      child.kill('SIGKILL');
    },
  };
}
