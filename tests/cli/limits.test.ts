/**
 * Issue 16, limits: every state write is held to the size its next read accepts, and every JSON
 * input to a depth limit, so an input can neither write a file Ratchet then refuses to read nor
 * overflow the stack (exit 70) halfway through a command.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { ratchet, tempDir } from '../helpers.js';

const nested = (depth: number): string => `${'['.repeat(depth)}1${']'.repeat(depth)}`;

function project(): string {
  const dir = tempDir('ratchet-limits-');
  expect(ratchet(['init', '--quiet'], { cwd: dir }).status).toBe(0);
  return dir;
}

describe('writes are refused before they outgrow the read limit', () => {
  test('turn commit with a 9 MiB metadata field: exit 2 naming goals.json, which is unchanged and still readable', () => {
    const dir = project();
    expect(ratchet(['goals', 'add', 'Ship'], { cwd: dir }).status).toBe(0);
    const before = readFileSync(join(dir, '.ratchet/goals.json'), 'utf8');
    writeFileSync(join(dir, 'turn.json'), JSON.stringify({ turn_id: 't1', new_actions: [{ type: 'agent_task', title: 'big', metadata: { blob: 'x'.repeat(9 * 1024 * 1024) } }] }));
    const r = ratchet(['turn', 'commit', 'turn.json'], { cwd: dir });
    expect(r.stderr).toMatch(/goals\.json: refused to write \d+(\.\d)? MiB: over the 16 MiB limit/);
    expect(r.status).toBe(2);
    expect(readFileSync(join(dir, '.ratchet/goals.json'), 'utf8')).toBe(before);
    expect(ratchet(['goals', 'list'], { cwd: dir }).status).toBe(0);
  }, 120_000);

  test('run plan of a lint-clean 10 MB plan whose session would be over 16 MiB: exit 2, the task stays in PLANNING, run status still reads it', () => {
    const dir = project();
    mkdirSync(join(dir, 'plans'));
    writeFileSync(join(dir, 'plans/big.txt'), `set_plan big\nplan_step_complete go\n${'list_files .\n'.repeat(800_000)}run_in_bash_session close\n`);
    expect(ratchet(['task', 'start', '--task-id', 'T-1', '--no-network'], { cwd: dir }).status).toBe(0);
    const before = readFileSync(join(dir, '.ratchet/session.json'), 'utf8');
    const r = ratchet(['run', 'plan', 'plans/big.txt'], { cwd: dir });
    expect(r.stderr).toMatch(/session\.json: refused to write 1\d\.\d MiB: over the 16 MiB limit/);
    expect(r.status).toBe(2);
    expect(readFileSync(join(dir, '.ratchet/session.json'), 'utf8')).toBe(before);
    const status = ratchet(['--json', 'run', 'status'], { cwd: dir });
    expect(status.status).toBe(0);
    expect(JSON.parse(status.stdout)).toMatchObject({ session: { state: 'PLANNING' } });
  }, 120_000);
});

describe('JSON inputs nested past the depth limit are input errors with the place, never exit 70', () => {
  test('knowledge_core/agent_meta.json nested 100,000 deep: task start exits 2 naming the file and line:col, the task in ERROR, not ORIENTING', () => {
    const dir = project();
    writeFileSync(join(dir, 'knowledge_core/agent_meta.json'), `{"name": "jules", "deep": ${nested(100_000)}}`);
    const r = ratchet(['task', 'start', '--task-id', 'T-1', '--no-network'], { cwd: dir });
    expect(r.stderr).toMatch(/^knowledge_core\/agent_meta\.json:1:\d+: .*nesting deeper than 256 levels/m);
    expect(r.status).toBe(2);
    const session = JSON.parse(readFileSync(join(dir, '.ratchet/session.json'), 'utf8')) as { state: string };
    expect(session.state).toBe('ERROR');
  }, 120_000);

  test('turn commit with metadata nested 2,000 deep: exit 2 with the place; goals.json untouched', () => {
    const dir = project();
    expect(ratchet(['goals', 'add', 'Ship'], { cwd: dir }).status).toBe(0);
    const before = readFileSync(join(dir, '.ratchet/goals.json'), 'utf8');
    writeFileSync(join(dir, 'turn.json'), `{"turn_id": "t1", "new_actions": [{"type": "agent_task", "title": "x", "metadata": {"deep": ${nested(2000)}}}]}`);
    const r = ratchet(['turn', 'commit', 'turn.json'], { cwd: dir });
    expect(r.stderr).toMatch(/turn\.json:1:\d+: nesting deeper than 256 levels/);
    expect(r.status).toBe(2);
    expect(readFileSync(join(dir, '.ratchet/goals.json'), 'utf8')).toBe(before);
  }, 120_000);
});
