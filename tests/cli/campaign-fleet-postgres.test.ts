/**
 * Two "machines" (separate working directories, nothing shared on disk) pointed at one PostgreSQL
 * database through RATCHET_STORE: one campaign, leased claims across them, a lease lost on one and
 * taken over on the other. Skipped loudly when no PostgreSQL can be started (see INSTALL_HINT).
 */
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { INSTALL_HINT, startTestCluster, testClusterAvailability, type TestCluster } from '@ratchet/store-postgres/testing';
import { leaseOutlasting, ratchet, tempDir } from '../helpers.js';

const availability = testClusterAvailability();
if (!availability.available) console.warn(`\n*** SKIPPED: the PostgreSQL fleet tests need PostgreSQL: ${INSTALL_HINT}\n`);

describe.skipIf(!availability.available)('a campaign shared by two machines through PostgreSQL', () => {
  let cluster: TestCluster;
  beforeAll(async () => {
    cluster = await startTestCluster();
  }, 120_000);
  afterAll(async () => {
    await cluster?.stop();
  });

  const machine = (name: string): string => {
    const dir = join(tempDir(`ratchet-${name}-`), 'project');
    mkdirSync(dir);
    return dir;
  };
  interface Out {
    claimed: { seq: number } | null;
    recovered?: { runner: string };
    tasks: { status: string }[];
    lostAttempts: { seq: number; runner: string }[];
  }
  const json = (r: { stdout: string }): Out => JSON.parse(r.stdout) as Out;
  const on = (dir: string, args: string[], env: Record<string, string> = {}) => ratchet(args, { cwd: dir, env: { RATCHET_STORE: cluster.url, RATCHET_STORE_PROJECT: 'fleet-test', ...env } });

  test('claims are exclusive across machines, an expired lease moves to the other machine, nothing lands on disk', async () => {
    const m1 = machine('m1');
    const m2 = machine('m2');
    writeFileSync(join(m1, 'plan.json'), JSON.stringify({ tasks: [1, 2, 3].map((seq) => ({ seq, delta: [`f${seq}`], verify: 'true', depends: seq === 3 ? [1, 2] : 'none' })) }));
    expect(on(m1, ['campaign', 'create', 'fleet']).status).toBe(0);
    expect(on(m1, ['campaign', 'add-tasks', 'plan.json']).status).toBe(0);
    // Long enough to outlast the claim after it, however busy the machine.
    const c1 = on(m1, ['--json', 'campaign', 'ready', '--claim', 'm1', '--lease', `${leaseOutlasting(2)}ms`]);
    expect(json(c1).claimed?.seq).toBe(1);
    const c2 = on(m2, ['--json', 'campaign', 'ready', '--claim', 'm2', '--lease', '15m']);
    expect(json(c2).claimed?.seq).toBe(2);
    await sleep(Math.max(0, Date.parse((JSON.parse(c1.stdout) as { leaseUntil: string }).leaseUntil) - Date.now() + 300));
    const taken = json(on(m2, ['--json', 'campaign', 'ready', '--claim', 'm2b', '--lease', '15m']));
    expect(taken.claimed?.seq).toBe(1);
    expect(taken.recovered?.runner).toBe('m1');
    const refused = on(m1, ['campaign', 'update-task', '1', 'complete', '--runner', 'm1']);
    expect(refused.status).toBe(2);
    expect(refused.stderr).toContain('m2b holds it now');
    // The shortcut from the other machine: finish m2b's task naming nobody, or another runner. Refused.
    const nobody = on(m1, ['campaign', 'update-task', '1', 'complete']);
    expect(nobody.status).toBe(2);
    expect(nobody.stderr).toContain('task 001 is held by m2b');
    expect(on(m1, ['campaign', 'update-task', '1', 'complete', '--runner', 'm2']).status).toBe(2);
    expect(on(m1, ['campaign', 'update-task', '1', 'pending', '--as', 'user'], { RATCHET_ACTOR: 'agent' }).status).toBe(2);
    expect(json(on(m2, ['--json', 'campaign', 'status'])).tasks[0]!.status).toBe('in_progress');
    expect(on(m2, ['campaign', 'update-task', '1', 'complete', '--runner', 'm2b']).status).toBe(0);
    expect(on(m1, ['campaign', 'update-task', '2', 'complete', '--runner', 'm2']).status).toBe(0);
    // Completing 1 and 2 offered 3: machine 1 claims it.
    expect(json(on(m1, ['--json', 'campaign', 'ready', '--claim', 'm1', '--lease', '15m'])).claimed?.seq).toBe(3);
    const status = json(on(m2, ['--json', 'campaign', 'status']));
    expect(status.tasks.map((t) => t.status)).toEqual(['complete', 'complete', 'in_progress']);
    expect(status.lostAttempts).toEqual([expect.objectContaining({ seq: 1, runner: 'm1' })]);
    // The campaign lives in the database: neither machine has a campaign.json.
    expect(existsSync(join(m1, '.ratchet', 'campaign.json'))).toBe(false);
    expect(existsSync(join(m2, '.ratchet', 'campaign.json'))).toBe(false);
  }, 300_000);

  test('an unreachable database or a bad store setting: exit 2, the URL shown without its password', () => {
    const dir = machine('bad');
    const down = ratchet(['campaign', 'status'], { cwd: dir, env: { RATCHET_STORE: 'postgres://fleet:hunter2@127.0.0.1:1/ratchet' } });
    expect(down.status).toBe(2);
    expect(down.stderr).toContain('postgres://fleet:***@127.0.0.1:1/ratchet');
    expect(down.stderr).not.toContain('hunter2');
    const unknown = ratchet(['campaign', 'status'], { cwd: dir, env: { RATCHET_STORE: 'mysql://root:pw@db/x' } });
    expect(unknown.status).toBe(2);
    expect(unknown.stderr).not.toContain(':pw@');
  });
});
