/**
 * What a turn runs under and what a merge may leave behind: a pinned registry is the one a turn's
 * commit sees (content-addressed, refused once changed), a merge that would leave a type no one can
 * complete is refused, the agent cannot rewrite the user's actions, and goal fields are checked
 * before anything is written.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import {
  assess,
  createAction,
  defaultRegistryDocument,
  loadRegistry,
  pinDigest,
  pinRegistry,
  readPinnedRegistry,
  registerActionType,
  registryPinPath,
  reviewProposal,
  submitProposal,
  updateAction,
  upsertGoal,
} from '../src/index.js';
import { AGENT, T0, USER, inMemory, registry, tempDir, tempStore } from './support.js';

describe('pinned registries', () => {
  test('a pin is the registry as it was: content-addressed, written once, read back; a changed one is refused with its path', async () => {
    const root = tempDir();
    const digest = await pinRegistry(root, registry);
    expect(digest).toBe(await pinDigest(registry));
    expect(await pinRegistry(root, registry)).toBe(digest);
    const path = registryPinPath(root, digest);
    expect((await readPinnedRegistry(root, digest)).types.has('agent_task')).toBe(true);
    // A later registry pins under another name; the first one is untouched.
    const grown = loadRegistry(registerActionType(defaultRegistryDocument(), { id: 'code_review', display_name: 'Code review', allowed_owners: ['agent'], default_policies: {}, allowed_statuses: ['open', 'done'], allowed_transitions: { open: ['done'] }, deprecation_status: 'active' }));
    const later = await pinRegistry(root, grown);
    expect(later).not.toBe(digest);
    expect((await readPinnedRegistry(root, digest)).types.has('code_review')).toBe(false);
    writeFileSync(path, readFileSync(path, 'utf8').replace('"Agent task"', '"Agent chore"'));
    await expect(readPinnedRegistry(root, digest)).rejects.toMatchObject({ code: 'invalid-input', path });
    await expect(readPinnedRegistry(root, '../../etc/passwd')).rejects.toMatchObject({ code: 'invalid-input' });
  });
});

describe('merging a proposal', () => {
  async function approved(guard: string): Promise<{ store: ReturnType<typeof tempStore>['store']; path: string }> {
    const { store, dir } = tempStore();
    const path = join(dir, 'action_types.json');
    writeFileSync(path, `${JSON.stringify(defaultRegistryDocument(), null, 2)}\n`);
    await store.mutate({ actor: AGENT, op: 'proposal.submit' }, (tx) =>
      submitProposal(tx, { proposal_type: 'add', type_id: 'sign_off', allowed_owners: ['user'], allowed_statuses: ['open', 'done'], allowed_transitions: { open: ['done'] }, policy_handlers: { completion_guard: guard }, rationale: 'managers sign off' }),
    );
    await store.mutate({ actor: USER, op: 'proposal.review' }, (tx) => reviewProposal(tx, 'p1', 'approve', 'ok'));
    return { store, path };
  }

  test('a completion guard nothing implements is refused before the file is written; one the caller implements merges', async () => {
    const a = await approved('manager_signoff');
    const before = readFileSync(a.path, 'utf8');
    await expect(a.store.mergeProposal('p1', a.path, { actor: USER })).rejects.toMatchObject({ code: 'completion-guard', reason: expect.stringContaining('no one, the user included, could ever complete a sign_off') as string });
    expect(readFileSync(a.path, 'utf8')).toBe(before);
    expect((await a.store.read()).proposals[0]!.status).toBe('approved');
    const b = await approved('manager_signoff');
    const merged = await b.store.mergeProposal('p1', b.path, { actor: USER, handlers: { manager_signoff: () => undefined } });
    expect(merged.proposal.status).toBe('merged');
  });
});

describe('owner rules on editing', () => {
  test("the agent cannot change a user-owned action's title, priority or due date; the user can; evidence and metadata stay open", () => {
    const { tx } = inMemory(AGENT);
    createAction(tx, registry, { id: 'u1', type: 'user_task', title: 'Approve the copy' });
    expect(() => updateAction(tx, 'u1', { priority: 3, due_at: '2030-01-02T00:00:00Z' })).toThrow('u1 is owned by the user: the agent cannot change its priority and due date');
    expect(updateAction(tx, 'u1', { evidence_refs: ['ci/1'], metadata: { note: 'x' } })).toMatchObject({ evidence_refs: ['ci/1'], metadata: { note: 'x' } });
    const { tx: user, state } = inMemory(USER);
    createAction(user, registry, { id: 'u1', type: 'user_task', title: 'Approve the copy' });
    expect(updateAction(user, 'u1', { priority: 3, title: 'Approve the new copy' })).toMatchObject({ priority: 3, title: 'Approve the new copy' });
    expect(assess(state, registry, { now: T0, owner: 'agent' }).by_owner.user).toEqual([]);
  });

  test('goal fields are checked: status, horizon, metrics, constraints; a reserved metric name is unsafe input', () => {
    const { tx } = inMemory(AGENT);
    const bad: [Parameters<typeof upsertGoal>[1], string][] = [
      [{ title: 'x', status: 'done' as never }, 'goal status must be one of'],
      [{ title: 'x', horizon: { days: -1 } }, 'horizon days must not be negative'],
      [{ title: 'x', horizon: { steps: 1.5 } }, 'horizon steps must be a whole number'],
      [{ title: 'x', metrics: { signups: Number.NaN } }, 'metric signups must be a finite number'],
      [{ title: 'x', metrics: JSON.parse('{"__proto__": 1}') as Record<string, number> }, 'refusing the key "__proto__"'],
      [{ title: 'x', constraints: [' '] }, 'a constraint must be a non-empty string'],
    ];
    for (const [input, message] of bad) expect(() => upsertGoal(tx, input), message).toThrow(message);
    expect(upsertGoal(tx, { title: 'Grow', horizon: { days: 90, steps: 12 }, metrics: { signups: 120 }, constraints: ['GDPR'], status: 'proposed' })).toMatchObject({ horizon: { days: 90, steps: 12 }, status: 'proposed' });
  });
});
