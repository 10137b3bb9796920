import { existsSync, readFileSync, readdirSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import {
  MAX_WORKSPACE_BYTES,
  addTasks,
  blockWorkspace,
  claimTask,
  completeCampaign,
  completeWorkspace,
  createCampaign,
  createWorkspace,
  parseWorkspace,
  readCampaignWorkspaces,
  serializeWorkspace,
  showWorkspace,
  updateCampaign,
  updateTask,
  type CampaignOptions,
  type WorkspaceRecord,
} from '../src/index.js';
import { tempDir } from './support/children.js';

const opts: CampaignOptions = { clock: () => new Date('2030-01-01T00:00:00.000Z') };
const plan = {
  objective: 'Add user auth',
  framework: 'fastapi',
  idioms: { required: ['Depends()'], forbidden: ['global state'] },
  tasks: [
    { seq: '001', slug: 'spec', type: 'SPEC', delta: ['tests/test_auth.py'], verify: 'pytest --collect-only', budget: 3 },
    { seq: '002', slug: 'impl', delta: ['app/auth.py'], verify: 'pytest', depends: '001', description: 'Implement login' },
    { seq: '003', slug: 'docs', delta: ['docs/auth.md'], verify: 'test -f docs/auth.md', depends: '001' },
    { seq: '004', slug: 'verify', type: 'VERIFY', delta: ['app/auth.py'], verify: 'pytest', depends: ['002', '003'] },
  ],
};

async function started(): Promise<string> {
  const root = tempDir();
  await createCampaign(root, 'Add user auth', opts);
  await addTasks(root, plan, opts);
  return root;
}

const wsDir = (root: string): string => join(root, '.ratchet', 'workspace');
/** Task `seq` done end to end: its workspace created and completed, the task complete. */
async function deliver(root: string, seq: number, delivered: string): Promise<void> {
  await createWorkspace(root, seq, opts);
  await completeWorkspace(root, seq, delivered, opts);
  await updateTask(root, seq, 'in_progress', opts);
  await updateTask(root, seq, 'complete', opts);
}

const hostile = 'if (a < b && c > d) { x = "]]>" } & done <![CDATA[ ]]> \r\n\ttabbed &amp; literal &#13;';

describe('workspaces', () => {
  test('created on demand once parents are complete, with lineage, memory and sibling failures', async () => {
    const root = await started();
    const memory = { failures: [{ name: 'import-cycle', trigger: 'ImportError: cannot import name', fix: 'move the import into the function', cost: 500, match: 'cannot import name \\w+' }], patterns: [{ name: 'fixture-first', insight: 'write the fixture before the test', saved: 800 }] };
    await expect(createWorkspace(root, 2, opts)).rejects.toMatchObject({ code: 'not-ready' });
    const first = await createWorkspace(root, 1, { ...opts, priorKnowledge: memory });
    expect(first.path).toBe(join(wsDir(root), '001_spec_active.xml'));
    expect(first.record.priorKnowledge.failures).toMatchObject([{ name: 'import-cycle', injected: true }]);
    await expect(createWorkspace(root, 1, opts)).rejects.toMatchObject({ code: 'workspace-exists' });
    await claimTask(root, 'r1', opts);
    await completeWorkspace(root, 1, hostile, { ...opts, utilized: [{ name: 'import-cycle', type: 'failure' }] });
    await updateTask(root, 1, 'complete', { ...opts, runner: 'r1' });

    // 003 blocks first; 002's workspace then carries that sibling failure and 001's delivery.
    await createWorkspace(root, 3, opts);
    await blockWorkspace(root, 3, 'docs build needs sphinx\nsecond line', opts);
    const second = await createWorkspace(root, 2, { ...opts, priorKnowledge: memory });
    expect(second.record.objective).toBe('Implement login');
    expect(second.record.lineage).toEqual([{ seq: 1, workspace: '001_spec_complete', priorDelivery: hostile }]);
    expect(second.record.priorKnowledge.failures).toEqual([
      { ...memory.failures[0], injected: true },
      { name: 'sibling-003_docs_blocked', trigger: 'docs build needs sphinx', fix: 'See blocked workspace', cost: 1000, source: ['003_docs_blocked'], injected: false },
    ]);
    const onDisk = await showWorkspace(root, 2);
    expect(onDisk.record).toEqual(second.record);
    expect(readFileSync(onDisk.path, 'utf8')).toContain('<failure name="sibling-003_docs_blocked" cost="1000" injected="false">');
    expect(readdirSync(wsDir(root)).sort()).toEqual(['001_spec_complete.xml', '002_impl_active.xml', '003_docs_blocked.xml']);
  });

  test('code context: given at creation (paths inside the project only), kept through completion', async () => {
    const root = await started();
    await expect(createWorkspace(root, 1, { ...opts, codeContext: [{ path: '../secrets.env', content: 'x' }] })).rejects.toMatchObject({ code: 'outside-root' });
    const code = 'def login(user):\n    return user.token  # <fixme> & "later"';
    await createWorkspace(root, 1, { ...opts, codeContext: [{ path: 'app/auth.py', lines: '10-11', content: code }] });
    expect(readFileSync(join(wsDir(root), '001_spec_active.xml'), 'utf8')).toContain('<code_context path="app/auth.py" lines="10-11">def login(user):\n    return user.token  # &lt;fixme&gt; &amp; "later"</code_context>');
    const done = await completeWorkspace(root, 1, 'shipped', opts);
    expect(done.record.codeContext).toEqual([{ path: 'app/auth.py', lines: '10-11', content: code }]);
    expect((await showWorkspace(root, 1)).record.codeContext).toEqual([{ path: 'app/auth.py', lines: '10-11', content: code }]);
  });

  test('status changes rename atomically; a second finish is refused', async () => {
    const root = await started();
    await createWorkspace(root, 1, opts);
    const done = await completeWorkspace(root, 1, 'shipped', opts);
    expect(done.record).toMatchObject({ status: 'complete', delivered: 'shipped', updatedAt: '2030-01-01T00:00:00.000Z' });
    expect(readdirSync(wsDir(root))).toEqual(['001_spec_complete.xml']);
    await expect(blockWorkspace(root, 1, 'late', opts)).rejects.toMatchObject({ code: 'illegal-transition' });
    await expect(completeWorkspace(root, 2, 'x', opts)).rejects.toMatchObject({ code: 'no-workspace' });
    await expect(blockWorkspace(root, 1, '   ', opts)).rejects.toMatchObject({ code: 'invalid-argument' });
  });

  test('a delivery too large to read back is refused before anything is written', async () => {
    const root = await started();
    const { path } = await createWorkspace(root, 1, opts);
    const before = readFileSync(path, 'utf8');
    const huge = 'x'.repeat(MAX_WORKSPACE_BYTES);
    await expect(completeWorkspace(root, 1, huge, opts)).rejects.toMatchObject({ code: 'invalid-argument', reason: expect.stringContaining('over the 4 MiB a workspace may hold; nothing was written') as unknown });
    await expect(blockWorkspace(root, 1, huge, opts)).rejects.toMatchObject({ code: 'invalid-argument' });
    expect(readdirSync(wsDir(root))).toEqual(['001_spec_active.xml']);
    expect(readFileSync(path, 'utf8')).toBe(before);
    const other = await started();
    await expect(createWorkspace(other, 1, { ...opts, codeContext: [{ path: 'a.ts', content: huge }] })).rejects.toMatchObject({ code: 'invalid-argument' });
    expect(existsSync(wsDir(other)) ? readdirSync(wsDir(other)).filter((n) => n.endsWith('.xml')) : []).toEqual([]);
    // Just under the limit is written and reads back.
    const fits = 'y'.repeat(MAX_WORKSPACE_BYTES - before.length - 1000);
    await completeWorkspace(root, 1, fits, opts);
    expect((await showWorkspace(root, 1)).record.delivered).toBe(fits);
  });

  test('a crash between the rewrite and the rename is finished by the next call', async () => {
    const root = await started();
    const { path, record } = await createWorkspace(root, 1, opts);
    writeFileSync(path, serializeWorkspace({ ...record, status: 'complete', delivered: 'half' }));
    await completeWorkspace(root, 1, 'whole', opts);
    expect(readdirSync(wsDir(root))).toEqual(['001_spec_complete.xml']);
    await expect(blockWorkspace(root, 1, 'x', opts)).rejects.toMatchObject({ code: 'illegal-transition' });
  });

  test('a retried task gets a fresh workspace: the failed attempt is kept as history and its failure is injected, each failure seen once', async () => {
    const root = await started();
    await deliver(root, 1, 'spec written');
    await updateTask(root, 3, 'in_progress', opts);
    await createWorkspace(root, 3, opts);
    const firstBlock = await blockWorkspace(root, 3, 'sphinx-build: command not found\npip install sphinx in the docs venv', opts);
    const firstXml = readFileSync(firstBlock.path, 'utf8');
    await updateTask(root, 3, 'blocked', { ...opts, reason: 'sphinx' });
    // Still blocked in the campaign: no new attempt.
    await expect(createWorkspace(root, 3, opts)).rejects.toMatchObject({ code: 'illegal-transition' });
    await updateTask(root, 3, 'pending', opts); // retry

    const second = await createWorkspace(root, 3, opts);
    expect(second.path).toBe(join(wsDir(root), '003_docs_active.xml'));
    expect(second.record.attempt).toBe(2);
    expect(readFileSync(second.path, 'utf8')).toContain(' attempt="2" round="1">');
    // The failed attempt is kept byte for byte under its attempt name; exactly one live file for 003.
    expect(readdirSync(wsDir(root)).sort()).toEqual(['001_spec_complete.xml', '003_docs_active.xml', '003_docs_blocked.1.xml']);
    expect(readFileSync(join(wsDir(root), '003_docs_blocked.1.xml'), 'utf8')).toBe(firstXml);
    expect(second.record.priorKnowledge.failures).toEqual([
      { name: 'attempt-003_docs_blocked.1', trigger: 'sphinx-build: command not found', fix: 'pip install sphinx in the docs venv', cost: 1000, source: ['003_docs_blocked.1'], injected: false },
    ]);
    expect((await showWorkspace(root, 3)).record).toEqual(second.record);

    // The second attempt fails too; the third sees both, oldest first, and a sibling sees each once.
    await blockWorkspace(root, 3, 'sphinx theme missing', opts);
    await updateTask(root, 3, 'blocked', { ...opts, reason: 'theme' });
    await updateTask(root, 3, 'pending', opts);
    const third = await createWorkspace(root, 3, opts);
    expect(third.record.attempt).toBe(3);
    expect(third.record.priorKnowledge.failures.map((f) => [f.name, f.trigger])).toEqual([
      ['attempt-003_docs_blocked.1', 'sphinx-build: command not found'],
      ['attempt-003_docs_blocked.2', 'sphinx theme missing'],
    ]);
    const sibling = await createWorkspace(root, 2, opts);
    expect(sibling.record.priorKnowledge.failures.map((f) => [f.name, f.trigger, f.injected])).toEqual([
      ['sibling-003_docs_blocked.1', 'sphinx-build: command not found', false],
      ['sibling-003_docs_blocked.2', 'sphinx theme missing', false],
    ]);

    // Every attempt is listed once for memory observe, oldest first, the live one last.
    const all = await readCampaignWorkspaces(root);
    expect(all.workspaces.filter((w) => w.seq === 3).map((w) => [w.status, w.attempt, w.live, w.blockedReason])).toEqual([
      ['blocked', undefined, false, 'sphinx-build: command not found\npip install sphinx in the docs venv'],
      ['blocked', 2, false, 'sphinx theme missing'],
      ['active', 3, true, undefined],
    ]);
    // complete/block act on the live workspace only; the history moves with the campaign's archive.
    await completeWorkspace(root, 3, 'docs built', opts);
    await updateTask(root, 3, 'in_progress', opts);
    await updateTask(root, 3, 'complete', opts);
    // 003 got past its failures on the third attempt: a task created now is not warned about them.
    await completeWorkspace(root, 2, 'login implemented', opts);
    await updateTask(root, 2, 'in_progress', opts);
    await updateTask(root, 2, 'complete', opts);
    const later = await createWorkspace(root, 4, opts);
    expect(later.record.priorKnowledge.failures.filter((f) => f.name.startsWith('sibling-'))).toEqual([]);
    const { campaign } = await completeCampaign(root, { ...opts, force: true, skipObserve: 'fixture: nothing to learn' });
    expect(readdirSync(join(root, '.ratchet', 'archive', campaign.id, 'workspace')).sort()).toEqual(['001_spec_complete.xml', '002_impl_complete.xml', '003_docs_blocked.1.xml', '003_docs_blocked.2.xml', '003_docs_complete.xml', '004_verify_active.xml']);
    expect((await readCampaignWorkspaces(root, { campaign: campaign.id })).workspaces.filter((w) => w.seq === 3)).toHaveLength(3);
  });

  test('a retry is crash-safe and never overwrites history', async () => {
    const root = await started();
    await createWorkspace(root, 1, opts);
    await blockWorkspace(root, 1, 'first failure', opts);
    // A crash after the rename, before the new workspace was written: the next create finishes the job.
    renameSync(join(wsDir(root), '001_spec_blocked.xml'), join(wsDir(root), '001_spec_blocked.1.xml'));
    const again = await createWorkspace(root, 1, opts);
    expect(again.record).toMatchObject({ attempt: 2, priorKnowledge: { failures: [{ name: 'attempt-001_spec_blocked.1', trigger: 'first failure' }] } });
    await blockWorkspace(root, 1, 'second failure', opts);
    // An attempt file already holding the number the live one claims (a hand copy): the next free number is used.
    const hand = readFileSync(join(wsDir(root), '001_spec_blocked.1.xml'), 'utf8');
    writeFileSync(join(wsDir(root), '001_spec_blocked.2.xml'), hand.replace('first failure', 'copied by hand'));
    const third = await createWorkspace(root, 1, opts);
    expect(readdirSync(wsDir(root)).sort()).toEqual(['001_spec_active.xml', '001_spec_blocked.1.xml', '001_spec_blocked.2.xml', '001_spec_blocked.3.xml']);
    expect(readFileSync(join(wsDir(root), '001_spec_blocked.2.xml'), 'utf8')).toContain('copied by hand');
    expect(readFileSync(join(wsDir(root), '001_spec_blocked.3.xml'), 'utf8')).toContain('second failure');
    expect(third.record.attempt).toBe(4);
    // Active and complete workspaces are still never replaced.
    await expect(createWorkspace(root, 1, opts)).rejects.toMatchObject({ code: 'workspace-exists' });
    // A history file that is not a workspace is reported with its place, not silently dropped.
    await blockWorkspace(root, 1, 'fourth', opts);
    writeFileSync(join(wsDir(root), '001_spec_blocked.3.xml'), '<workspace>\n  <broken>\n</workspace>\n');
    await expect(createWorkspace(root, 1, opts)).rejects.toMatchObject({ code: 'invalid-workspace', path: join(wsDir(root), '001_spec_blocked.3.xml') });
  });

  test("workspaces another campaign left in the directory are not this campaign's siblings, lineage, attempts or observations", async () => {
    const root = await started();
    await deliver(root, 1, 'old spec');
    await createWorkspace(root, 3, opts);
    await blockWorkspace(root, 3, 'old failure of another campaign', opts);
    // Archived elsewhere (as if `complete` had been given another workspace directory): the files stay.
    await completeCampaign(root, { ...opts, workspaceDir: 'elsewhere', force: true, skipObserve: 'fixture: nothing to learn' });
    expect(readdirSync(wsDir(root)).sort()).toEqual(['001_spec_complete.xml', '003_docs_blocked.xml']);
    await createCampaign(root, 'Add user auth again', opts);
    await addTasks(root, plan, opts);
    const err = (await createWorkspace(root, 1, opts).catch((e: unknown) => e)) as { code: string; reason: string };
    expect(err.code).toBe('workspace-exists');
    expect(err.reason).toMatch(/^001_spec_complete\.xml belongs to campaign \S+-add-user-auth, not the active \S+-add-user-auth-again: it was left behind/);
    const listed = await readCampaignWorkspaces(root);
    expect(listed.workspaces).toEqual([]);
    expect(listed.skipped.map((x) => x.reason)).toEqual([expect.stringMatching(/^belongs to campaign /), expect.stringMatching(/^belongs to campaign /)]);
    // A task whose seq the old files do not use: no old sibling failure, no old lineage.
    renameSync(join(wsDir(root), '001_spec_complete.xml'), join(root, 'old-001.xml'));
    await deliver(root, 1, 'new spec');
    const second = await createWorkspace(root, 2, opts);
    expect(second.record.priorKnowledge.failures).toEqual([]);
    expect(second.record.lineage).toEqual([{ seq: 1, workspace: '001_spec_complete', priorDelivery: 'new spec' }]);
  });

  test('delta paths outside the project are refused at creation even if campaign.json was edited by hand', async () => {
    const root = await started();
    await updateCampaign(root, opts, (c) => {
      c.tasks[0]!.delta = ['../../etc/passwd'];
    });
    await expect(createWorkspace(root, 1, opts)).rejects.toMatchObject({ code: 'outside-root' });
  });

  test('a hand-edited slug that would leave the workspace directory is refused when campaign.json is read', async () => {
    const root = await started();
    const file = join(root, '.ratchet', 'campaign.json');
    const doc = JSON.parse(readFileSync(file, 'utf8')) as { tasks: { slug: string }[] };
    doc.tasks[0]!.slug = '../../../evil';
    writeFileSync(file, JSON.stringify(doc));
    await expect(createWorkspace(root, 1, opts)).rejects.toMatchObject({ code: 'validation-error', path: file });
    expect(readdirSync(join(root, '.ratchet'))).not.toContain('evil_active.xml');
    expect(readdirSync(root).filter((n) => n.includes('evil'))).toEqual([]);
  });

  test('a hand-edited workspace slug (a path, a separator, 10,000 characters) is refused when read, and complete/block never move the file', async () => {
    // Found by the CLI fuzz test: finishing renamed the file by the slug its XML said, after rewriting
    // it in place: `../../../x` moved it out of the workspace directory, `a/b` or a long slug failed
    // the rename and left an active-named file saying complete.
    const root = await started();
    await createWorkspace(root, 1, opts);
    const path = join(wsDir(root), '001_spec_active.xml');
    const xml = readFileSync(path, 'utf8');
    for (const slug of ['../../../evil', 'a/b', 'x'.repeat(10_000), '..']) {
      const edited = xml.replace('slug="spec"', `slug="${slug}"`);
      writeFileSync(path, edited);
      await expect(showWorkspace(root, 1)).rejects.toMatchObject({ code: 'invalid-workspace', path, reason: expect.stringContaining('<workspace slug>') as unknown });
      await expect(completeWorkspace(root, 1, 'done', opts)).rejects.toMatchObject({ code: 'invalid-workspace' });
      await expect(blockWorkspace(root, 1, 'stuck', opts)).rejects.toMatchObject({ code: 'invalid-workspace' });
      expect(readFileSync(path, 'utf8')).toBe(edited);
      expect(readdirSync(wsDir(root))).toEqual(['001_spec_active.xml']);
    }
    // The same through FTL's id (no slug attribute): the slug is the id's tail.
    writeFileSync(path, xml.replace(' slug="spec"', '').replace('id="001_spec"', 'id="001_a/b"'));
    await expect(showWorkspace(root, 1)).rejects.toMatchObject({ code: 'invalid-workspace' });
    // A valid slug that differs from the file name's: the file is renamed by its own name.
    writeFileSync(path, xml.replace('slug="spec"', 'slug="other"'));
    const done = await completeWorkspace(root, 1, 'done', opts);
    expect(done.path).toBe(join(wsDir(root), '001_spec_complete.xml'));
    expect(readdirSync(wsDir(root))).toEqual(['001_spec_complete.xml']);
    expect(readdirSync(join(root, '.ratchet')).filter((n) => n.includes('evil'))).toEqual([]);
  });

  test('hostile files: DOCTYPE/ENTITY refused, malformed XML located, binary and control characters refused', async () => {
    await expect(parseWorkspace('<?xml version="1.0"?>\n<!DOCTYPE x [<!ENTITY a "aaaa">]>\n<workspace status="active" id="001_x"/>', 'w.xml')).rejects.toMatchObject({ code: 'invalid-workspace', line: 2, column: 1 });
    await expect(parseWorkspace('<workspace status="active" id="001_x">\n  <delivered>oops</delivred>\n</workspace>', 'w.xml')).rejects.toMatchObject({ code: 'invalid-workspace', line: 2 });
    await expect(parseWorkspace('<other/>', 'w.xml')).rejects.toMatchObject({ reason: expect.stringContaining('<workspace>') as unknown });
    const deep = `<workspace status="active" id="001_x">${'<a>'.repeat(5000)}${'</a>'.repeat(5000)}</workspace>`;
    await expect(parseWorkspace(deep, 'w.xml')).rejects.toMatchObject({ code: 'invalid-workspace', path: 'w.xml', reason: expect.stringContaining('nested') as unknown });
    await expect(parseWorkspace('<workspace status="weird" id="001_x"/>', 'w.xml')).rejects.toMatchObject({ reason: expect.stringContaining('status') as unknown });
    const root = await started();
    await createWorkspace(root, 1, opts);
    await expect(completeWorkspace(root, 1, 'bin\u0000ary', opts)).rejects.toMatchObject({ code: 'invalid-argument' });
    writeFileSync(join(wsDir(root), '001_spec_active.xml'), Buffer.from([0x3c, 0x77, 0x00, 0xff]));
    await expect(showWorkspace(root, 1)).rejects.toMatchObject({ code: 'binary-file' });
    // A workspace that does not parse is never rewritten by complete/block.
    writeFileSync(join(wsDir(root), '001_spec_active.xml'), '<workspace status="active" id="001_spec"><delivered>oops</workspace>');
    await expect(completeWorkspace(root, 1, 'x', opts)).rejects.toMatchObject({ code: 'invalid-workspace' });
    expect(readFileSync(join(wsDir(root), '001_spec_active.xml'), 'utf8')).toBe('<workspace status="active" id="001_spec"><delivered>oops</workspace>');
  });

  test('property: any XML-safe text survives a round trip in every text field', async () => {
    const text = fc.string({ unit: fc.constantFrom('a', '<', '>', '&', ']', '"', "'", '\r', '\n', '\t', ' ', 'é', '😀', ';', '#', 'x', '1') });
    await fc.assert(
      fc.asyncProperty(text, text, text, async (a, b, c) => {
        const record: WorkspaceRecord = {
          id: '007_thing',
          seq: 7,
          slug: 'thing',
          status: 'complete',
          campaign: 'c1',
          schemaVersion: '1.0',
          createdAt: 't',
          objective: a,
          delta: ['a.ts'],
          verify: b,
          preflight: [c],
          codeContext: [{ path: 'src/a.ts', lines: '1-3', content: a }, { path: 'src/b.ts', content: c }],
          framework: a,
          idioms: { required: [b], forbidden: [] },
          priorKnowledge: { failures: [{ name: c, trigger: a, fix: b, cost: 100, injected: true, match: c }], patterns: [{ name: 'p', insight: c, saved: 5, injected: false }] },
          lineage: [{ seq: 1, workspace: 'w', priorDelivery: b }],
          delivered: c,
          utilization: [{ name: a, type: 'pattern' }],
        };
        expect(await parseWorkspace(serializeWorkspace(record), 'x.xml')).toEqual(record);
      }),
      { numRuns: 200 },
    );
  });

  test('readCampaignWorkspaces: parsed records for memory observe, from the active or an archived campaign', async () => {
    const root = await started();
    await createWorkspace(root, 1, opts);
    await completeWorkspace(root, 1, 'done: <ok> & more', { ...opts, utilized: [{ name: 'm1', type: 'failure' }] });
    await updateTask(root, 1, 'in_progress', opts);
    await updateTask(root, 1, 'complete', opts);
    await createWorkspace(root, 3, opts);
    await blockWorkspace(root, 3, 'sphinx missing', opts);
    writeFileSync(join(wsDir(root), '009_junk_active.xml'), 'not xml <');
    const active = await readCampaignWorkspaces(root);
    expect(active.workspaces.map((w) => [w.seq, w.slug, w.status, w.delivered, w.blockedReason])).toEqual([
      [1, 'spec', 'complete', 'done: <ok> & more', undefined],
      [3, 'docs', 'blocked', 'BLOCKED: sphinx missing', 'sphinx missing'],
    ]);
    expect(active.workspaces[0]).toMatchObject({ delta: ['tests/test_auth.py'], verify: 'pytest --collect-only', budget: 3, utilization: [{ name: 'm1', type: 'failure' }], framework: 'fastapi' });
    expect(active.skipped).toHaveLength(1);
    const { campaign } = await completeCampaign(root, { ...opts, skipObserve: 'fixture: nothing to learn' });
    const archived = await readCampaignWorkspaces(root, { campaign: campaign.id });
    expect(archived.workspaces.map((w) => w.seq)).toEqual([1, 3]);
    await expect(readCampaignWorkspaces(root, { campaign: '../../etc' })).rejects.toMatchObject({ code: 'invalid-argument' });
  });
});
