/**
 * What one campaign's observation must not do (issue 29): store a near-duplicate of the memory
 * failure the builders had just used, or fold every finished task of a campaign into one pattern
 * because FTL gives every workspace the campaign's objective.
 */
import { describe, expect, test } from 'vitest';
import { applyObservation, observe, type WorkspaceRecord } from '../src/index.js';
import { emptyMemory, failure, NOW } from './support.js';

const OBJECTIVE = 'Add user authentication to the API';

describe('observing a campaign', () => {
  test('a block the builder met with a memory failure it used is that failure: merged into it, not stored again beside it', async () => {
    const data = emptyMemory();
    data.failures.push(failure('bcrypt-native-build', 'bcrypt native build fails: gyp ERR! node-gyp rebuild', { fix: 'use bcryptjs (no native build)' }));
    const attempt1: WorkspaceRecord = {
      seq: 2,
      slug: 'hash-passwords',
      status: 'blocked',
      objective: OBJECTIVE,
      delta: ['src/hash.ts'],
      verify: 'npm test',
      budget: 4,
      delivered: 'BLOCKED: npm install bcrypt failed: node-gyp rebuild exited 1 (gyp ERR! find Python)',
      utilization: [{ name: 'bcrypt-native-build', type: 'failure', outcome: 'failed' }],
    };
    const attempt2: WorkspaceRecord = {
      ...attempt1,
      attempt: 2,
      status: 'complete',
      delivered: 'Switched to bcryptjs; hashing and compare pass.',
      utilization: [{ name: 'bcrypt-native-build', type: 'failure', outcome: 'helped' }],
    };
    const applied = applyObservation(data, await observe([attempt1, attempt2], { campaign: 'auth' }), { now: NOW });
    expect(applied.failures.map((f) => [f.status, f.name])).toEqual([['merged', 'bcrypt-native-build']]);
    expect(data.failures.map((f) => f.name)).toEqual(['bcrypt-native-build']);
    const entry = data.failures[0]!;
    expect(entry.source).toEqual(['auth/002_hash-passwords']);
    expect([entry.times_helped, entry.times_failed]).toEqual([1, 1]);
    expect(entry.fix).toBe('use bcryptjs (no native build)');
  });

  test('a block unrelated to the entry the builder used is still a failure of its own', async () => {
    const data = emptyMemory();
    data.failures.push(failure('bcrypt-native-build', 'bcrypt native build fails: gyp ERR! node-gyp rebuild'));
    const record: WorkspaceRecord = {
      seq: 3,
      slug: 'sessions',
      status: 'blocked',
      objective: OBJECTIVE,
      delta: ['src/session.ts'],
      verify: 'npm test',
      delivered: 'BLOCKED: redis connection refused on 127.0.0.1:6379 in the session store tests',
      utilization: [{ name: 'bcrypt-native-build', type: 'failure', outcome: 'failed' }],
    };
    const applied = applyObservation(data, await observe([record], { campaign: 'auth' }), { now: NOW });
    expect(applied.failures.map((f) => f.status)).toEqual(['added']);
    expect(data.failures).toHaveLength(2);
  });

  test('eight tasks sharing the campaign objective are eight tasks: no recovery credit for the shared objective, one pattern per stated insight, each its own', async () => {
    const slugs = ['login-route', 'logout-route', 'session-store', 'password-hash', 'jwt-sign', 'jwt-verify', 'rate-limit', 'audit-log'];
    const finished: WorkspaceRecord[] = slugs.map((slug, i) => ({
      seq: i + 2,
      slug,
      status: 'complete',
      objective: OBJECTIVE,
      delta: [`src/${slug}.ts`],
      verify: 'npm test',
      delivered: `${slug.replace('-', ' ')} implemented with tests. ${'Every route and helper it touches is covered by unit and integration tests. '.repeat(3)}\nPattern: ${['validate the body with zod before touching the session', 'clear the cookie and the server-side session together', 'keep sessions in redis with a TTL equal to the cookie max-age', 'hash with bcryptjs at cost 12', 'sign tokens with RS256 keys loaded once at start-up', 'verify tokens with a clock tolerance of 5 seconds', 'rate-limit by IP and by account separately', 'write audit entries after the response is sent'][i]}`,
    }));
    const blockedOne: WorkspaceRecord = { seq: 1, slug: 'db-schema', status: 'blocked', objective: OBJECTIVE, delta: ['db/schema.sql'], verify: 'npm test', delivered: 'BLOCKED: postgres migration fails: relation "users" already exists' };
    const o = await observe([blockedOne, ...finished], { campaign: 'auth' });
    // Today's rule credited every one of them with recovering from db-schema: same (campaign) objective.
    expect(o.patterns.filter((p) => p.solves !== undefined)).toEqual([]);
    const data = emptyMemory();
    const applied = applyObservation(data, o, { now: NOW });
    const learned = applied.patterns.filter((p) => p.status !== 'refused');
    // Each stated a lesson (score 3: insight, substantive delivery, real verify): eight patterns, none merged.
    expect(learned.map((p) => p.status)).toEqual(slugs.map(() => 'added'));
    expect(data.patterns).toHaveLength(learned.length);
    expect(new Set(data.patterns.map((p) => p.insight)).size).toBe(data.patterns.length);
    // Each trigger says which task it came from.
    for (const p of data.patterns) expect(p.trigger).not.toBe(OBJECTIVE);
    expect(data.patterns.find((p) => p.insight.includes('bcryptjs'))?.trigger).toMatch(/password hash/);
  });

  test('the same lesson learned twice (same task, same insight) still merges', async () => {
    const record: WorkspaceRecord = { seq: 4, slug: 'jwt-verify', status: 'complete', objective: 'verify tokens on every request', delta: ['src/jwt.ts'], verify: 'npm test', delivered: `${'Token verification now happens in one middleware for every route. '.repeat(4)}\nPattern: verify tokens with a clock tolerance of 5 seconds` };
    const data = emptyMemory();
    applyObservation(data, await observe([record], { campaign: 'a' }), { now: NOW });
    const again = applyObservation(data, await observe([record], { campaign: 'b' }), { now: NOW });
    expect(again.patterns.map((p) => p.status)).toEqual(['merged']);
    expect(data.patterns).toHaveLength(1);
  });
});
