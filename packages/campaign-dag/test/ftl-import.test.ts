/**
 * Coming from FTL: the files FTL itself wrote (fixtures in test/fixtures/ftl/.ftl, following
 * FORMATS.md) read as they are, and campaign.json / archive/*.json convert into Ratchet's state.
 */
import { cpSync, existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { JsonParseError } from '@ratchet/store';
import { PlanError, addTasks, completeCampaign, convertFtlCampaign, createCampaign, importFtlCampaign, listFtlArchive, readArchive, readCampaign, readCampaignWorkspaces, readWorkspace, type CampaignOptions } from '../src/index.js';
import { tempDir } from './support/children.js';

const FTL = new URL('./fixtures/ftl/.ftl/', import.meta.url).pathname;
const opts: CampaignOptions = { clock: () => new Date('2030-01-01T00:00:00.000Z') };

function project(): string {
  const dir = tempDir('ftl-import-');
  cpSync(FTL, join(dir, '.ftl'), { recursive: true });
  return dir;
}

describe('FTL workspace XML as FTL writes it', () => {
  test('id="001-spec-auth" (a hyphen) gives seq and slug', async () => {
    const ws = await readWorkspace(join(FTL, 'workspace/001_spec-auth_complete.xml'));
    expect([ws.id, ws.seq, ws.slug, ws.status]).toEqual(['001-spec-auth', 1, 'spec-auth', 'complete']);
    expect(ws.priorKnowledge.failures[0]).toMatchObject({ name: 'import-cycle', trigger: 'Circular import between models and routes', cost: 500 });
  });

  test('<parent>001_spec-auth_complete</parent> without a seq attribute is lineage to task 1', async () => {
    const ws = await readWorkspace(join(FTL, 'workspace/002_build-login_blocked.xml'));
    expect(ws.lineage).toEqual([{ seq: 1, workspace: '001_spec-auth_complete', priorDelivery: '' }]);
    expect(ws.blockedReason).toBe('Budget exhausted before code_context partial read finished');
  });

  test('a <parent> with neither a seq nor a workspace stem is refused with its line', async () => {
    const dir = tempDir();
    const path = join(dir, '003_x_active.xml');
    writeFileSync(path, '<workspace id="003-x" status="active">\n  <lineage>\n    <parent>the spec</parent>\n  </lineage>\n</workspace>\n');
    await expect(readWorkspace(path)).rejects.toThrow(/<parent> needs a seq attribute or a workspace stem/);
  });

  test('the workspace listing reports unreadable files with their place and kind (not an empty list)', async () => {
    const dir = tempDir();
    const wsDir = join(dir, 'ws');
    cpSync(join(FTL, 'workspace'), wsDir, { recursive: true });
    writeFileSync(join(wsDir, '003_broken_active.xml'), '<workspace id="003-broken" status="active">\n  <objective>x</objective>\n  <delivered>\n</workspace>\n');
    const { workspaces, skipped } = await readCampaignWorkspaces(dir, { ...opts, workspaceDir: 'ws' });
    expect(workspaces.map((w) => w.id)).toEqual(['001-spec-auth', '002-build-login']);
    expect(skipped).toHaveLength(1);
    expect(skipped[0]).toMatchObject({ kind: 'unreadable', line: 4 });
    expect(skipped[0]!.path).toMatch(/003_broken_active\.xml$/);
  });
});

describe('FTL campaign.json and archive', () => {
  test('converts seqs, "none"/"001"/[...] depends, statuses and blocked_by', () => {
    const text = readFileSync(join(FTL, 'campaign.json'), 'utf8');
    const { campaign, problems } = convertFtlCampaign(JSON.parse(text), text);
    expect(problems).toEqual([]);
    expect(campaign).toMatchObject({ objective: 'Add user authentication', framework: 'fastapi', status: 'active' });
    expect(campaign!.tasks.map((t) => [t.seq, t.slug, t.type, t.depends, t.status, t.blockedBy ?? null])).toEqual([
      [1, 'spec-auth', 'SPEC', [], 'complete', null],
      [2, 'build-login', 'BUILD', [1], 'blocked', null],
      [3, 'build-logout', 'BUILD', [1], 'pending', null],
      [4, 'verify-auth', 'VERIFY', [2, 3], 'blocked', [2]],
    ]);
  });

  test('every problem of a broken campaign.json, each with its line; a cycle is refused', () => {
    const text = '{\n  "objective": "x",\n  "tasks": [\n    {"seq": "00a", "slug": "a", "depends": "none", "status": "pending"},\n    {"seq": "002", "slug": "../b", "depends": "none", "status": "done"}\n  ]\n}\n';
    const { campaign, problems } = convertFtlCampaign(JSON.parse(text), text);
    expect(campaign).toBeUndefined();
    expect(problems.map((p) => [p.pointer, p.line])).toEqual([
      ['/tasks/0/seq', 4],
      ['/tasks/1/slug', 5],
      ['/tasks/1/status', 5],
    ]);
    const cycle = { tasks: [{ seq: '001', slug: 'a', depends: '002', status: 'pending' }, { seq: '002', slug: 'b', depends: ['001'], status: 'pending' }] };
    expect(convertFtlCampaign(cycle).problems.map((p) => p.message).join('\n')).toMatch(/cycle/);
  });

  test('an active FTL campaign becomes the active Ratchet campaign; a second import is refused, nothing overwritten', async () => {
    const dir = project();
    const { written } = await importFtlCampaign(dir, join(dir, '.ftl/campaign.json'), opts);
    expect(written).toBe(join(dir, '.ratchet/campaign.json'));
    const c = await readCampaign(dir, opts);
    expect(c.tasks.map((t) => t.status)).toEqual(['complete', 'blocked', 'pending', 'blocked']);
    // FTL records no phase: a campaign with tasks under way is in BUILD (so complete waits for the observer).
    expect(c.phase).toBe('BUILD');
    expect(c.phaseLog).toEqual([expect.objectContaining({ event: 'inferred', from: null, to: 'BUILD', reason: expect.stringContaining('imported from FTL') as string })]);
    // The shortcut: completing the imported campaign at once, before the observer ran, is refused.
    await expect(completeCampaign(dir, { ...opts, force: true })).rejects.toThrow(/observ/);
    const before = readFileSync(written, 'utf8');
    await expect(importFtlCampaign(dir, join(dir, '.ftl/campaign.json'), opts)).rejects.toThrow(/still active/);
    expect(readFileSync(written, 'utf8')).toBe(before);
  });

  test('archived FTL campaigns become archive entries that find-similar reads; an existing entry is not overwritten', async () => {
    const dir = project();
    const [file] = await listFtlArchive(join(dir, '.ftl'));
    const { written, campaign } = await importFtlCampaign(dir, file!, opts);
    expect(campaign.status).toBe('complete');
    expect((await readArchive(dir, opts)).entries.map((e) => e.campaign.objective)).toEqual(['Set up the project skeleton']);
    const before = readFileSync(written, 'utf8');
    await expect(importFtlCampaign(dir, file!, opts)).rejects.toThrow(/already exists; it is not overwritten/);
    expect(readFileSync(written, 'utf8')).toBe(before);
    expect(await listFtlArchive(join(dir, 'nope'))).toEqual([]);
  });

  test('a campaign.json that is not JSON is refused with its line, nothing written', async () => {
    const dir = project();
    writeFileSync(join(dir, '.ftl/campaign.json'), '{\n  "objective": "x",\n  "tasks": [\n');
    await expect(importFtlCampaign(dir, join(dir, '.ftl/campaign.json'), opts)).rejects.toSatisfy((e: unknown) => e instanceof JsonParseError && e.line === 4);
    expect(existsSync(join(dir, '.ratchet/campaign.json'))).toBe(false);
    writeFileSync(join(dir, '.ftl/campaign.json'), '{"tasks": [{"seq": 1, "slug": "a", "status": "weird"}]}');
    await expect(importFtlCampaign(dir, join(dir, '.ftl/campaign.json'), opts)).rejects.toBeInstanceOf(PlanError);
  });
});

describe('plan.json without "objective" (FTL add_tasks accepts it)', () => {
  test('add-tasks takes the tasks; the campaign keeps its objective', async () => {
    const dir = tempDir();
    await createCampaign(dir, 'Add user auth', opts);
    const { campaign, added } = await addTasks(dir, { tasks: [{ seq: '001', slug: 'a', delta: ['a.py'], verify: 'true' }] }, opts);
    expect(added.map((t) => t.seq)).toEqual([1]);
    expect(campaign.objective).toBe('Add user auth');
    await expect(addTasks(dir, { objective: '  ', tasks: [] }, opts)).rejects.toThrow(/"objective" must be a non-empty string when given/);
  });
});
