import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import {
  ConflictError,
  InputError,
  amendProposal,
  applyProposal,
  readRegistryFile,
  serializeRegistry,
  backoffDelay,
  confirmAction,
  completeAction,
  createAction,
  defaultRegistryDocument,
  loadRegistry,
  openGoals,
  reviewProposal,
  submitProposal,
  updateProgress,
  upsertGoal,
  withRetry,
  type GoalsState,
} from '../src/index.js';
import { AGENT, T0, USER, registry, tempDir, tempStore } from './support.js';

const entities = (s: GoalsState): unknown => ({ goals: s.goals, actions: s.actions, questions: s.questions, stories: s.stories, proposals: s.proposals, turns: s.turns });
const strip = (s: GoalsState): unknown => JSON.parse(JSON.stringify(entities(s), (k, v: unknown) => (k === 'version' ? undefined : v)));

describe('versions and the audit trail', () => {
  test('every mutation creates a version and an audit entry (who, when, previous and new version); a no-op creates none', async () => {
    const { store, clock } = tempStore();
    const first = await store.mutate({ actor: AGENT, op: 'goal.create' }, (tx) => upsertGoal(tx, { title: 'Ship', priority: 2 }));
    expect(first.version).toBe(1);
    // The result is what was written: stamped with the new version, and detached from the state.
    expect(first.result).toEqual((await store.read()).goals[0]);
    expect(first.result.version).toBe(1);
    clock.now += 1000;
    const second = await store.mutate({ actor: USER, op: 'goal.progress' }, (tx) => updateProgress(tx, { goal_id: 'g1', delta: 0.25 }));
    expect(second.entry).toMatchObject({ version: 2, previous_version: 1, who: 'alice', at: new Date(T0 + 1000).toISOString(), op: 'goal.progress' });
    expect(second.entry!.changes.map((c) => [c.kind, c.id, c.before?.progress, c.before?.version, c.after?.progress, c.after?.version])).toEqual([['goal', 'g1', 0, 1, 0.25, 2]]);
    const noop = await store.mutate({ actor: AGENT, op: 'goal.progress' }, (tx) => updateProgress(tx, { goal_id: 'g1', delta: 0 }));
    expect(noop.version).toBe(2);
    expect(noop.entry).toBeUndefined();
    expect((await store.history()).map((e) => e.version)).toEqual([1, 2]);
    const onDisk = JSON.parse(readFileSync(store.path, 'utf8')) as Record<string, unknown>;
    expect(onDisk).toMatchObject({ $schema: 'https://unpkg.com/@ratchet/goals/schemas/goals-state.schema.json', schemaVersion: 1, version: 2 });
  });

  test('a refused mutation writes nothing', async () => {
    const { store } = tempStore();
    await store.mutate({ actor: AGENT, op: 'x' }, (tx) => createAction(tx, registry, { type: 'user_task', title: 'sign' }));
    const before = readFileSync(store.path, 'utf8');
    await expect(store.mutate({ actor: AGENT, op: 'x' }, (tx) => {
      createAction(tx, registry, { type: 'agent_task', title: 'would be lost' });
      return completeAction(tx, registry, 'a1');
    })).rejects.toThrow(/owned by the user/);
    expect(readFileSync(store.path, 'utf8')).toBe(before);
  });

  test('revert to any version (property: random histories, every earlier version)', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(fc.record({ op: fc.constantFrom('goal', 'action', 'progress', 'complete'), p: fc.integer({ min: 0, max: 9 }) }), { minLength: 1, maxLength: 8 }), async (ops) => {
        const { store } = tempStore();
        const snapshots: GoalsState[] = [await store.read()];
        for (const { op, p } of ops) {
          const r = await store.mutate({ actor: USER, op }, (tx, s) => {
            if (op === 'goal' || s.goals.length === 0) upsertGoal(tx, { title: `goal ${p}`, priority: p });
            else if (op === 'action') createAction(tx, registry, { type: 'agent_task', title: `act ${p}`, priority: p, goal_id: s.goals[p % s.goals.length]!.id });
            else if (op === 'progress') updateProgress(tx, { goal_id: s.goals[p % s.goals.length]!.id, delta: 0.1 });
            else {
              const open = s.actions.find((a) => a.status === 'open');
              if (open) completeAction(tx, registry, open.id);
            }
          });
          if (r.entry) snapshots[r.version] = await store.read();
        }
        const latest = (await store.read()).version;
        for (let v = latest - 1; v >= 0; v--) {
          const r = await store.revert(v, { actor: USER });
          expect(strip(await store.read())).toEqual(strip(snapshots[v]!));
          expect(r.entry).toMatchObject({ op: 'revert', reverted_to: v, previous_version: r.version - 1 });
          // And back to the latest state, through the revert's own audit entry.
          await store.revert(latest, { actor: USER });
          expect(strip(await store.read())).toEqual(strip(snapshots[latest]!));
        }
      }),
      { seed: 7, numRuns: 12 },
    );
  }, 60_000);

  test('an audit trail with a gap, an edited version or missing entries is refused (revert relies on it); the file is left alone', async () => {
    const { store } = tempStore();
    for (const title of ['a', 'b', 'c']) await store.mutate({ actor: AGENT, op: 'x' }, (tx) => upsertGoal(tx, { title }));
    const good = readFileSync(store.path, 'utf8');
    const doc = JSON.parse(good) as { version: number; audit: { version: number; previous_version: number }[] };
    const variants: [string, (d: typeof doc) => void, string][] = [
      ['a gap', (d) => void d.audit.splice(1, 1), '/audit/1'],
      ['an edited version', (d) => void (d.audit[2]!.version = 7), '/audit/2'],
      ['a truncated trail', (d) => void d.audit.pop(), '/version'],
    ];
    for (const [what, edit, pointer] of variants) {
      const bad = structuredClone(doc);
      edit(bad);
      const text = JSON.stringify(bad, null, 2);
      writeFileSync(store.path, text);
      const err = await store.mutate({ actor: AGENT, op: 'x' }, (tx) => upsertGoal(tx, { title: 'd' })).catch((e: unknown) => e);
      expect(err, what).toMatchObject({ code: 'validation-error', pointer });
      await expect(store.revert(1, { actor: USER }), what).rejects.toMatchObject({ code: 'validation-error' });
      expect(readFileSync(store.path, 'utf8'), what).toBe(text);
    }
  });

  test('revert refuses versions that do not exist', async () => {
    const { store } = tempStore();
    await expect(store.revert(3, { actor: USER })).rejects.toThrow(/versions 0 to 0/);
  });
});

describe('optimistic locking', () => {
  test('expected_version mismatch: ConflictError, nothing written', async () => {
    const { store } = tempStore();
    await store.mutate({ actor: AGENT, op: 'x' }, (tx) => upsertGoal(tx, { title: 'A' }));
    const err = await store.mutate({ actor: AGENT, op: 'x', expected_version: 0 }, (tx) => upsertGoal(tx, { title: 'B' })).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ConflictError);
    expect(err).toMatchObject({ code: 'conflict', expected: 0, actual: 1, path: store.path });
    expect((await store.read()).goals.map((g) => g.title)).toEqual(['A']);
  });

  test('withRetry: exponential backoff with jitter (injected random and sleep), then success; other errors are not retried', async () => {
    expect([0, 1, 2].map((i) => backoffDelay(i, { random: () => 0.5 }))).toEqual([10, 20, 40]);
    expect(backoffDelay(0, { random: () => 0 })).toBe(5);
    expect(backoffDelay(2, { random: () => 1 })).toBe(60);
    const slept: number[] = [];
    let calls = 0;
    const value = await withRetry(
      () => {
        calls++;
        if (calls < 3) return Promise.reject(new ConflictError(1, 2));
        return Promise.resolve('ok');
      },
      { random: () => 0.5, sleep: (ms) => (slept.push(ms), Promise.resolve()) },
    );
    expect({ value, calls, slept }).toEqual({ value: 'ok', calls: 3, slept: [10, 20] });
    await expect(withRetry(() => Promise.reject(new ConflictError(1, 2)), { retries: 2, sleep: () => Promise.resolve() })).rejects.toBeInstanceOf(ConflictError);
    let plain = 0;
    await expect(withRetry(() => (plain++, Promise.reject(new Error('boom'))), { sleep: () => Promise.resolve() })).rejects.toThrow('boom');
    expect(plain).toBe(1);
  });

  test('concurrent commits in one process against the same version: one wins, the loser retries, nothing lost', async () => {
    const { store } = tempStore();
    const results = await Promise.allSettled(
      ['t1', 't2'].map((turn) => store.commitTurn(registry, { turn_id: turn, expected_version: 0, new_actions: [{ type: 'agent_task', title: turn }] }, { actor: AGENT })),
    );
    const reasons = results.flatMap((r): unknown[] => (r.status === 'rejected' ? [r.reason as unknown] : []));
    expect(reasons).toHaveLength(1);
    expect(reasons[0]).toBeInstanceOf(ConflictError);
    await withRetry(async () => {
      const { version } = await store.read();
      return store.commitTurn(registry, { turn_id: 't2', expected_version: version, new_actions: [{ type: 'agent_task', title: 't2' }] }, { actor: AGENT });
    });
    expect((await store.read()).actions.map((a) => a.title).sort()).toEqual(['t1', 't2']);
  });
});

describe('turn commit', () => {
  test('applies progress, new and completed actions and story updates; replaying changes nothing', async () => {
    const { store, clock } = tempStore();
    await store.mutate({ actor: AGENT, op: 'setup' }, (tx) => {
      upsertGoal(tx, { id: 'launch', title: 'Launch', priority: 5 });
      createAction(tx, registry, { id: 'old', type: 'agent_task', title: 'draft' });
    });
    const commit = {
      turn_id: 'turn-7',
      expected_version: 1,
      questions: [{ id: 'q-users', text: 'Who are the users?' }],
      progress: [{ goal_id: 'launch', delta: 0.5, evidence_refs: ['ci/run/1'] }],
      new_actions: [{ type: 'reminder', title: 'ping the team', due_at: new Date(T0 - 1).toISOString() }, { type: 'telepathy', title: 'read minds' }],
      completed_actions: ['old'],
      story_updates: [{ question_id: 'q-users', narrative: 'devs', acceptance_criteria: ['5 interviews'], evidence_refs: ['notes.md'] }],
    };
    const first = await store.commitTurn(registry, commit, { actor: AGENT });
    expect(first).toMatchObject({ replayed: false, version: 2, turn_id: 'turn-7' });
    expect([...first.created, ...first.completed, ...first.escalated, ...first.proposals].map((e) => e.version)).toEqual([2, 2, 2, 2, 2]);
    expect(first.created.map((a) => a.type)).toEqual(['reminder', 'user_task']);
    expect(first.completed.map((a) => [a.id, a.status])).toEqual([['old', 'done']]);
    expect(first.escalated.map((a) => a.title)).toEqual(['ping the team']);
    expect(first.proposals.map((p) => p.type_id)).toEqual(['telepathy']);
    const after = readFileSync(store.path, 'utf8');
    clock.now += 60_000;
    const replay = await store.commitTurn(registry, commit, { actor: AGENT });
    expect(replay).toMatchObject({ replayed: true, version: 2, created: [] });
    expect(readFileSync(store.path, 'utf8')).toBe(after);
    const state = await store.read();
    expect(state.goals[0]).toMatchObject({ progress: 0.5, evidence_refs: ['ci/run/1'] });
    expect(state.stories[0]).toMatchObject({ acceptance_criteria: ['5 interviews'], evidence_refs: ['notes.md'] });
    expect(state.actions.find((a) => a.title === 'ping the team')!.created_from_turn_id).toBe('turn-7');
    expect(state.audit.at(-1)).toMatchObject({ op: 'turn.commit', turn_id: 'turn-7' });
    await expect(store.commitTurn(registry, { ...commit, new_actions: [] }, { actor: AGENT })).rejects.toMatchObject({ code: 'turn-mismatch' });
  });

  test('a commit that fails part-way applies nothing', async () => {
    const { store } = tempStore();
    await expect(store.commitTurn(registry, { turn_id: 't', new_actions: [{ type: 'agent_task', title: 'x' }], completed_actions: ['missing'] }, { actor: AGENT })).rejects.toMatchObject({ code: 'not-found' });
    expect((await store.read()).version).toBe(0);
    await expect(store.commitTurn(registry, { turn_id: 't', bogus: 1 } as never, { actor: AGENT })).rejects.toThrow('invalid turn commit: unknown property "bogus" at /bogus');
    await expect(store.commitTurn(registry, { turn_id: '../x' }, { actor: AGENT })).rejects.toMatchObject({ code: 'invalid-input', pointer: '/turn_id' });
    expect((await store.read()).version).toBe(0);
  });

  test('a malformed commit: every problem against the schema, each with its JSON pointer, before anything is applied', async () => {
    const { store } = tempStore();
    const commit = {
      turn_id: 't',
      expected_version: -1,
      complete_actions: ['a1'],
      new_actions: [{ type: 'agent_task' }, { type: 'agent_task', title: 'x', due_at: 5 }],
      completed_actions: ['ok-id', 7, { id: 'a1', colour: 'red' }, 'not an id'],
      progress: [{ goal_id: 'g1', progress: 2 }],
    };
    const err = (await store.commitTurn(registry, commit as never, { actor: AGENT }).catch((e: unknown) => e)) as InputError;
    expect(err).toBeInstanceOf(InputError);
    expect(err.code).toBe('invalid-input');
    expect(err.issues.map((i) => i.pointer)).toEqual(
      expect.arrayContaining(['/expected_version', '/complete_actions', '/new_actions/0', '/new_actions/1/due_at', '/completed_actions/1', '/completed_actions/2/colour', '/completed_actions/3', '/progress/0/progress']),
    );
    expect(err.issues.find((i) => i.pointer === '/new_actions/0')!.message).toBe('missing required property "title"');
    expect(err.issues.find((i) => i.pointer === '/completed_actions/2/colour')!.message).toBe('unknown property "colour"');
    // An id the schema takes for an id, not a wrong-type object: only the pattern problem is reported.
    expect(err.issues.filter((i) => i.pointer === '/completed_actions/3').map((i) => i.message)).toEqual([expect.stringMatching(/^must be a name/)]);
    expect((await store.read()).version).toBe(0);
  });

  test('a delta refused while applying names its place in the commit; nothing is applied', async () => {
    const { store } = tempStore();
    await store.mutate({ actor: AGENT, op: 'setup' }, (tx) => {
      createAction(tx, registry, { id: 'mine', type: 'agent_task', title: 'mine' });
      createAction(tx, registry, { id: 'theirs', type: 'user_task', title: 'theirs' });
      createAction(tx, registry, { id: 'pick', type: 'decision', owner: 'agent', title: 'pick a db' });
    });
    const refused = await store.commitTurn(registry, { turn_id: 't', completed_actions: ['mine', { id: 'theirs' }] }, { actor: AGENT }).catch((e: unknown) => e);
    expect(refused).toMatchObject({ code: 'owner-violation', pointer: '/completed_actions/1' });
    expect((refused as Error).message).toMatch(/owned by the user.*\(at \/completed_actions\/1\)$/);
    const missing = await store.commitTurn(registry, { turn_id: 't', story_updates: [{ id: 'nope' }] }, { actor: AGENT }).catch((e: unknown) => e);
    expect(missing).toMatchObject({ code: 'not-found', pointer: '/story_updates/0' });
    expect((await store.read()).actions.find((a) => a.id === 'mine')!.status).toBe('open');
    // completed_actions may record metadata first: here the choice a decision's guard asks for (once the user confirmed).
    await store.mutate({ actor: USER, op: 'confirm' }, (tx) => confirmAction(tx, 'pick'));
    const noChoice = await store.commitTurn(registry, { turn_id: 't', completed_actions: [{ id: 'pick' }] }, { actor: AGENT }).catch((e: unknown) => e);
    expect(noChoice).toMatchObject({ code: 'completion-guard', pointer: '/completed_actions/0' });
    const done = await store.commitTurn(registry, { turn_id: 't', completed_actions: [{ id: 'pick', metadata: { choice: 'postgres' } }] }, { actor: AGENT });
    expect(done.completed[0]).toMatchObject({ id: 'pick', status: 'decided', metadata: { choice: 'postgres' } });
  });
});

describe('bad state files are never overwritten', () => {
  const cases: [string, string | Buffer, string][] = [
    ['malformed', '{\n  "schemaVersion": 1,\n  "version": 1,\n', 'parse-error'],
    ['__proto__', '{"schemaVersion": 1, "__proto__": {"x": 1}}', 'unsafe-input'],
    ['invalid', JSON.stringify({ schemaVersion: 1, version: 'one', counters: {}, goals: [], actions: [], questions: [], stories: [], proposals: [], turns: [], audit: [] }), 'validation-error'],
    ['newer', JSON.stringify({ schemaVersion: 9 }), 'schema-version'],
    ['binary', Buffer.from([0x7b, 0x00, 0x7d]), 'binary-file'],
  ];
  test.each(cases)('%s', async (_, content, code) => {
    const dir = tempDir();
    const path = join(dir, 'goals.json');
    writeFileSync(path, content);
    const store = openGoals(path, { clock: () => T0 });
    await expect(store.mutate({ actor: AGENT, op: 'x' }, (tx) => upsertGoal(tx, { title: 'x' }))).rejects.toMatchObject({ code, path });
    expect(readFileSync(path)).toEqual(Buffer.from(content));
  });
});

describe('registry proposals: merge and export', () => {
  test('only approved proposals merge; the registry file changes, a running turn keeps its registry; export is a patch', async () => {
    const { store, dir } = tempStore();
    const registryPath = join(dir, 'action_types.json');
    writeFileSync(registryPath, `${JSON.stringify(defaultRegistryDocument(), null, 2)}\n`);
    const running = loadRegistry(defaultRegistryDocument());
    const { result: p } = await store.mutate({ actor: AGENT, op: 'proposal.submit' }, (tx) =>
      submitProposal(tx, { proposal_type: 'add', type_id: 'code_review', display_name: 'Code review', allowed_owners: ['agent'], allowed_statuses: ['open', 'done'], allowed_transitions: { open: ['done'] }, rationale: 'frequent' }),
    );
    await expect(store.mergeProposal(p.id, registryPath, { actor: USER })).rejects.toMatchObject({ code: 'proposal-state' });
    const patch = await store.exportProposal(p.id, registryPath, 'protocols/action_types.json');
    expect(patch).toMatch(/^--- a\/protocols\/action_types\.json\n\+\+\+ b\/protocols\/action_types\.json\n@@ -\d+,\d+ \+\d+,\d+ @@/);
    expect(patch).toContain('+      "id": "code_review",');
    await store.mutate({ actor: USER, op: 'proposal.review' }, (tx) => reviewProposal(tx, p.id, 'approve', 'LGTM'));
    const merged = await store.mergeProposal(p.id, registryPath, { actor: USER });
    expect(merged.proposal.status).toBe('merged');
    expect(merged.patch).toBe(patch.replaceAll('protocols/action_types.json', registryPath));
    const onDisk = JSON.parse(readFileSync(registryPath, 'utf8')) as { action_types: { id: string }[] };
    expect(onDisk.action_types.map((t) => t.id)).toContain('code_review');
    // The registry a turn already loaded is unchanged: the new type is still unknown there.
    expect(running.types.has('code_review')).toBe(false);
    await expect(store.mergeProposal(p.id, registryPath, { actor: USER })).rejects.toMatchObject({ code: 'proposal-state' });
  });

  test('a merge with a stale expected_version is refused before the registry file is touched; the current one merges', async () => {
    const { store, dir } = tempStore();
    const registryPath = join(dir, 'action_types.json');
    writeFileSync(registryPath, `${JSON.stringify(defaultRegistryDocument(), null, 2)}\n`);
    const before = readFileSync(registryPath, 'utf8');
    const { result: p } = await store.mutate({ actor: AGENT, op: 'proposal.submit' }, (tx) =>
      submitProposal(tx, { proposal_type: 'add', type_id: 'code_review', allowed_owners: ['agent'], allowed_statuses: ['open', 'done'], allowed_transitions: { open: ['done'] }, rationale: 'frequent' }),
    );
    const { version } = await store.mutate({ actor: USER, op: 'proposal.review' }, (tx) => reviewProposal(tx, p.id, 'approve', 'ok'));
    await expect(store.mergeProposal(p.id, registryPath, { actor: USER, expected_version: version - 1 })).rejects.toMatchObject({ code: 'conflict' });
    expect(readFileSync(registryPath, 'utf8')).toBe(before);
    expect((await store.read()).proposals.find((x) => x.id === p.id)?.status).toBe('approved');
    const merged = await store.mergeProposal(p.id, registryPath, { actor: USER, expected_version: version });
    expect(merged.proposal.status).toBe('merged');
  });

  test('a merge never changes the semantics of a turn already running; the next turn, loading the file, sees the new type', async () => {
    const { store, dir } = tempStore();
    const registryPath = join(dir, 'action_types.json');
    writeFileSync(registryPath, `${JSON.stringify(defaultRegistryDocument(), null, 2)}
`);
    // The turn starts: it loads the registry from the file.
    const running = await readRegistryFile(registryPath);
    const { result: p } = await store.mutate({ actor: AGENT, op: 'proposal.submit' }, (tx) =>
      submitProposal(tx, { proposal_type: 'add', type_id: 'code_review', allowed_owners: ['agent'], allowed_statuses: ['open', 'done'], allowed_transitions: { open: ['done'] }, rationale: 'frequent' }),
    );
    await store.mutate({ actor: USER, op: 'proposal.review' }, (tx) => reviewProposal(tx, p.id, 'approve', 'ok'));
    await expect(store.mergeProposal(p.id, registryPath, { actor: AGENT })).rejects.toMatchObject({ code: 'owner-violation' });
    await store.mergeProposal(p.id, registryPath, { actor: USER });
    // Mid-turn, after the merge: the running turn still treats code_review as unknown (coerced, a new proposal filed).
    const during = await store.commitTurn(running, { turn_id: 'during', new_actions: [{ type: 'code_review', title: 'review PR 1' }] }, { actor: AGENT });
    expect(during.created[0]).toMatchObject({ type: 'user_task', requires_confirmation: true, metadata: { requested_type: 'code_review' } });
    expect(during.proposals).toHaveLength(1);
    // The next turn loads the merged file: code_review is a type of its own.
    const next = await store.commitTurn(await readRegistryFile(registryPath), { turn_id: 'next', new_actions: [{ type: 'code_review', title: 'review PR 2' }] }, { actor: AGENT });
    expect(next.created[0]).toMatchObject({ type: 'code_review', owner: 'agent', status: 'open' });
  });

  test('amending a proposal is an audited mutation: who, when, the proposal before and after; an approval must be given again', async () => {
    const { store, dir } = tempStore();
    const registryPath = join(dir, 'action_types.json');
    writeFileSync(registryPath, `${JSON.stringify(defaultRegistryDocument(), null, 2)}\n`);
    const filed = await store.commitTurn(await readRegistryFile(registryPath), { turn_id: 't1', new_actions: [{ type: 'code_review', title: 'review PR 1' }] }, { actor: AGENT });
    const id = filed.proposals[0]!.id;
    await store.mutate({ actor: USER, op: 'proposal.review' }, (tx) => reviewProposal(tx, id, 'approve', 'as filed'));
    const amended = await store.mutate({ actor: USER, op: 'proposal.amend' }, (tx) => amendProposal(tx, id, { allowed_owners: ['agent', 'user'], display_name: 'Code review' }));
    expect(amended.entry).toMatchObject({ op: 'proposal.amend', who: 'alice', previous_version: 2, version: 3 });
    expect(amended.entry!.changes).toMatchObject([{ kind: 'proposal', id, before: { status: 'approved', allowed_owners: ['user'] }, after: { status: 'open', allowed_owners: ['agent', 'user'] } }]);
    expect(amended.entry!.changes).toHaveLength(1);
    await expect(store.mergeProposal(id, registryPath, { actor: USER })).rejects.toMatchObject({ code: 'proposal-state' });
    await store.mutate({ actor: USER, op: 'proposal.review' }, (tx) => reviewProposal(tx, id, 'approve', 'amended'));
    await store.mergeProposal(id, registryPath, { actor: USER });
    const next = await store.commitTurn(await readRegistryFile(registryPath), { turn_id: 't2', new_actions: [{ type: 'code_review', title: 'review PR 2', owner: 'agent' }] }, { actor: AGENT });
    expect(next.created[0]).toMatchObject({ type: 'code_review', owner: 'agent', requires_confirmation: true });
  });

  test('a project without a registry file: export is a patch that creates it, merge creates it (from the registry in use, plus the change)', async () => {
    const { store, dir } = tempStore();
    const rel = 'protocols/action_types.json';
    const target = join(dir, rel);
    const { result: p } = await store.mutate({ actor: AGENT, op: 'proposal.submit' }, (tx) => submitProposal(tx, { proposal_type: 'deprecate', type_id: 'research', rationale: 'use agent_task' }));
    await expect(store.exportProposal(p.id, target, rel)).rejects.toMatchObject({ code: 'not-found' });
    const patch = await store.exportProposal(p.id, target, rel, { ifMissing: defaultRegistryDocument() });
    expect(patch.split('\n').slice(0, 3)).toEqual(['--- /dev/null', `+++ b/${rel}`, expect.stringMatching(/^@@ -0,0 \+1,\d+ @@$/)]);
    const repo = mkdtempSync(join(dir, 'git-'));
    execFileSync('git', ['init', '-q'], { cwd: repo });
    writeFileSync(join(repo, 'p.patch'), patch);
    execFileSync('git', ['apply', 'p.patch'], { cwd: repo });
    const plain = mkdtempSync(join(dir, 'plain-'));
    execFileSync('patch', ['-p1', '--quiet', '--input', join(repo, 'p.patch')], { cwd: plain });
    await store.mutate({ actor: USER, op: 'proposal.review' }, (tx) => reviewProposal(tx, p.id, 'approve', 'ok'));
    const merged = await store.mergeProposal(p.id, target, { actor: USER, displayPath: rel, ifMissing: defaultRegistryDocument() });
    expect(merged.patch).toBe(patch);
    expect(readFileSync(join(repo, rel), 'utf8')).toBe(readFileSync(target, 'utf8'));
    expect(readFileSync(join(plain, rel), 'utf8')).toBe(readFileSync(target, 'utf8'));
    expect((await readRegistryFile(target)).types.get('research')!.type.deprecation_status).toBe('deprecated');
  });

  test.each(['json', 'yaml'] as const)('export: a unified diff that git apply and patch -p1 accept, reproducing the merged %s registry', async (format) => {
    const { store, dir } = tempStore();
    const { stringify } = await import('yaml');
    const rel = `protocols/action_types.${format}`;
    mkdirSync(join(dir, 'protocols'));
    const original = format === 'json' ? `${JSON.stringify(defaultRegistryDocument(), null, 2)}\n` : stringify(defaultRegistryDocument(), { lineWidth: 0 });
    writeFileSync(join(dir, rel), original);
    const ids: string[] = [];
    await store.mutate({ actor: AGENT, op: 'proposal.submit' }, (tx) => {
      ids.push(submitProposal(tx, { proposal_type: 'add', type_id: 'code_review', allowed_owners: ['agent'], allowed_statuses: ['open', 'done'], allowed_transitions: { open: ['done'] }, rationale: 'frequent' }).id);
      ids.push(submitProposal(tx, { proposal_type: 'modify', type_id: 'reminder', display_name: 'Nudge', suggested_policies: { escalation: { after: 'PT2H' } }, rationale: 'sooner' }).id);
      ids.push(submitProposal(tx, { proposal_type: 'deprecate', type_id: 'research', rationale: 'use agent_task' }).id);
    });
    for (const id of ids) {
      writeFileSync(join(dir, rel), original);
      const patch = await store.exportProposal(id, join(dir, rel), rel);
      expect(patch.startsWith(`--- a/${rel}\n+++ b/${rel}\n@@ `)).toBe(true);
      // What merging would write, computed without touching the file.
      const expected = await serializeRegistry(applyProposal((await readRegistryFile(join(dir, rel))).document, (await store.read()).proposals.find((x) => x.id === id)!), format);
      expect(expected).not.toBe(original);
      // git apply, in a repository.
      const repo = mkdtempSync(join(dir, 'git-'));
      execFileSync('git', ['init', '-q'], { cwd: repo });
      mkdirSync(join(repo, 'protocols'));
      writeFileSync(join(repo, rel), original);
      writeFileSync(join(repo, 'p.patch'), patch);
      execFileSync('git', ['apply', '--check', 'p.patch'], { cwd: repo });
      execFileSync('git', ['apply', 'p.patch'], { cwd: repo });
      expect(readFileSync(join(repo, rel), 'utf8')).toBe(expected);
      // patch -p1, outside any repository.
      const plain = mkdtempSync(join(dir, 'plain-'));
      mkdirSync(join(plain, 'protocols'));
      writeFileSync(join(plain, rel), original);
      execFileSync('patch', ['-p1', '--quiet', '--input', join(repo, 'p.patch')], { cwd: plain });
      expect(readFileSync(join(plain, rel), 'utf8')).toBe(expected);
      // And the loaded result is a valid registry with the change in it.
      const loaded = await readRegistryFile(join(plain, rel));
      if (id === ids[0]) expect(loaded.types.has('code_review')).toBe(true);
      if (id === ids[1]) expect(loaded.types.get('reminder')!.type).toMatchObject({ display_name: 'Nudge', default_policies: { escalation: { after: 'PT2H' } } });
      if (id === ids[2]) expect(loaded.types.get('research')!.type.deprecation_status).toBe('deprecated');
    }
  });
});
