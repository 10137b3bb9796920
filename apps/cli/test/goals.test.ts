import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, test } from 'vitest';
import type { Io } from '../src/context.js';
import { run } from '../src/main.js';

const repoRoot = fileURLToPath(new URL('../../..', import.meta.url));

function project(): string {
  return mkdtempSync(join(tmpdir(), 'cli-goals-'));
}

async function ratchet(cwd: string, args: string[], stdin = '', env: Record<string, string> = {}): Promise<{ code: number; out: string; err: string; json: () => Record<string, unknown> }> {
  let out = '';
  let err = '';
  const io: Io = { stdout: (t) => void (out += t), stderr: (t) => void (err += t), isTTY: false, env, cwd, readStdin: () => Promise.resolve(stdin) };
  const code = await run(args, io);
  return { code, out, err, json: () => JSON.parse(out) as Record<string, unknown> };
}

describe('ratchet goals / actions / turn', { timeout: 30_000 }, () => {
  test('a turn: goals, actions with owner semantics, assess, commit and replay, history and revert', async () => {
    const dir = project();
    expect((await ratchet(dir, ['goals', 'add', 'Ship the beta', '--priority', '5'])).code).toBe(0);
    expect((await ratchet(dir, ['actions', 'add', 'agent_task', 'Write the migration', '--priority', '3', '--goal', 'g1'])).code).toBe(0);
    const userTask = await ratchet(dir, ['--json', 'actions', 'add', 'user_task', 'Approve the copy']);
    expect(userTask.json()).toMatchObject({ ok: true, action: { id: 'a2', owner: 'user', requires_confirmation: true } });
    // The agent cannot complete a user-owned action: exit 1 with the reason.
    const refused = await ratchet(dir, ['actions', 'complete', 'a2']);
    expect(refused.code).toBe(1);
    expect(refused.err).toContain('owned by the user');
    expect((await ratchet(dir, ['actions', 'complete', 'a2', '--as', 'user', '--who', 'alice'])).code).toBe(0);
    // An illegal transition: exit 1, naming what is allowed.
    const illegal = await ratchet(dir, ['actions', 'move', 'a1', 'awaiting_confirmation']);
    expect(illegal.code).toBe(1);
    expect(illegal.err).toContain('allowed: in_progress, done, cancelled');

    const assess = await ratchet(dir, ['--json', 'turn', 'assess', '--limit', '5']);
    expect(assess.code).toBe(0);
    const a = assess.json() as { version: number; goals: { id: string }[]; actions: { action: { id: string } }[] };
    expect(a.goals.map((g) => g.id)).toEqual(['g1']);
    expect(a.actions.map((x) => x.action.id)).toEqual(['a1']);

    writeFileSync(join(dir, 'turn.json'), JSON.stringify({ turn_id: 'turn-1', expected_version: a.version, progress: [{ goal_id: 'g1', delta: 0.5 }], completed_actions: ['a1'], new_actions: [{ type: 'teleport', title: 'beam me up' }] }));
    const commit = await ratchet(dir, ['turn', 'commit', 'turn.json']);
    expect(commit.code).toBe(0);
    expect(commit.out).toContain('committed turn turn-1');
    expect(commit.err).toContain('unknown action type "teleport"');
    const replay = await ratchet(dir, ['turn', 'commit', 'turn.json']);
    expect(replay.out).toContain('already committed');
    const stale = await ratchet(dir, ['--json', 'turn', 'commit', '-'], JSON.stringify({ turn_id: 'turn-2', expected_version: a.version }));
    expect(stale.code).toBe(1);
    expect(stale.json()).toMatchObject({ ok: false, error: { code: 'conflict' } });
    // --expected-version does the same for a commit file without one; a contradiction is a usage error.
    const staleFlag = await ratchet(dir, ['turn', 'commit', '-', '--expected-version', String(a.version)], JSON.stringify({ turn_id: 'turn-2' }));
    expect(staleFlag.code).toBe(1);
    expect(staleFlag.err).toContain('version conflict');
    expect((await ratchet(dir, ['turn', 'commit', '-', '--expected-version', '1'], JSON.stringify({ turn_id: 'turn-2', expected_version: 2 }))).code).toBe(2);
    expect((await ratchet(dir, ['goals', 'list', '--expected-version', '1'])).code).toBe(2);

    const proposals = await ratchet(dir, ['--json', 'proposals', 'list']);
    expect(proposals.json()).toMatchObject({ proposals: [{ id: 'p1', type_id: 'teleport', status: 'open' }] });

    const history = await ratchet(dir, ['--json', 'goals', 'history']);
    const versions = (history.json().history as { version: number; who: string }[]).map((e) => [e.version, e.who]);
    expect(versions).toEqual([[1, 'agent'], [2, 'agent'], [3, 'agent'], [4, 'alice'], [5, 'agent']]);
    // v4 is alice completing her own action: the agent may not undo it, the user may.
    expect((await ratchet(dir, ['goals', 'revert', '3'])).code).toBe(1);
    expect((await ratchet(dir, ['goals', 'revert', '3', '--as', 'user'])).out).toContain('reverted to v3 as v6');
    const list = await ratchet(dir, ['--json', 'actions', 'list', '--all']);
    expect((list.json().actions as { id: string; status: string }[]).map((x) => [x.id, x.status])).toEqual([['a1', 'open'], ['a2', 'open']]);
  });

  test('actions types: the bundled nine types; a broken project registry is exit 2 with every problem placed', async () => {
    const dir = project();
    const ok = await ratchet(dir, ['actions', 'types']);
    expect(ok.code).toBe(0);
    expect(ok.out).toContain('9 action types, valid');
    mkdirSync(join(dir, 'protocols'));
    const doc = JSON.parse(readFileSync(join(repoRoot, 'protocols', 'action_types.json'), 'utf8')) as { action_types: Record<string, unknown>[] };
    doc.action_types[0]!.allowed_transitions = { open: ['nowhere'], ghost: ['done'] };
    writeFileSync(join(dir, 'protocols', 'action_types.json'), JSON.stringify(doc, null, 2));
    const bad = await ratchet(dir, ['actions', 'types']);
    expect(bad.code).toBe(2);
    const lines = bad.err.trim().split('\n');
    expect(lines[0]).toMatch(/^protocols\/action_types\.json:\d+:\d+: transition to "nowhere"/);
    expect(lines[1]).toMatch(/^protocols\/action_types\.json:\d+:\d+: transition from "ghost"/);
    writeFileSync(join(dir, 'protocols', 'action_types.json'), '{ "action_types": [ }');
    const malformed = await ratchet(dir, ['actions', 'add', 'agent_task', 'x']);
    expect(malformed.code).toBe(2);
    expect(malformed.err).toMatch(/action_types\.json:1:\d+: /);
    writeFileSync(join(dir, 'types.yaml'), 'action_types:\n  - id: t\n    bogus: 1\n');
    const yaml = await ratchet(dir, ['actions', 'types', '--registry', 'types.yaml']);
    expect(yaml.code).toBe(2);
    expect(yaml.err).toMatch(/^types\.yaml:\d+:\d+: /);
  });

  test('a corrupt state file is exit 2 with file:line:col and is left untouched', async () => {
    const dir = project();
    mkdirSync(join(dir, '.ratchet'));
    writeFileSync(join(dir, '.ratchet', 'goals.json'), '{\n  "schemaVersion": 1,\n  "version": 1,,\n}');
    const r = await ratchet(dir, ['goals', 'add', 'x']);
    expect(r.code).toBe(2);
    expect(r.err).toMatch(/goals\.json:3:\d+: /);
    expect(readFileSync(join(dir, '.ratchet', 'goals.json'), 'utf8')).toContain(',,');
  });

  test('a harness pins its agent with RATCHET_ACTOR=agent: --as user is refused, the state untouched', async () => {
    const dir = project();
    expect((await ratchet(dir, ['actions', 'add', 'user_task', 'Sign the contract'])).code).toBe(0);
    const stateText = readFileSync(join(dir, '.ratchet/goals.json'), 'utf8');
    const pinned = await ratchet(dir, ['actions', 'complete', 'a1', '--as', 'user'], '', { RATCHET_ACTOR: 'agent' });
    expect(pinned.code).toBe(2);
    expect(pinned.err).toContain('RATCHET_ACTOR=agent');
    expect(readFileSync(join(dir, '.ratchet/goals.json'), 'utf8')).toBe(stateText);
    // Without --as the pinned role is the actor; the user's own shell completes it.
    expect((await ratchet(dir, ['actions', 'complete', 'a1'], '', { RATCHET_ACTOR: 'agent' })).code).toBe(1);
    expect((await ratchet(dir, ['actions', 'complete', 'a1'], '', { RATCHET_ACTOR: 'user' })).code).toBe(0);
    expect((await ratchet(dir, ['actions', 'add', 'agent_task', 'x'], '', { RATCHET_ACTOR: 'root' })).code).toBe(2);
  });

  describe('owner rules are judged against the project registry as a user last merged it', () => {
    const AGENT = { RATCHET_ACTOR: 'agent' };
    const USER = { RATCHET_ACTOR: 'user' };
    /**
     * The bundled registry with user_task's "done" and approval_request's "approved" made non-terminal
     * (an edge back out), so no owner rule looks at a move into them.
     */
    function forged(): string {
      const doc = JSON.parse(readFileSync(join(repoRoot, 'protocols', 'action_types.json'), 'utf8')) as { action_types: Record<string, unknown>[] };
      for (const t of doc.action_types) {
        if (t.id === 'user_task') t.allowed_transitions = { open: ['awaiting_confirmation', 'done', 'cancelled'], awaiting_confirmation: ['done', 'cancelled', 'open'], done: ['open'] };
        if (t.id === 'approval_request') t.allowed_transitions = { pending: ['approved', 'rejected', 'cancelled'], approved: ['pending'] };
      }
      return `${JSON.stringify(doc, null, 2)}\n`;
    }
    const status = (dir: string, id: string): string | undefined =>
      (JSON.parse(readFileSync(join(dir, '.ratchet/goals.json'), 'utf8')) as { actions: { id: string; status: string }[] }).actions.find((a) => a.id === id)?.status;

    test('--registry elsewhere is refused for the agent: actions move, turn commit, approving an approval_request', async () => {
      const dir = project();
      writeFileSync(join(dir, 'forged.json'), forged());
      expect((await ratchet(dir, ['actions', 'add', 'user_task', 'Sign the contract'], '', AGENT)).code).toBe(0);
      expect((await ratchet(dir, ['actions', 'add', 'approval_request', 'Deploy to prod'], '', AGENT)).code).toBe(0);
      const before = readFileSync(join(dir, '.ratchet/goals.json'), 'utf8');
      const move = await ratchet(dir, ['actions', 'move', 'a1', 'done', '--registry', 'forged.json'], '', AGENT);
      expect(move.code).toBe(1);
      expect(move.err).toMatch(/^forged\.json: --registry is refused for the agent/m);
      writeFileSync(join(dir, 'turn.json'), JSON.stringify({ turn_id: 't1', completed_actions: ['a1'] }));
      const commit = await ratchet(dir, ['turn', 'commit', 'turn.json', '--registry', 'forged.json'], '', AGENT);
      expect(commit.code).toBe(1);
      expect(commit.err).toContain('forged.json');
      const approve = await ratchet(dir, ['actions', 'move', 'a2', 'approved', '--registry', 'forged.json'], '', AGENT);
      expect(approve.code).toBe(1);
      expect(readFileSync(join(dir, '.ratchet/goals.json'), 'utf8')).toBe(before);
      expect([status(dir, 'a1'), status(dir, 'a2')]).toEqual(['open', 'pending']);
      // The user may still point at another registry.
      expect((await ratchet(dir, ['actions', 'move', 'a1', 'awaiting_confirmation', '--registry', 'forged.json'], '', USER)).code).toBe(0);
    });

    test('a project registry rewritten after the user used it is refused for the agent, naming the file; a merge makes the new one trusted', async () => {
      const dir = project();
      mkdirSync(join(dir, 'protocols'));
      writeFileSync(join(dir, 'protocols', 'action_types.json'), readFileSync(join(repoRoot, 'protocols', 'action_types.json')));
      // Never approved by a user: the agent cannot act under it.
      const unapproved = await ratchet(dir, ['actions', 'add', 'agent_task', 'x'], '', AGENT);
      expect(unapproved.code).toBe(1);
      expect(unapproved.err).toMatch(/^protocols\/action_types\.json: no user has approved this action-type registry/m);
      // The user's first use records it; now the agent works under it.
      expect((await ratchet(dir, ['actions', 'add', 'user_task', 'Sign the contract'], '', USER)).code).toBe(0);
      expect((await ratchet(dir, ['actions', 'add', 'agent_task', 'x'], '', AGENT)).code).toBe(0);
      const before = readFileSync(join(dir, '.ratchet/goals.json'), 'utf8');
      writeFileSync(join(dir, 'protocols', 'action_types.json'), forged());
      const move = await ratchet(dir, ['actions', 'move', 'a1', 'done'], '', AGENT);
      expect(move.code).toBe(1);
      expect(move.err).toMatch(/^protocols\/action_types\.json: the action-type registry changed since a user last merged or approved it/m);
      writeFileSync(join(dir, 'turn.json'), JSON.stringify({ turn_id: 't1', completed_actions: ['a1'] }));
      expect((await ratchet(dir, ['turn', 'commit', 'turn.json'], '', AGENT)).code).toBe(1);
      expect((await ratchet(dir, ['actions', 'move', 'a1', 'awaiting_confirmation'], '', AGENT)).code).toBe(1);
      expect(readFileSync(join(dir, '.ratchet/goals.json'), 'utf8')).toBe(before);
      // Another user command does not bless the edit: only a merge (or the first use) records a registry.
      expect((await ratchet(dir, ['goals', 'add', 'Ship'], '', USER)).code).toBe(0);
      expect((await ratchet(dir, ['actions', 'move', 'a1', 'done'], '', AGENT)).code).toBe(1);
      // Put back as merged: the agent is judged by it again (and user_task stays the user's).
      writeFileSync(join(dir, 'protocols', 'action_types.json'), readFileSync(join(repoRoot, 'protocols', 'action_types.json')));
      const owner = await ratchet(dir, ['actions', 'move', 'a1', 'done'], '', AGENT);
      expect(owner.code).toBe(1);
      expect(owner.err).not.toContain('registry');
      // A merged proposal is the new trusted registry.
      writeFileSync(join(dir, 'p.json'), readFileSync(join(repoRoot, 'examples', 'goals', 'code-review.proposal.json')));
      const submitted = await ratchet(dir, ['--json', 'proposals', 'submit', 'p.json'], '', AGENT);
      expect(submitted.code, submitted.err).toBe(0);
      const id = (submitted.json() as { proposal: { id: string } }).proposal.id;
      expect((await ratchet(dir, ['proposals', 'review', id, 'approve'], '', USER)).code).toBe(0);
      expect((await ratchet(dir, ['proposals', 'merge', id], '', USER)).code).toBe(0);
      expect((await ratchet(dir, ['actions', 'add', 'code_review', 'Review PR 12'], '', AGENT)).code).toBe(0);
    });

    test('audit: the agent cannot record itself as the user with --who; the entry carries the real role', async () => {
      const dir = project();
      const spoof = await ratchet(dir, ['actions', 'add', 'agent_task', 'x', '--who', 'user'], '', AGENT);
      expect(spoof.code).toBe(1);
      expect(spoof.err).toContain('cannot record itself as "user"');
      expect((await ratchet(dir, ['actions', 'add', 'agent_task', 'x', '--who', 'bot-7'], '', AGENT)).code).toBe(0);
      const audit = (JSON.parse(readFileSync(join(dir, '.ratchet/goals.json'), 'utf8')) as { audit: { who: string; role?: string }[] }).audit;
      expect(audit).toHaveLength(1);
      expect(audit[0]).toMatchObject({ who: 'bot-7', role: 'agent' });
    });
  });

  test('proposals: submit from a file, review, export a patch, merge into the project registry', async () => {
    const dir = project();
    mkdirSync(join(dir, 'protocols'));
    writeFileSync(join(dir, 'protocols', 'action_types.json'), readFileSync(join(repoRoot, 'protocols', 'action_types.json')));
    writeFileSync(join(dir, 'p.json'), readFileSync(join(repoRoot, 'examples', 'goals', 'code-review.proposal.json')));
    expect((await ratchet(dir, ['proposals', 'submit', 'p.json'])).code).toBe(0);
    expect((await ratchet(dir, ['proposals', 'merge', 'p1'])).code).toBe(1);
    const patch = await ratchet(dir, ['proposals', 'export', 'p1']);
    expect(patch.out).toMatch(/^--- a\/protocols\/action_types\.json\n\+\+\+ b\/protocols\/action_types\.json\n/);
    expect((await ratchet(dir, ['proposals', 'review', 'p1', 'approve', '--as', 'user', '--comments', 'ok'])).code).toBe(0);
    // show: everything the reviewer decides on, and the review itself.
    const proposal = JSON.parse(readFileSync(join(dir, 'p.json'), 'utf8')) as { type_id: string; allowed_statuses: string[]; rationale: string };
    const shown = await ratchet(dir, ['proposals', 'show', 'p1']);
    expect(shown.code).toBe(0);
    expect(shown.out).toContain(`p1  [approved]  add ${proposal.type_id}`);
    expect(shown.out).toContain(`  statuses: ${proposal.allowed_statuses.join(', ')}`);
    expect(shown.out).toContain(`  rationale: ${proposal.rationale.split('\n')[0]}`);
    expect(shown.out).toMatch(/ {2}review \S+: approve by user: ok/);
    expect((await ratchet(dir, ['--json', 'proposals', 'show', 'p1'])).json()).toMatchObject({ ok: true, proposal: { id: 'p1', status: 'approved', type_id: proposal.type_id } });
    expect((await ratchet(dir, ['proposals', 'show', 'p7'])).code).toBe(2);
    // A stale --expected-version is refused (exit 1) before the registry file is touched.
    const registryBefore = readFileSync(join(dir, 'protocols', 'action_types.json'), 'utf8');
    const stale = await ratchet(dir, ['proposals', 'merge', 'p1', '--as', 'user', '--expected-version', '1']);
    expect(stale.code).toBe(1);
    expect(stale.err).toContain('version conflict: expected version 1, the state is at version 2');
    expect(readFileSync(join(dir, 'protocols', 'action_types.json'), 'utf8')).toBe(registryBefore);
    expect((await ratchet(dir, ['proposals', 'merge', 'p1', '--as', 'user', '--expected-version', '2'])).code).toBe(0);
    expect((await ratchet(dir, ['actions', 'add', 'code_review', 'Review PR 12'])).code).toBe(0);
    expect((await ratchet(dir, ['proposals', 'review', 'p1', 'maybe'])).code).toBe(2);
  });

  test('turn commit: problems in the file are placed at file:line:col, every one of them; refusals at their place are exit 1', async () => {
    const dir = project();
    expect((await ratchet(dir, ['actions', 'add', 'user_task', 'Approve the copy'])).code).toBe(0);
    const bad = '{\n  "turn_id": "t1",\n  "complete_actions": ["a1"],\n  "new_actions": [\n    { "type": "agent_task" }\n  ]\n}\n';
    writeFileSync(join(dir, 'bad.json'), bad);
    const r = await ratchet(dir, ['turn', 'commit', 'bad.json']);
    expect(r.code).toBe(2);
    expect(r.err.trim().split('\n')).toEqual([
      'bad.json:3:23: invalid turn commit: unknown property "complete_actions" at /complete_actions (and 1 more problem)',
      'bad.json:5:5: missing required property "title" (at /new_actions/0)',
    ]);
    const json = await ratchet(dir, ['--json', 'turn', 'commit', 'bad.json']);
    expect(json.json()).toMatchObject({ ok: false, error: { code: 'invalid-input', file: 'bad.json', line: 3, column: 23 } });
    writeFileSync(join(dir, 'refused.json'), '{\n  "turn_id": "t2",\n  "completed_actions": [\n    "a1"\n  ]\n}\n');
    const refused = await ratchet(dir, ['turn', 'commit', 'refused.json']);
    expect(refused.code).toBe(1);
    expect(refused.err).toBe('refused.json:4:5: a1 is owned by the user: the agent cannot complete it (status "done")\n');
    expect((await ratchet(dir, ['--json', 'goals', 'history'])).json().history).toHaveLength(1);
  });

  test('a decision closes with its choice recorded (--meta); the agent cannot waive confirmation or review proposals', async () => {
    const dir = project();
    expect((await ratchet(dir, ['actions', 'add', 'decision', 'Pick a database', '--owner', 'agent'])).code).toBe(0);
    expect((await ratchet(dir, ['actions', 'confirm', 'a1', '--as', 'user'])).code).toBe(0);
    const noChoice = await ratchet(dir, ['actions', 'complete', 'a1']);
    expect(noChoice.code).toBe(1);
    expect(noChoice.err).toContain('completion guard "choice_recorded" refused: no choice recorded');
    const done = await ratchet(dir, ['--json', 'actions', 'complete', 'a1', '--meta', 'choice=postgres']);
    expect(done.json()).toMatchObject({ ok: true, action: { status: 'decided', metadata: { choice: 'postgres' } } });
    expect((await ratchet(dir, ['actions', 'add', 'agent_task', 'x', '--meta', '__proto__=1'])).code).toBe(2);
    expect((await ratchet(dir, ['actions', 'add', 'agent_task', 'x', '--meta', 'novalue'])).code).toBe(2);
    // Proposals: the agent submits, the user reviews.
    expect((await ratchet(dir, ['proposals', 'submit', '--kind', 'deprecate', '--type-id', 'research', '--rationale', 'unused'])).code).toBe(0);
    const selfReview = await ratchet(dir, ['proposals', 'review', 'p1', 'approve']);
    expect(selfReview.code).toBe(1);
    expect(selfReview.err).toContain('only the user (a maintainer) can review proposal p1');
    expect((await ratchet(dir, ['proposals', 'review', 'p1', 'approve', '--as', 'user'])).code).toBe(0);
  });

  test('proposals submit: a file that does not validate is placed at file:line:col (exit 2); nothing is written', async () => {
    const dir = project();
    writeFileSync(join(dir, 'p.json'), '{\n  "proposal_type": "add",\n  "type_id": "x",\n  "allowed_owners": ["robot"],\n  "rationale": "why"\n}\n');
    const r = await ratchet(dir, ['proposals', 'submit', 'p.json']);
    expect(r.code).toBe(2);
    expect(r.err).toBe('p.json:4:22: invalid proposal: must be one of "agent", "user" at /allowed_owners/0\n');
    writeFileSync(join(dir, 'arr.json'), '[1]');
    expect((await ratchet(dir, ['proposals', 'submit', 'arr.json'])).err).toBe('arr.json:1:1: a proposal must be a JSON object\n');
    expect((await ratchet(dir, ['--json', 'proposals', 'list'])).json().proposals).toEqual([]);
  });

  test('a project without a registry: export prints a patch creating protocols/action_types.json, merge creates it, the next command uses it', async () => {
    const dir = project();
    expect((await ratchet(dir, ['actions', 'add', 'load_test', 'Load-test signup'])).err).toContain('proposal p1 filed');
    const proposal = JSON.parse(readFileSync(join(repoRoot, 'examples', 'goals', 'code-review.proposal.json'), 'utf8')) as Record<string, unknown>;
    writeFileSync(join(dir, 'p.json'), JSON.stringify({ ...proposal, type_id: 'load_test', display_name: 'Load test' }));
    expect((await ratchet(dir, ['proposals', 'submit', 'p.json'])).code).toBe(0);
    expect((await ratchet(dir, ['proposals', 'review', 'p2', 'approve', '--as', 'user'])).code).toBe(0);
    const patch = await ratchet(dir, ['proposals', 'export', 'p2']);
    expect(patch.code).toBe(0);
    expect(patch.out).toMatch(/^--- \/dev\/null\n\+\+\+ b\/protocols\/action_types\.json\n@@ -0,0 \+1,\d+ @@\n/);
    const merged = await ratchet(dir, ['--json', 'proposals', 'merge', 'p2', '--as', 'user']);
    expect(merged.json()).toMatchObject({ ok: true, registry: 'protocols/action_types.json', proposal: { status: 'merged' } });
    expect((await ratchet(dir, ['actions', 'types'])).out).toContain('protocols/action_types.json: 10 action types, valid');
    expect((await ratchet(dir, ['--json', 'actions', 'add', 'load_test', 'Load-test login'])).json()).toMatchObject({ action: { type: 'load_test', status: 'requested' } });
  });

  test('an unknown type in a turn: the proposal filed is approved and merged as filed; the next turn uses the type, the turn that filed it did not', async () => {
    const dir = project();
    writeFileSync(join(dir, 't1.json'), JSON.stringify({ turn_id: 't1', new_actions: [{ type: 'code_review', title: 'Review PR 12' }] }));
    const t1 = await ratchet(dir, ['turn', 'commit', 't1.json']);
    expect(t1.code).toBe(0);
    expect(t1.err).toContain('proposal p1 filed with user_task\'s semantics');
    const filed = (await ratchet(dir, ['--json', 'proposals', 'list'])).json().proposals as Record<string, unknown>[];
    expect(filed).toMatchObject([{ id: 'p1', type_id: 'code_review', allowed_owners: ['user'], allowed_statuses: ['open', 'awaiting_confirmation', 'done', 'cancelled'], suggested_policies: { requires_confirmation: true } }]);
    expect((await ratchet(dir, ['proposals', 'review', 'p1', 'approve', '--as', 'user', '--comments', 'as filed'])).code).toBe(0);
    const merged = await ratchet(dir, ['proposals', 'merge', 'p1', '--as', 'user']);
    expect(merged.code, merged.err).toBe(0);
    expect(merged.out).toContain('merged p1');
    expect((await ratchet(dir, ['actions', 'types'])).out).toContain('protocols/action_types.json: 10 action types, valid');
    writeFileSync(join(dir, 't2.json'), JSON.stringify({ turn_id: 't2', new_actions: [{ type: 'code_review', title: 'Review PR 13' }] }));
    const t2 = await ratchet(dir, ['--json', 'turn', 'commit', 't2.json']);
    expect(t2.json()).toMatchObject({ ok: true, proposals: [], created: [{ id: 'a2', type: 'code_review', owner: 'user', requires_confirmation: true }] });
    const all = (await ratchet(dir, ['--json', 'actions', 'list', '--all'])).json().actions as { id: string; type: string; metadata: Record<string, unknown> }[];
    // The action of the turn that met the unknown type keeps the semantics it was given then.
    expect(all.map((a) => [a.id, a.type, a.metadata.requested_type])).toEqual([['a1', 'user_task', 'code_review'], ['a2', 'code_review', undefined]]);
  });

  test('proposals amend: a bad file is placed at file:line:col (exit 2, nothing written); an amended approval goes back to review; the audit keeps before and after', async () => {
    const dir = project();
    expect((await ratchet(dir, ['actions', 'add', 'deploy window', 'Deploy on Friday'])).err).toContain('ratchet proposals amend p1 --type-id <id>');
    expect((await ratchet(dir, ['proposals', 'review', 'p1', 'approve', '--as', 'user'])).code).toBe(0);
    const noId = await ratchet(dir, ['proposals', 'merge', 'p1', '--as', 'user']);
    expect(noId.code).toBe(1);
    expect(noId.err).toContain('names no type_id: amend it');
    writeFileSync(join(dir, 'bad.json'), '{\n  "type_id": "deploy_window",\n  "allowed_transitions": {\n    "open": ["shipped"]\n  }\n}\n');
    const bad = await ratchet(dir, ['proposals', 'amend', 'p1', 'bad.json', '--as', 'user']);
    expect(bad.code).toBe(2);
    expect(bad.err.split('\n')[0]).toBe('bad.json:4:14: invalid action type "deploy_window" in proposal p1: transition to "shipped", which is not in allowed_statuses at /allowed_transitions/open/0');
    writeFileSync(join(dir, 'unknown.json'), '{ "type_id": "deploy_window", "owner": "agent" }');
    expect((await ratchet(dir, ['proposals', 'amend', 'p1', 'unknown.json'])).err).toBe('unknown.json:1:40: invalid amendment: unknown property "owner" at /owner\n');
    writeFileSync(join(dir, 'arr.json'), '[]');
    expect((await ratchet(dir, ['proposals', 'amend', 'p1', 'arr.json'])).code).toBe(2);
    expect((await ratchet(dir, ['proposals', 'amend', 'p1', '-'], '{"__proto__": {"type_id": "x"}}')).code).toBe(2);
    expect((await ratchet(dir, ['proposals', 'amend', 'p9', '--type-id', 'x'])).code).toBe(2);
    expect((await ratchet(dir, ['--json', 'goals', 'history'])).json().history).toHaveLength(2);

    writeFileSync(join(dir, 'fix.json'), JSON.stringify({ type_id: 'deploy_window', display_name: 'Deploy window', allowed_owners: ['user', 'agent'] }));
    const fixed = await ratchet(dir, ['proposals', 'amend', 'p1', 'fix.json', '--as', 'user', '--who', 'alice']);
    expect(fixed.code, fixed.err).toBe(0);
    expect(fixed.out).toContain('amended p1  [open]  add deploy_window');
    expect(fixed.err).toContain('sends it back to review');
    expect((await ratchet(dir, ['proposals', 'merge', 'p1', '--as', 'user'])).code).toBe(1);
    const history = (await ratchet(dir, ['--json', 'goals', 'history'])).json().history as { op: string; who: string; changes: { before: Record<string, unknown>; after: Record<string, unknown> }[] }[];
    expect(history.at(-1)).toMatchObject({ op: 'proposal.amend', who: 'alice', changes: [{ before: { status: 'approved' }, after: { status: 'open', type_id: 'deploy_window', allowed_owners: ['user', 'agent'] } }] });
    expect((await ratchet(dir, ['proposals', 'review', 'p1', 'approve', '--as', 'user'])).code).toBe(0);
    expect((await ratchet(dir, ['proposals', 'merge', 'p1', '--as', 'user'])).code).toBe(0);
    expect((await ratchet(dir, ['--json', 'actions', 'add', 'deploy_window', 'Deploy next Friday', '--owner', 'agent'])).json()).toMatchObject({ action: { type: 'deploy_window', owner: 'agent', requires_confirmation: true } });
    expect((await ratchet(dir, ['proposals', 'amend', 'p1', '--rationale', 'late'])).code).toBe(1);
  });

  test('a YAML project registry is found, merged into and exported from; two registries are ambiguous', async () => {
    const dir = project();
    mkdirSync(join(dir, 'protocols'));
    const doc = JSON.parse(readFileSync(join(repoRoot, 'protocols', 'action_types.json'), 'utf8')) as unknown;
    // JSON is YAML; the merge below rewrites it as block YAML, which the next command reads back.
    writeFileSync(join(dir, 'protocols', 'action_types.yaml'), JSON.stringify(doc, null, 2));
    const types = await ratchet(dir, ['actions', 'types']);
    expect(types.out).toContain('protocols/action_types.yaml: 9 action types, valid');
    writeFileSync(join(dir, 'p.json'), readFileSync(join(repoRoot, 'examples', 'goals', 'code-review.proposal.json')));
    expect((await ratchet(dir, ['proposals', 'submit', 'p.json'])).code).toBe(0);
    expect((await ratchet(dir, ['proposals', 'review', 'p1', 'approve', '--as', 'user'])).code).toBe(0);
    expect((await ratchet(dir, ['proposals', 'export', 'p1'])).out).toMatch(/^--- a\/protocols\/action_types\.yaml\n/);
    expect((await ratchet(dir, ['proposals', 'merge', 'p1', '--as', 'user'])).code).toBe(0);
    expect(readFileSync(join(dir, 'protocols', 'action_types.yaml'), 'utf8')).toMatch(/^action_types:\n {2}- id: agent_task\n/m);
    expect((await ratchet(dir, ['--json', 'actions', 'add', 'code_review', 'Review PR 12'])).json()).toMatchObject({ action: { type: 'code_review', status: 'requested' } });
    writeFileSync(join(dir, 'protocols', 'action_types.json'), JSON.stringify(doc));
    const both = await ratchet(dir, ['actions', 'types']);
    expect(both.code).toBe(2);
    expect(both.err).toContain('the project has protocols/action_types.json and protocols/action_types.yaml: keep one action-type registry');
  });

  test('usage errors are exit 2', async () => {
    const dir = project();
    expect((await ratchet(dir, ['turn', 'assess', '--limit', 'x'])).code).toBe(2);
    expect((await ratchet(dir, ['actions', 'add', 'agent_task', 'x', '--as', 'robot'])).code).toBe(2);
    expect((await ratchet(dir, ['goals', 'progress', 'nope', '--delta', '0.1'])).code).toBe(2);
    expect((await ratchet(dir, ['turn', 'commit', '-'], '{"turn_id": "t", "__proto__": {}}')).code).toBe(2);
    expect((await ratchet(dir, ['turn', 'assess', '--now', 'yesterday'])).code).toBe(2);
  });
});

describe('quickstart steps', { timeout: 30_000 }, () => {
  test('GOALS_STEPS run in order with the exit codes they promise', async () => {
    const { GOALS_STEPS } = await import('../src/quickstart/goals-steps.js');
    const dir = project();
    for (const step of GOALS_STEPS) {
      for (const example of step.examples ?? []) {
        mkdirSync(join(dir, 'examples', example, '..'), { recursive: true });
        writeFileSync(join(dir, 'examples', example), readFileSync(join(repoRoot, 'examples', example)));
      }
      const r = await ratchet(dir, step.args);
      expect(r.code, `${step.title}: ${r.err}`).toBe(step.expectExit);
    }
    const history = await ratchet(dir, ['--json', 'goals', 'history']);
    expect((history.json().history as unknown[]).length).toBe(4);
  });
});

describe('ratchet goals: the shortcuts an agent would take are refused (issue 15)', { timeout: 30_000 }, () => {
  const agent = { RATCHET_ACTOR: 'agent' };

  test('revert: the agent cannot undo the user\'s confirmation (a person\'s command: exit 2, nothing written)', async () => {
    const dir = project();
    expect((await ratchet(dir, ['actions', 'add', 'decision', 'Pick a database', '--owner', 'agent'], '', agent)).code).toBe(0);
    expect((await ratchet(dir, ['actions', 'confirm', 'a1', '--as', 'user'])).code).toBe(0);
    const path = join(dir, '.ratchet', 'goals.json');
    const before = readFileSync(path, 'utf8');
    const r = await ratchet(dir, ['--json', 'goals', 'revert', '1'], '', agent);
    expect(r.code).toBe(2);
    expect(r.json()).toMatchObject({ ok: false, error: { code: 'actor-pinned' } });
    expect(readFileSync(path, 'utf8')).toBe(before);
    expect((await ratchet(dir, ['goals', 'revert', '1'], '', { RATCHET_ACTOR: 'user' })).code).toBe(0);
  });

  test('actions retype: refused until the type\'s proposal is merged, then the coerced action takes it', async () => {
    const dir = project();
    const added = await ratchet(dir, ['--json', 'actions', 'add', 'code_review', 'Review the PR'], '', agent);
    expect(added.json()).toMatchObject({ action: { id: 'a1', type: 'user_task' }, proposal: { id: 'p1' } });
    const early = await ratchet(dir, ['--json', 'actions', 'retype', 'a1'], '', agent);
    expect(early.code).toBe(1);
    expect(early.json()).toMatchObject({ error: { code: 'proposal-state' } });
    writeFileSync(join(dir, 'amend.json'), JSON.stringify({ allowed_owners: ['agent'], suggested_policies: { requires_confirmation: false, auto_complete: true }, allowed_statuses: ['open', 'done'], allowed_transitions: { open: ['done'] } }));
    expect((await ratchet(dir, ['proposals', 'amend', 'p1', 'amend.json'], '', agent)).code).toBe(0);
    expect((await ratchet(dir, ['proposals', 'review', 'p1', 'approve', '--as', 'user'])).code).toBe(0);
    const merge = await ratchet(dir, ['proposals', 'merge', 'p1', '--as', 'user']);
    expect(merge.code, merge.err).toBe(0);
    const r = await ratchet(dir, ['--json', 'actions', 'retype', 'a1'], '', agent);
    expect(r.code, r.err).toBe(0);
    expect(r.json()).toMatchObject({ action: { id: 'a1', type: 'code_review', owner: 'agent', requires_confirmation: true } });
  });

  test('actions list filters by status, type and goal; questions and stories have commands', async () => {
    const dir = project();
    await ratchet(dir, ['goals', 'add', 'Ship', '--id', 'g1']);
    await ratchet(dir, ['actions', 'add', 'agent_task', 'Write', '--goal', 'g1']);
    await ratchet(dir, ['actions', 'add', 'user_task', 'Approve', '--goal', 'g1']);
    await ratchet(dir, ['actions', 'add', 'agent_task', 'Other']);
    await ratchet(dir, ['actions', 'complete', 'a3']);
    const ids = async (...args: string[]): Promise<string[]> => ((await ratchet(dir, ['--json', 'actions', 'list', ...args])).json().actions as { id: string }[]).map((a) => a.id).sort();
    expect(await ids('--goal', 'g1')).toEqual(['a1', 'a2']);
    expect(await ids('--type', 'user_task')).toEqual(['a2']);
    expect(await ids('--status', 'done')).toEqual(['a3']);
    expect(await ids('--type', 'agent_task', '--status', 'open,done')).toEqual(['a1', 'a3']);
    expect((await ratchet(dir, ['actions', 'list', '--goal', 'nope'])).code).toBe(2);

    expect((await ratchet(dir, ['questions', 'add', 'Who churns first?', '--goal', 'g1', '--priority', '2'])).code).toBe(0);
    const upd = await ratchet(dir, ['--json', 'questions', 'add', '--id', 'q1', '--tag', 'growth']);
    expect(upd.json()).toMatchObject({ question: { id: 'q1', text: 'Who churns first?', priority: 2, tags: ['growth'] } });
    expect((await ratchet(dir, ['--json', 'questions', 'list', '--goal', 'g1'])).json()).toMatchObject({ questions: [{ id: 'q1' }] });
    const story = await ratchet(dir, ['--json', 'stories', 'update', '--question', 'q1', '--narrative', 'onboarding', '--criterion', '3 months of cohorts']);
    expect(story.json()).toMatchObject({ story: { id: 's1', question_id: 'q1', acceptance_criteria: ['3 months of cohorts'] } });
    await ratchet(dir, ['stories', 'update', '--id', 's1', '--evidence', 'reports/churn.md', '--status', 'accepted']);
    expect((await ratchet(dir, ['--json', 'stories', 'list', '--question', 'q1'])).json()).toMatchObject({ stories: [{ id: 's1', status: 'accepted', evidence_refs: ['reports/churn.md'], acceptance_criteria: ['3 months of cohorts'] }] });
    // Bad input is exit 2: a story for a question that does not exist, a question without text.
    expect((await ratchet(dir, ['stories', 'update', '--question', 'q9'])).code).toBe(2);
    expect((await ratchet(dir, ['questions', 'add'])).code).toBe(2);
  });

  test('goals add --id changes only the fields given; a turn updates a goal with only the fields it changes', async () => {
    const dir = project();
    expect((await ratchet(dir, ['goals', 'add', 'Ship the beta', '--priority', '5', '--description', 'by June'])).code).toBe(0);
    // The shortcut that used to reset the priority to 0: an update that does not name it.
    const upd = await ratchet(dir, ['--json', 'goals', 'add', '--id', 'g1', '--description', 'by July']);
    expect(upd.code, upd.err).toBe(0);
    expect(upd.json()).toMatchObject({ goal: { id: 'g1', title: 'Ship the beta', priority: 5, description: 'by July' } });
    const commit = await ratchet(dir, ['--json', 'turn', 'commit', '-'], JSON.stringify({ turn_id: 't1', goals: [{ id: 'g1', priority: 7 }] }));
    expect(commit.code, commit.err).toBe(0);
    const list = await ratchet(dir, ['--json', 'goals', 'list']);
    expect(list.json()).toMatchObject({ goals: [{ id: 'g1', title: 'Ship the beta', priority: 7, description: 'by July' }] });
    // A new goal still needs a title, and the error says where.
    const bad = await ratchet(dir, ['--json', 'turn', 'commit', '-'], JSON.stringify({ turn_id: 't2', goals: [{ id: 'g9', priority: 1 }] }));
    expect(bad.code).toBe(2);
    expect(bad.json()).toMatchObject({ error: { file: '<stdin>', line: 1 } });
    expect((bad.json().error as { message: string }).message).toContain('a new goal needs a title');
  });
});
