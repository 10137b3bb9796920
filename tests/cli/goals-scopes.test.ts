/**
 * Access scopes end to end: two agents (RATCHET_AGENT / --agent) on one goals state file, as real
 * `ratchet` processes, some of them running at the same time.
 */
import { spawn } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { bin, ratchet, tempDir } from '../helpers.js';

const as = (agent: string | undefined, org = 'acme'): NodeJS.ProcessEnv => ({ RATCHET_ACTOR: 'agent', ...(agent === undefined ? {} : { RATCHET_AGENT: agent, RATCHET_ORG: org }) });

/** A real process, not waited for: several run at once. */
function start(cwd: string, args: string[], env: NodeJS.ProcessEnv): Promise<{ status: number | null; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [bin, ...args], { cwd, env: { ...process.env, NO_COLOR: '1', ...env }, stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.on('error', reject);
    child.on('close', (status) => resolve({ status, stderr }));
  });
}

const ids = (stdout: string, key: string): string[] => (JSON.parse(stdout) as Record<string, { id: string }[]>)[key]!.map((x) => x.id).sort();

describe('access scopes: two agents on one state file', { timeout: 180_000 }, () => {
  test('concurrent agents: nothing lost, each sees only its own items (and the unscoped ones)', async () => {
    const dir = tempDir('scopes-race-');
    expect(ratchet(['goals', 'add', 'from before scopes', '--id', 'old'], { cwd: dir }).status).toBe(0);
    const runs: Promise<{ status: number | null; stderr: string }>[] = [];
    for (let i = 0; i < 6; i++) {
      runs.push(start(dir, ['goals', 'add', `a goal ${i}`, '--id', `ga${i}`], as('a')));
      runs.push(start(dir, ['goals', 'add', `b goal ${i}`, '--id', `gb${i}`], as('b')));
    }
    for (const r of await Promise.all(runs)) expect(r).toEqual({ status: 0, stderr: '' });
    const seenBy = (agent: string | undefined): string[] => ids(ratchet(['--json', 'goals', 'list'], { cwd: dir, env: as(agent) }).stdout, 'goals');
    expect(seenBy('a')).toEqual(['ga0', 'ga1', 'ga2', 'ga3', 'ga4', 'ga5', 'old']);
    expect(seenBy('b')).toEqual(['gb0', 'gb1', 'gb2', 'gb3', 'gb4', 'gb5', 'old']);
    // An agent that leaves out its id sees only what is unscoped.
    expect(seenBy(undefined)).toEqual(['old']);
    const state = JSON.parse(readFileSync(join(dir, '.ratchet/goals.json'), 'utf8')) as { version: number; goals: { id: string; agent_id?: string; org_id?: string }[] };
    expect(state.version).toBe(13);
    expect(state.goals.filter((g) => g.agent_id === 'a' && g.org_id === 'acme')).toHaveLength(6);
  });

  test('concurrent refused and allowed writes: the refused ones change nothing, the allowed ones all land', async () => {
    const dir = tempDir('scopes-mixed-');
    expect(ratchet(['actions', 'add', 'agent_task', 'b works on this', '--id', 'xb'], { cwd: dir, env: as('b') }).status).toBe(0);
    const runs = [
      ...[0, 1, 2].map((i) => start(dir, ['actions', 'complete', 'xb'], as('a')).then((r) => ({ ...r, i, who: 'a' }))),
      ...[0, 1, 2].map((i) => start(dir, ['actions', 'add', 'agent_task', `b task ${i}`], as('b')).then((r) => ({ ...r, i, who: 'b' }))),
    ];
    for (const r of await Promise.all(runs)) {
      if (r.who === 'a') {
        expect(r.status).toBe(1);
        expect(r.stderr).toContain('action xb belongs to agent "b" in org "acme"; agent "a" in org "acme" has no write access');
      } else expect(r.status).toBe(0);
    }
    const state = JSON.parse(readFileSync(join(dir, '.ratchet/goals.json'), 'utf8')) as { version: number; actions: { id: string; status: string }[] };
    expect(state.version).toBe(4);
    expect(state.actions.find((x) => x.id === 'xb')!.status).toBe('open');
  });

  test('every face is scoped: assess, context, scratch, history; the shortcuts are refused and write nothing', () => {
    const dir = tempDir('scopes-faces-');
    const run = (agent: string | undefined, args: string[], extra: NodeJS.ProcessEnv = {}) => ratchet(args, { cwd: dir, env: { ...as(agent), ...extra } });
    expect(run('a', ['goals', 'add', 'a ships the beta', '--id', 'ga']).status).toBe(0);
    expect(run('a', ['actions', 'add', 'agent_task', 'a migrates', '--id', 'xa', '--goal', 'ga']).status).toBe(0);
    expect(run('b', ['goals', 'add', 'b secret goal', '--id', 'gb']).status).toBe(0);
    expect(run('b', ['actions', 'add', 'agent_task', 'b secret task', '--id', 'xb', '--goal', 'gb']).status).toBe(0);
    expect(run('b', ['scratch', 'add', 'b saw something', '--source', 'tool:x', '--id', 'ob']).status).toBe(0);

    const assess = JSON.parse(run('a', ['--json', 'turn', 'assess']).stdout) as { goals: { id: string }[]; actions: { action: { id: string } }[] };
    expect(assess.goals.map((g) => g.id)).toEqual(['ga']);
    expect(assess.actions.map((x) => x.action.id)).toEqual(['xa']);
    const context = run('a', ['goals', 'context', '--no-memory']).stdout;
    expect(context).toContain('a ships the beta');
    expect(context).not.toContain('secret');
    expect(run('a', ['--json', 'scratch', 'list']).stdout).not.toContain('b saw something');
    expect(run('b', ['--json', 'scratch', 'list']).stdout).toContain('b saw something');
    const history = run('a', ['goals', 'history']).stdout;
    expect(history).not.toContain('gb');
    expect(history).toContain('(changes outside your scope)');

    const file = join(dir, '.ratchet/goals.json');
    const before = readFileSync(file, 'utf8');
    // Passing another agent's id on the command line where the harness pinned RATCHET_AGENT.
    const spoof = run('a', ['actions', 'complete', 'xb', '--agent', 'b']);
    expect(spoof.status).toBe(2);
    expect(spoof.stderr).toContain('RATCHET_AGENT=a');
    // Passing another agent's id in a field of a turn commit: the commit format has no such field.
    writeFileSync(join(dir, 'turn.json'), JSON.stringify({ turn_id: 't1', new_actions: [{ type: 'agent_task', title: 'for b', agent_id: 'b' }] }));
    const field = run('a', ['turn', 'commit', 'turn.json']);
    expect(field.status).toBe(2);
    expect(field.stderr).toContain('agent_id');
    // A command other than `actions complete` that changes b's items: the turn commit, promote, share, progress, revert.
    writeFileSync(join(dir, 'turn2.json'), JSON.stringify({ turn_id: 't2', completed_actions: ['xb'] }));
    for (const args of [['turn', 'commit', 'turn2.json'], ['scratch', 'promote', 'ob', 'action'], ['goals', 'progress', 'gb', '--delta', '0.5']]) {
      const r = run('a', args);
      expect(r.status, args.join(' ')).toBe(1);
      expect(r.stderr, args.join(' ')).toMatch(/belongs to agent "b" in org "acme"; agent "a" in org "acme" has no write access/);
    }
    // Sharing and reverting are a person's decisions: refused for any agent before scopes are even read.
    for (const args of [['goals', 'share', 'goal', 'gb', '--agent-grant', 'a', '--access', 'write'], ['goals', 'revert', '2']]) {
      const r = run('a', args);
      expect(r.status, args.join(' ')).toBe(2);
      expect(r.stderr, args.join(' ')).toContain(`ratchet ${args.slice(0, 2).join(' ')} is for a person, from their own terminal`);
    }
    // Without --agent / RATCHET_AGENT: refused as well (and told why).
    const bare = run(undefined, ['actions', 'complete', 'xb']);
    expect(bare.status).toBe(1);
    expect(bare.stderr).toContain('without an agent id (--agent / RATCHET_AGENT not set)');
    expect(readFileSync(file, 'utf8')).toBe(before);

    // A person shares b's goal with a for reading (sharing is the user's decision): a now sees it, still cannot change it.
    expect(run('b', ['goals', 'share', 'goal', 'gb', '--agent-grant', 'a', '--access', 'read'], { RATCHET_ACTOR: 'user' }).status).toBe(0);
    expect(ids(run('a', ['--json', 'goals', 'list']).stdout, 'goals')).toEqual(['ga', 'gb']);
    expect(run('a', ['goals', 'progress', 'gb', '--delta', '0.5']).status).toBe(1);
    // A person's own shell (no RATCHET_ACTOR, no agent) sees everything, as before scopes.
    expect(ids(ratchet(['--json', 'goals', 'list'], { cwd: dir, env: { RATCHET_ACTOR: 'user' } }).stdout, 'goals')).toEqual(['ga', 'gb']);
  });
});
