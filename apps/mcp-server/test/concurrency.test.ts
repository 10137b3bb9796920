import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test } from 'vitest';
import { connect, ok, ratchet, tempDir, type Connected } from './helpers.js';

const TASKS = 24;

/** A builder: claims through its own server process until nothing is ready. */
async function builder(server: Connected, runner: string): Promise<number[]> {
  const claimed: number[] = [];
  for (;;) {
    const r = (await ok(server, 'campaign_ready', { claim: runner })) as { claimed: { seq: number; runner: string } | null };
    if (r.claimed === null) return claimed;
    expect(r.claimed.runner).toBe(runner);
    claimed.push(r.claimed.seq);
  }
}

test('two clients, two server processes, one campaign: every task claimed exactly once', { timeout: 120_000 }, async () => {
  const dir = tempDir('ratchet-mcp-claims-');
  ratchet(['campaign', 'create', 'parallel builders'], dir);
  const plan = { objective: 'parallel builders', tasks: Array.from({ length: TASKS }, (_, i) => ({ seq: String(i + 1).padStart(3, '0'), slug: `t${i + 1}`, delta: [`src/f${i}.ts`], verify: 'true' })) };
  writeFileSync(join(dir, 'plan.json'), JSON.stringify(plan));
  ratchet(['campaign', 'add-tasks', 'plan.json'], dir);

  const servers = await Promise.all([connect(dir), connect(dir)]);
  try {
    const [a, b] = await Promise.all([builder(servers[0], 'builder-a'), builder(servers[1], 'builder-b')]);
    const all = [...a, ...b].sort((x, y) => x - y);
    expect(all).toEqual(Array.from({ length: TASKS }, (_, i) => i + 1));
    // Both really competed (each got some), and the file agrees with what they were told.
    expect(a.length).toBeGreaterThan(0);
    expect(b.length).toBeGreaterThan(0);
    const status = JSON.parse(ratchet(['--json', 'campaign', 'status'], dir)) as { tasks: { seq: number; status: string; runner?: string }[] };
    for (const task of status.tasks) {
      expect(task.status).toBe('in_progress');
      expect(task.runner).toBe(a.includes(task.seq) ? 'builder-a' : 'builder-b');
    }
  } finally {
    await Promise.all(servers.map((s) => s.close()));
  }
});
