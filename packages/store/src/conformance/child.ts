/**
 * The conformance kit's child processes: real processes (not workers) so that locks, transactions
 * and `kill -9` behave as they do between CLI invocations. The program is plain JavaScript run with
 * `node --input-type=module -e`, so it needs no file of its own in the package and runs the same
 * from source and from dist; it imports the adapter's `workerModule` for its backend.
 */
import { spawn } from 'node:child_process';

/** One job for one child; `workerModule` exports `createBackend(): Promise<StorageBackend>`. */
export type ChildJob =
  | { op: 'increment'; key: string; times: number }
  | { op: 'claim-all'; queue: string; owner: string; leaseMs: number }
  | { op: 'write-expecting'; key: string; expectedRevision: number; owner: string }
  | { op: 'append'; key: string; writer: string; times: number }
  | { op: 'hang-in-update'; key: string };

/** What a child reports on its last line. */
export interface ChildReport {
  ok: boolean;
  error?: string;
  code?: string;
  claimed?: string[];
  won?: boolean;
  seqs?: number[];
}

const PROGRAM = String.raw`
const job = JSON.parse(process.env.RATCHET_CONFORMANCE_JOB);
const say = (o) => process.stdout.write(JSON.stringify(o) + '\n');
const { pathToFileURL } = await import('node:url');
const mod = await import(pathToFileURL(job.workerModule).href);
const backend = await mod.createBackend();
say({ ready: true });
await new Promise((resolve) => process.stdin.once('data', resolve));
const report = { ok: true };
try {
  if (job.op === 'increment') {
    for (let i = 0; i < job.times; i++) await backend.documents.update(job.key, (cur) => ({ count: (cur?.value.count ?? 0) + 1 }));
  } else if (job.op === 'claim-all') {
    report.claimed = [];
    for (;;) {
      const claim = await backend.queues.claim(job.queue, job.owner, job.leaseMs);
      if (claim === undefined) break;
      report.claimed.push(claim.id);
      await backend.queues.finish(job.queue, claim.id, job.owner, 'done');
    }
  } else if (job.op === 'write-expecting') {
    try {
      await backend.documents.update(job.key, () => ({ winner: job.owner }), { expectedRevision: job.expectedRevision });
      report.won = true;
    } catch (err) {
      if (err?.code !== 'revision-conflict') throw err;
      report.won = false;
    }
  } else if (job.op === 'append') {
    report.seqs = [];
    for (let i = 0; i < job.times; i++) report.seqs.push(await backend.logs.append(job.key, [{ writer: job.writer, i }]));
  } else if (job.op === 'hang-in-update') {
    setInterval(() => {}, 1000);
    await backend.documents.update(job.key, async () => {
      say({ inside: true });
      await new Promise(() => {});
    });
  }
} catch (err) {
  report.ok = false;
  report.error = String(err?.stack ?? err);
  report.code = err?.code;
}
say(report);
await backend.close();
// This is the child program's own exit, not the package's: a third-party adapter whose close()
// leaves a timer or socket behind must not hang the kit, so the child ends once it has reported.
process.exit(0);
`;

export interface RunningChild {
  readonly pid: number;
  readonly lines: unknown[];
  waitFor(test: (line: Record<string, unknown>) => boolean, timeoutMs: number): Promise<Record<string, unknown>>;
  go(): void;
  kill(): Promise<void>;
  /** The last line once the child has exited (its report), with its exit code and stderr. */
  readonly finished: Promise<{ report: ChildReport | undefined; code: number | null; stderr: string }>;
}

export function startChild(workerModule: string, job: ChildJob, env: Record<string, string>): RunningChild {
  const child = spawn(process.execPath, ['--input-type=module', '-e', PROGRAM], {
    stdio: ['pipe', 'pipe', 'pipe'],
    env: { ...process.env, ...env, RATCHET_CONFORMANCE_JOB: JSON.stringify({ ...job, workerModule }) },
  });
  const lines: Record<string, unknown>[] = [];
  const listeners = new Set<() => void>();
  let buffered = '';
  let stderr = '';
  let exited = false;
  child.stdout.setEncoding('utf8');
  child.stdout.on('data', (chunk: string) => {
    buffered += chunk;
    const parts = buffered.split('\n');
    buffered = parts.pop() ?? '';
    for (const part of parts) {
      try {
        lines.push(JSON.parse(part) as Record<string, unknown>);
      } catch {
        lines.push({ text: part });
      }
    }
    for (const listener of listeners) listener();
  });
  child.stderr.setEncoding('utf8');
  child.stderr.on('data', (chunk: string) => {
    stderr += chunk;
  });
  const finished = new Promise<{ report: ChildReport | undefined; code: number | null; stderr: string }>((resolve) => {
    child.on('close', (code) => {
      exited = true;
      for (const listener of listeners) listener();
      const last = lines.at(-1);
      resolve({ report: last !== undefined && 'ok' in last ? (last as unknown as ChildReport) : undefined, code, stderr });
    });
  });
  if (child.pid === undefined) throw new Error('could not start a conformance child process');
  return {
    pid: child.pid,
    lines,
    finished,
    go() {
      child.stdin.write('go\n');
    },
    async kill() {
      child.kill('SIGKILL');
      await finished;
    },
    waitFor(test, timeoutMs) {
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => done(new Error(`a conformance child did not report in ${timeoutMs} ms; lines ${JSON.stringify(lines.slice(-3))}; stderr ${stderr}`)), timeoutMs);
        const check = (): void => {
          const line = lines.find(test);
          if (line !== undefined) done(undefined, line);
          else if (exited) done(new Error(`a conformance child exited early; lines ${JSON.stringify(lines.slice(-3))}; stderr ${stderr}`));
        };
        const done = (err: Error | undefined, line?: Record<string, unknown>): void => {
          clearTimeout(timer);
          listeners.delete(check);
          if (err === undefined) resolve(line ?? {});
          else reject(err);
        };
        listeners.add(check);
        check();
      });
    },
  };
}

/** Start children, wait until every one has its backend, release them at once, collect their reports. */
export async function runTogether(workerModule: string, jobs: readonly ChildJob[], env: Record<string, string>, timeoutMs: number): Promise<ChildReport[]> {
  const children = jobs.map((job) => startChild(workerModule, job, env));
  try {
    await Promise.all(children.map((c) => c.waitFor((l) => l.ready === true, timeoutMs)));
    for (const c of children) c.go();
    const results = await Promise.all(children.map((c) => c.finished));
    return results.map((r, i) => {
      if (r.report === undefined) throw new Error(`conformance child ${i} exited with ${String(r.code)} without a report; stderr: ${r.stderr}`);
      if (!r.report.ok) throw new Error(`conformance child ${i} failed: ${r.report.error ?? '?'}`);
      return r.report;
    });
  } finally {
    await Promise.all(children.map((c) => c.kill().catch(() => undefined)));
  }
}
