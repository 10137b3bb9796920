import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { ratchet } from './fuzz-inputs.js';

const NOW = ['--now', '2030-01-01T09:00:00Z'];

async function project(): Promise<string> {
  const dir = mkdtempSync(join(tmpdir(), 'cli-goals-context-'));
  for (const args of [
    ['goals', 'add', 'Speed up the signup page', '--priority', '5', '--id', 'signup'],
    ['goals', 'add', 'Write the docs', '--priority', '1'],
    ['actions', 'add', 'agent_task', 'Profile the signup form', '--priority', '3', '--goal', 'signup'],
    ['actions', 'add', 'user_task', 'Approve the new copy'],
    ['questions', 'add', 'Where do users drop off?', '--goal', 'signup'],
  ]) expect((await ratchet(dir, args)).code).toBe(0);
  mkdirSync(join(dir, '.ratchet'), { recursive: true });
  return dir;
}

describe('ratchet goals context', { timeout: 60_000 }, () => {
  test('--json: one document with goals, actions per owner, questions, types and memories; same clock, same bytes', async () => {
    const dir = await project();
    // A memory about signup: the CLI composes @ratchet/memory's hits into the context.
    const add = await ratchet(dir, ['memory', 'add-failure', '--name', 'signup-n-plus-one', '--trigger', 'signup page is slow because of n+1 queries', '--fix', 'batch the profile lookups', '--cost', '5000']);
    expect(add.code, add.err).toBe(0);
    const a = await ratchet(dir, ['--json', 'goals', 'context', '--query', 'signup page slow', ...NOW]);
    expect(a.code, a.err).toBe(0);
    const doc = JSON.parse(a.out) as Record<string, unknown>;
    expect(doc).toMatchObject({
      $schema: 'https://unpkg.com/@ratchet/goals/schemas/plan-context.schema.json',
      generated_at: '2030-01-01T09:00:00.000Z',
      goals: [{ id: 'signup' }, { id: 'g1' }],
      actions: { agent: [{ id: 'a1' }], user: [{ id: 'a2' }] },
      questions: [{ id: 'q1' }],
      memories: [{ kind: 'failure', name: 'signup-n-plus-one', advice: 'batch the profile lookups' }],
      budget: { limit: null, cut: [] },
    });
    expect((doc.budget as { used: number }).used).toBe(a.out.length);
    const b = await ratchet(dir, ['--json', 'goals', 'context', '--query', 'signup page slow', ...NOW]);
    expect(b.out).toBe(a.out);
    const none = await ratchet(dir, ['--json', 'goals', 'context', '--query', 'signup page slow', '--no-memory', ...NOW]);
    expect(JSON.parse(none.out)).toMatchObject({ memories: [] });
  });

  test('Markdown by default, bounded by --budget with what was cut listed', async () => {
    const dir = await project();
    const full = await ratchet(dir, ['goals', 'context', ...NOW]);
    expect(full.code, full.err).toBe(0);
    expect(full.out).toContain('## Pending actions for the agent\n- a1 [agent_task] Profile the signup form');
    const cut = await ratchet(dir, ['goals', 'context', '--budget', String(full.out.length - 100), ...NOW]);
    expect(cut.code).toBe(0);
    expect(cut.out.length).toBeLessThanOrEqual(full.out.length - 100);
    expect(cut.out).toMatch(/cut to fit: questions q1/);
  });

  test('bad input: a budget too small, a non-number, a memory file outside the project, a broken state: exit 2, nothing written', async () => {
    const dir = await project();
    const small = await ratchet(dir, ['goals', 'context', '--budget', '20', ...NOW]);
    expect(small.code).toBe(2);
    expect(small.err).toContain('budget of 20 characters is too small');
    expect((await ratchet(dir, ['goals', 'context', '--budget', 'lots'])).code).toBe(2);
    const outside = await ratchet(dir, ['goals', 'context', '--memory', '../../etc/passwd', '--query', 'x']);
    expect(outside.code).toBe(2);
    writeFileSync(join(dir, '.ratchet', 'goals.json'), '{"version": 1,\n  "goals": [');
    const broken = await ratchet(dir, ['goals', 'context']);
    expect(broken.code).toBe(2);
    expect(broken.err).toContain('goals.json');
  });
});
