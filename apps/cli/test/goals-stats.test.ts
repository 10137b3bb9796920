import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ActionStatsSchema } from '@ratchet/goals/schema';
import { describe, expect, test } from 'vitest';
import type { Io } from '../src/context.js';
import { run } from '../src/main.js';

async function ratchet(cwd: string, args: string[], env: Record<string, string> = {}): Promise<{ code: number; out: string; err: string }> {
  let out = '';
  let err = '';
  const io: Io = { stdout: (t) => void (out += t), stderr: (t) => void (err += t), isTTY: false, env, cwd, readStdin: () => Promise.resolve('') };
  return { code: await run(args, io), out, err };
}

describe('ratchet actions stats', { timeout: 60_000 }, () => {
  test('per-type figures as a table and as JSON that follows its schema; same clock, same bytes; a bad --since is exit 2', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'cli-stats-'));
    expect((await ratchet(dir, ['actions', 'add', 'agent_task', 'one'])).code).toBe(0);
    expect((await ratchet(dir, ['actions', 'add', 'agent_task', 'two', '--due', '2030-01-01T06:00:00Z'])).code).toBe(0);
    expect((await ratchet(dir, ['actions', 'complete', 'a1'])).code).toBe(0);
    expect((await ratchet(dir, ['actions', 'add', 'teleport', 'beam me up'])).code).toBe(0);

    const json = await ratchet(dir, ['--json', 'actions', 'stats', '--now', '2030-01-02T00:00:00Z']);
    expect(json.code).toBe(0);
    const doc = JSON.parse(json.out) as { $schema: string; types: { type: string; created: number; completed: number; overdue: number; completion_rate: number | null; coerced: number; registered: boolean }[] };
    expect(doc.$schema).toBe('https://unpkg.com/@ratchet/goals/schemas/action-stats.schema.json');
    // The zod schema the shipped JSON Schema is generated from (strict: no field it does not describe).
    expect(ActionStatsSchema.safeParse(doc).success).toBe(true);
    expect(doc.types.find((t) => t.type === 'agent_task')).toMatchObject({ created: 2, completed: 1, overdue: 1, completion_rate: 0.5 });
    expect(doc.types.find((t) => t.type === 'teleport')).toMatchObject({ registered: false, coerced: 1 });
    expect((await ratchet(dir, ['--json', 'actions', 'stats', '--now', '2030-01-02T00:00:00Z'])).out).toBe(json.out);

    const table = await ratchet(dir, ['actions', 'stats', '--now', '2030-01-02T00:00:00Z']);
    expect(table.out).toMatch(/^agent_task\s+2\s+1\s+50\.0%\s+1\s+1\s/m);
    expect(table.out).toContain('teleport (unregistered)');

    const bad = await ratchet(dir, ['actions', 'stats', '--since', 'last tuesday']);
    expect(bad.code).toBe(2);
    expect(bad.err).toContain('--since last tuesday: not an ISO 8601 time');
  });
});
