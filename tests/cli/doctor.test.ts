/**
 * The shortcut an agent would take, refused: edit a state file by hand and carry on. Every state
 * document Ratchet writes has a digest record; the next command refuses content Ratchet did not
 * write (exit 2, the file and when Ratchet last wrote it), `ratchet doctor` lists it, and only a
 * person restores or accepts.
 */
import { existsSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { ratchet, tempDir } from '../helpers.js';

const person = { env: { RATCHET_ACTOR: 'user' } };
const agent = { env: { RATCHET_ACTOR: 'agent' } };

function edit(path: string, from: string, to: string): void {
  const text = readFileSync(path, 'utf8');
  expect(text).toContain(from);
  writeFileSync(path, text.replace(from, to));
}

const writtenAt = (path: string): string => (JSON.parse(readFileSync(`${path}.digest`, 'utf8')) as { writtenAt: string }).writtenAt;

describe('hand edits of state files are caught (built binary)', () => {
  test('edited task and flow sessions: refused with exit 2, listed by doctor, restored or accepted only by a person', () => {
    const dir = tempDir('ratchet-doctor-');
    const run = (args: string[], options: { env?: Record<string, string> } = {}) => ratchet(args, { cwd: dir, ...options });
    expect(run(['init', '--quiet']).status).toBe(0);
    expect(run(['task', 'start', '--task-id', 'T-1', '--no-network']).status).toBe(0);
    const sessionPath = join(dir, '.ratchet/session.json');
    const state = (JSON.parse(readFileSync(sessionPath, 'utf8')) as { state: string }).state;
    expect(state).toBe('PLANNING');
    expect(run(['flow', 'start', 'reasoning', '--session', 's1', '--input', 'query=q']).status).toBe(0);
    const flowPath = join(dir, '.ratchet/flows/s1.json');
    expect(run(['doctor']).status).toBe(0);

    // The shortcuts: skip planning, skip a flow step.
    edit(sessionPath, '"state": "PLANNING"', '"state": "EXECUTING"');
    edit(flowPath, '"current": "0"', '"current": "1"');

    const next = run(['run', 'next']);
    expect(next.status).toBe(2);
    expect(next.stderr).toContain('.ratchet/session.json');
    expect(next.stderr).toContain('changed outside Ratchet');
    expect(next.stderr).toContain(writtenAt(sessionPath));
    const advance = run(['flow', 'advance', '--session', 's1']);
    expect(advance.status).toBe(2);
    expect(advance.stderr).toContain('.ratchet/flows/s1.json');
    expect(advance.stderr).toContain(writtenAt(flowPath));
    expect(readFileSync(flowPath, 'utf8')).toContain('"current": "1"');

    const doctor = run(['doctor']);
    expect(doctor.status).toBe(1);
    expect(doctor.stdout).toContain('.ratchet/session.json: tampered: ');
    expect(doctor.stdout).toContain('.ratchet/flows/s1.json: tampered: ');
    const report = JSON.parse(run(['--json', 'doctor']).stdout) as { ok: boolean; files: { file: string; tracked: boolean; schemaVersion?: number; supported?: number; problems: { code: string }[] }[] };
    expect(report.ok).toBe(false);
    const tampered = report.files.filter((f) => f.problems.some((p) => p.code === 'tampered')).map((f) => f.file);
    expect(tampered.sort()).toEqual(['.ratchet/flows/s1.json', '.ratchet/session.json']);
    expect(report.files.find((f) => f.file === '.ratchet/session.json')).toMatchObject({ tracked: true, schemaVersion: 1, supported: 1 });

    // Restore: refused to an agent, done for a person; the next command works on the good version.
    const refused = run(['doctor', '--restore', '.ratchet/session.json'], agent);
    expect(refused.status).toBe(2);
    expect(refused.stderr).toContain('RATCHET_ACTOR=agent');
    expect(readFileSync(sessionPath, 'utf8')).toContain('"state": "EXECUTING"');
    const restored = run(['doctor', '--restore', '.ratchet/session.json'], person);
    expect(restored.status, restored.stderr).toBe(0);
    expect(readFileSync(sessionPath, 'utf8')).toContain('"state": "PLANNING"');
    const rejected = readdirSync(join(dir, '.ratchet')).filter((n) => n.startsWith('session.json.rejected-'));
    expect(rejected).toHaveLength(1);
    expect(readFileSync(join(dir, '.ratchet', rejected[0]!), 'utf8')).toContain('"state": "EXECUTING"');
    const again = run(['--json', 'run', 'next']);
    expect(again.status).toBe(1); // read fine; PLANNING has no step to execute (run next's exit 1)
    expect(JSON.parse(again.stdout)).toMatchObject({ state: 'PLANNING' });

    // Accept: refused to an agent, done for a person; the flow then goes on from the accepted step.
    expect(run(['doctor', '--accept', '.ratchet/flows/s1.json'], agent).status).toBe(2);
    expect(run(['flow', 'advance', '--session', 's1']).status).toBe(2);
    const accepted = run(['doctor', '--accept', '.ratchet/flows/s1.json'], person);
    expect(accepted.status, accepted.stderr).toBe(0);
    const status = run(['flow', 'status', '--session', 's1']);
    expect(status.status).toBe(0);
    expect(status.stdout).toContain('## Step 1:');
    expect(run(['doctor']).status).toBe(0);
    expect(existsSync(`${flowPath}.prev`)).toBe(true);
  }, 120_000);

  test('doctor reports a corrupt state file with its place, a newer schemaVersion, and a corrupt log line', () => {
    const dir = tempDir('ratchet-doctor-');
    expect(ratchet(['init', '--quiet'], { cwd: dir }).status).toBe(0);
    writeFileSync(join(dir, '.ratchet/session.json'), '{\n  "schemaVersion": 1,\n  "state": \n}\n');
    writeFileSync(join(dir, '.ratchet/goals.json'), '{ "schemaVersion": 9 }\n');
    writeFileSync(join(dir, 'knowledge_core/lessons.jsonl'), '{"ok": true}\n{"torn\n');
    const r = ratchet(['--json', 'doctor'], { cwd: dir });
    expect(r.status).toBe(1);
    const files = (JSON.parse(r.stdout) as { files: { file: string; problems: { code: string; line?: number }[] }[] }).files;
    const problems = Object.fromEntries(files.map((f) => [f.file, f.problems.map((p) => `${p.code}${p.line === undefined ? '' : `@${p.line}`}`)]));
    expect(problems).toMatchObject({
      '.ratchet/session.json': ['corrupt@4'],
      '.ratchet/goals.json': ['newer-version'],
      'knowledge_core/lessons.jsonl': ['corrupt@2'],
    });
  }, 60_000);

  test('doctor says why a lock is stale: a lease that ran out on another host, not "the holder is gone"', () => {
    const dir = tempDir('ratchet-doctor-lease-');
    expect(ratchet(['init', '--quiet'], { cwd: dir }).status).toBe(0);
    const lock = (file: string, holder: Record<string, unknown>): void => writeFileSync(join(dir, '.ratchet', `${file}.lock`), `${JSON.stringify(holder, null, 2)}\n`);
    const hourAgo = new Date(Date.now() - 3_600_000).toISOString();
    // A builder on another machine that stopped renewing (its pid cannot be probed from here).
    lock('campaign.json', { pid: 4242, host: 'builder-2.example', time: hourAgo, token: 'a'.repeat(32), leaseUntil: new Date(Date.now() - 60_000).toISOString() });
    // One on another machine still within its lease: not stale, not reported.
    lock('goals.json', { pid: 4243, host: 'builder-3.example', time: hourAgo, token: 'b'.repeat(32), leaseUntil: new Date(Date.now() + 600_000).toISOString() });
    const result = ratchet(['doctor'], { cwd: dir });
    expect(result.status).toBe(1);
    expect(result.stdout).toMatch(/stale lock \.ratchet\/campaign\.json\.lock held by pid 4242 on host builder-2\.example.*\(its lease ran out at /u);
    expect(result.stdout).not.toContain('the holder is gone');
    expect(result.stdout).not.toContain('goals.json.lock');
  });
});
