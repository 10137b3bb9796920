/**
 * Issue 16, fuzzing through the CLI: campaign plan JSON (`campaign add-tasks`, from a file and from
 * standard input), the prior knowledge JSON `workspace create --prior-knowledge` injects, and
 * workspace XML (FTL's workspace files, read by every `workspace` command, by a child task's
 * lineage, by `memory observe` and `campaign complete`). No command exits 70; a refused command
 * changes no file under the project (campaign.json, its digest, the workspaces, the memory).
 */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, test } from 'vitest';
import { RUNS, fuzz, hostile, jsonMutations, keep, ok, readOnly, refusalKeepsState, textBombs, xmlBombs } from './fuzz-inputs.js';

const examples = new URL('../../../examples/campaign/', import.meta.url);
/** FTL's plan contract: five tasks over three waves, seqs as strings, every dependency form. */
const PLAN = readFileSync(new URL('plan.json', examples), 'utf8');
const PRIOR_KNOWLEDGE = readFileSync(new URL('prior-knowledge.json', examples), 'utf8');

describe('fuzzing campaign inputs through the CLI (in process)', { timeout: 600_000 }, () => {
  test('plan JSON and prior knowledge JSON: add-tasks, what reads the accepted tasks, workspace create never exit 70; a refusal adds nothing', async () => {
    // Plans go to an empty campaign; prior knowledge to a campaign whose first task is ready.
    const plans = mkdtempSync(join(tmpdir(), 'fuzz-campaign-'));
    await ok(plans, ['campaign', 'create', 'Add user authentication']);
    const restorePlans = keep(plans);
    const ready = mkdtempSync(join(tmpdir(), 'fuzz-campaign-ready-'));
    await ok(ready, ['campaign', 'create', 'Add user authentication']);
    await ok(ready, ['campaign', 'add-tasks', '-'], PLAN);
    const restoreReady = keep(ready);
    const inputs = fc.tuple(hostile(PLAN, jsonMutations(PLAN)), fc.boolean(), hostile(PRIOR_KNOWLEDGE, jsonMutations(PRIOR_KNOWLEDGE)));
    await fuzz('campaign plan JSON through add-tasks, prior knowledge JSON through workspace create (each)', inputs, RUNS, async ([plan, piped, prior]) => {
      restorePlans();
      restoreReady();
      writeFileSync(join(plans, 'plan.json'), plan);
      // The same parser reads a file and standard input; half the plans come each way.
      const added = await refusalKeepsState(plans, ['campaign', 'add-tasks', piped ? '-' : 'plan.json'], (code) => code !== 0, plan);
      const codes = [added];
      if (added === 0) {
        // Accepted tasks (slugs, deltas, seqs) reach the graph, the claim and a workspace file name.
        for (const args of [['campaign', 'status'], ['campaign', 'waves'], ['campaign', 'graph', '--format', 'dot'], ['campaign', 'cascade-status']]) codes.push(await readOnly(plans, args));
        codes.push(await refusalKeepsState(plans, ['campaign', 'ready', '--claim', 'builder-1']));
        const first = /"seq":\s*"?(\d+)/.exec(plan)?.[1] ?? '1';
        codes.push(await refusalKeepsState(plans, ['workspace', 'create', first]));
      }
      writeFileSync(join(ready, 'pk.json'), prior);
      codes.push(await refusalKeepsState(ready, ['workspace', 'create', '1', '--prior-knowledge', 'pk.json']));
      return codes;
    });
  });

  test('workspace XML: show, list, complete, block, a child\'s lineage, memory observe, campaign complete never exit 70; a refusal leaves every workspace byte-identical', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'fuzz-workspace-'));
    await ok(dir, ['campaign', 'create', 'x']);
    const tasks = [
      { seq: 1, slug: 'a', delta: ['a.ts'], verify: 'v' },
      { seq: 2, slug: 'b', delta: ['b.ts'], verify: 'v', depends: '001' },
      { seq: 3, slug: 'c', delta: ['c.ts'], verify: 'v' },
    ];
    await ok(dir, ['campaign', 'add-tasks', '-'], JSON.stringify({ objective: 'x', tasks }));
    writeFileSync(join(dir, 'pk.json'), PRIOR_KNOWLEDGE);
    // Task 1 complete with its workspace (task 2's parent), task 3 with an active workspace.
    for (const args of [['workspace', 'create', '1'], ['workspace', 'complete', '1', '--delivered', 'the store, with <tests> & "docs"'], ['campaign', 'update-task', '1', 'in_progress'], ['campaign', 'update-task', '1', 'complete'], ['workspace', 'create', '3', '--prior-knowledge', 'pk.json']]) await ok(dir, args);
    const workspaces = join(dir, '.ratchet', 'workspace');
    const active = readFileSync(join(workspaces, '003_c_active.xml'), 'utf8');
    const restore = keep(dir);
    const xml = hostile(active, [...xmlBombs(active), ...textBombs(active)]);
    await fuzz('workspace XML through 9 workspace/campaign/memory commands', xml, RUNS, async (text) => {
      restore();
      writeFileSync(join(workspaces, '003_c_active.xml'), text);
      // The same text as task 1's finished workspace, as far as it still says so.
      writeFileSync(join(workspaces, '001_a_complete.xml'), text.replace('status="active"', 'status="complete"').replace('id="003_c"', 'id="001_a"').replace('seq="003"', 'seq="001"').replace('slug="c"', 'slug="a"'));
      const codes = [await readOnly(dir, ['workspace', 'show', '3']), await readOnly(dir, ['workspace', 'show', '3', '--xml']), await readOnly(dir, ['workspace', 'list'])];
      for (const args of [
        ['workspace', 'create', '2'],
        ['memory', 'observe'],
        ['workspace', 'complete', '3', '--delivered', 'done', '--utilized', 'bcrypt-native-build:failure'],
        ['workspace', 'block', '3', '--reason', 'the fixture server never starts'],
        ['campaign', 'complete'],
      ]) {
        codes.push(await refusalKeepsState(dir, args));
      }
      return codes;
    });
  });
});
