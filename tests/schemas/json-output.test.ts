/**
 * The `--json` outputs harnesses parse, as the built binary prints them, against their published,
 * versioned schemas (apps/cli/schemas/output/). Each command runs in the states a harness meets:
 * before a task, during one, with findings and without, claimed and nothing to claim, failure.
 */
import { cpSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, test } from 'vitest';
import { outputSchemaUrl, type OutputName } from '../../apps/cli/src/output/json-output.js';
import { examples, protocols, ratchet, selfCorrect, tempDir } from '../helpers.js';
import { SchemaRegistry } from './registry.js';

const registry = new SchemaRegistry();

/** Run `ratchet --json ...` in `cwd` and check the document against the schema it names, which must be `name`'s. */
function expectOutput(name: OutputName, cwd: string, args: string[], exit = 0): Record<string, unknown> {
  const r = ratchet(['--json', ...args, '--cwd', cwd]);
  expect(r.status, `ratchet ${args.join(' ')}: ${r.stderr}${r.stdout}`).toBe(exit);
  const doc = JSON.parse(r.stdout) as Record<string, unknown>;
  expect(doc.$schema).toBe(outputSchemaUrl(name));
  expect(registry.check(outputSchemaUrl(name), doc), `ratchet ${args.join(' ')}`).toEqual([]);
  return doc;
}

describe('versioned --json output', () => {
  let fresh: string;
  let tour: string;
  let camp: string;
  beforeAll(() => {
    fresh = tempDir('ratchet-json-fresh-');
    expect(ratchet(['init', '--cwd', fresh]).status).toBe(0);
    tour = join(tempDir('ratchet-json-tour-'), 'tour');
    const q = ratchet(['quickstart', '--dir', tour]);
    if (q.status !== 0) throw new Error(`quickstart failed: ${q.stderr}`);
    camp = tempDir('ratchet-json-campaign-');
    expect(ratchet(['init', '--cwd', camp]).status).toBe(0);
    cpSync(join(examples, 'campaign'), join(camp, 'examples/campaign'), { recursive: true });
    expect(ratchet(['campaign', 'create', 'Add user authentication', '--cwd', camp]).status).toBe(0);
    expect(ratchet(['campaign', 'add-tasks', 'examples/campaign/plan.json', '--cwd', camp]).status).toBe(0);
  }, 300_000);

  test('plan lint: a clean plan (exit 0) and one with errors (exit 1)', () => {
    writeFileSync(join(fresh, 'clean.plan'), 'set_plan read the protocol\nread_file protocols/fdc.fsm.json\nplan_step_complete\nrun_in_bash_session close\n');
    const clean = expectOutput('plan-lint', fresh, ['plan', 'lint', 'clean.plan']);
    expect(clean).toMatchObject({ ok: true, findings: [], errorCount: 0, warningCount: 0 });
    const broken = expectOutput('plan-lint', tour, ['plan', 'lint', 'examples/plans/broken.txt'], 1);
    expect(broken.ok).toBe(false);
    expect((broken.findings as unknown[]).length).toBeGreaterThan(0);
    expect(broken.errorCount).toBeGreaterThan(0);
  });

  test('run next and run status: before any task, and during one', () => {
    // No step to execute before a task (nor after the tour, which ends with the task closed): ok false, exit 1, the directive all the same.
    expect(expectOutput('run-next', fresh, ['run', 'next'], 1)).toMatchObject({ ok: false, state: 'START' });
    expect(expectOutput('run-status', fresh, ['run', 'status']).session).toBeNull();
    const next = expectOutput('run-next', tour, ['run', 'next'], 1);
    expect(next.ok).toBe(false);
    expect((next.next as { commands: string[] }).commands.length).toBeGreaterThan(0);
    // A step pending: ok true, exit 0, the step in next.
    const busy = tempDir('ratchet-json-step-');
    expect(ratchet(['init', '--cwd', busy]).status).toBe(0);
    writeFileSync(join(busy, 'p.plan'), 'set_plan x\nplan_step_complete go\nrun_in_bash_session close\n');
    expect(ratchet(['task', 'start', '--task-id', 'T', '--no-network', '--cwd', busy]).status).toBe(0);
    expect(ratchet(['run', 'plan', 'p.plan', '--cwd', busy]).status).toBe(0);
    expect(expectOutput('run-next', busy, ['run', 'next'])).toMatchObject({ ok: true, next: { step: { line: 'set_plan x' } } });
    expect((expectOutput('run-status', tour, ['run', 'status']).session as { taskId: string }).taskId).toBe('add-greeting');
  });

  test('task transitions: start, plan, done (and failed), close, submit, research done', () => {
    const dir = tempDir('ratchet-json-lifecycle-');
    expect(ratchet(['init', '--cwd', dir]).status).toBe(0);
    writeFileSync(join(dir, 'p.plan'), 'set_plan x\nplan_step_complete go\nrun_in_bash_session close\n');
    expect(expectOutput('task-transition', dir, ['task', 'start', '--task-id', 'T', '--no-network'])).toMatchObject({ ok: true, taskId: 'T', state: 'PLANNING', report: '.ratchet/orientation.json' });
    expect(expectOutput('task-transition', dir, ['run', 'plan', 'p.plan'])).toMatchObject({ ok: true, state: 'EXECUTING', plan: 'p.plan' });
    expect(expectOutput('task-transition', dir, ['run', 'done'])).toMatchObject({ ok: true, done: { line: 'set_plan x' } });
    expectOutput('task-transition', dir, ['run', 'done']);
    expectOutput('task-transition', dir, ['run', 'done']);
    expect(expectOutput('task-transition', dir, ['task', 'close', '--task-id', 'T'])).toMatchObject({ state: 'POST_MORTEM', postMortem: 'postmortems/T.md' });
    selfCorrect(dir, 'T');
    expect(expectOutput('task-transition', dir, ['task', 'submit', '--task-id', 'T'])).toMatchObject({ ok: true, state: 'DONE' });
    // A failed step and a failed research cycle are moves too (exit 1, the document all the same).
    expect(expectOutput('task-transition', dir, ['task', 'start', '--task-id', 'U', '--no-network'])).toMatchObject({ state: 'PLANNING' });
    expect(ratchet(['research', 'plan', 'caching', '--cwd', dir]).status).toBe(0);
    expect(expectOutput('task-transition', dir, ['research', 'done', '--failed', '--message', 'no sources'], 1)).toMatchObject({ state: 'ERROR' });
  });

  test('campaign ready and status, with a claim and with nothing left to claim', () => {
    expect((expectOutput('campaign-ready', camp, ['campaign', 'ready']).ready as unknown[]).length).toBeGreaterThan(0);
    expect(expectOutput('campaign-ready', camp, ['campaign', 'ready', '--claim', 'r1']).claimed).not.toBeNull();
    expect(expectOutput('campaign-ready', camp, ['campaign', 'ready', '--claim', 'r2']).claimed).toBeNull();
    const status = expectOutput('campaign-status', camp, ['campaign', 'status']);
    expect((status.summary as { counts: { in_progress: number } }).counts.in_progress).toBe(1);
  });

  test('memory query and explain', () => {
    const q = expectOutput('memory-query', tour, ['memory', 'query', 'bcrypt', 'native', 'build']);
    expect((q.failures as unknown[]).length).toBeGreaterThan(0);
    expect((expectOutput('memory-explain', tour, ['memory', 'explain', 'bcrypt', 'build']).explanations as unknown[]).length).toBeGreaterThan(0);
  });

  test('turn assess', () => {
    const a = expectOutput('turn-assess', tour, ['turn', 'assess']);
    expect((a.goals as unknown[]).length).toBeGreaterThan(0);
  });

  test('actions update', () => {
    const dir = tempDir('ratchet-json-actions-');
    expect(ratchet(['actions', 'add', 'agent_task', 'Write the migration', '--cwd', dir]).status).toBe(0);
    const u = expectOutput('actions-update', dir, ['actions', 'update', 'a1', '--priority', '4', '--due', '2030-02-01T09:00:00Z']);
    expect(u.action).toMatchObject({ id: 'a1', priority: 4, due_at: '2030-02-01T09:00:00.000Z' });
  });

  test('flow decline: a reasoning session routed to a skill the user declines', () => {
    const dir = tempDir('ratchet-json-decline-');
    const steps = (JSON.parse(readFileSync(join(protocols, 'flows/reasoning.flow.json'), 'utf8')) as { steps: { id: string; output: { headings: string[] } }[] }).steps;
    expect(ratchet(['flow', 'start', 'reasoning', '--session', 'r', '--input', 'query=explain the code', '--cwd', dir]).status).toBe(0);
    for (const [i, step] of steps.entries()) {
      writeFileSync(join(dir, `out-${i}.md`), step.output.headings.map((h) => `${h}\n\n${'Worked out for the request, in full sentences. '.repeat(4)}(${i})\n`).join('\n'));
      const r = ratchet(['flow', 'advance', '--session', 'r', '--output', `out-${i}.md`, ...(step.id === '4' ? ['--set', 'route=develop-feature', '--set', 'confidence=HIGH'] : []), '--cwd', dir]);
      expect(r.status, r.stderr).toBe(0);
    }
    const d = expectOutput('flow-decline', dir, ['flow', 'decline', '--session', 'r', '--reason', 'an explanation was all I wanted']);
    expect(d).toMatchObject({ outcome: 'declined', session: { status: 'COMPLETED', state: { handoff: { flow: 'develop-feature', declined: { reason: 'an explanation was all I wanted' } } } } });
  });

  test('turn trace show and replay', () => {
    const dir = tempDir('ratchet-json-trace-');
    const run = (args: string[]): void => expect(ratchet([...args, '--cwd', dir]).status, args.join(' ')).toBe(0);
    run(['turn', 'start', 't1', '--tokens', '10', '--now', '2030-01-01T00:00:00Z']);
    run(['turn', 'trace', 'span', 'start', 'a', '--component', 'planner', '--now', '2030-01-01T00:00:01Z']);
    run(['turn', 'trace', 'span', 'start', 'b', '--parent', 'a', '--depends-on', 'a', '--tokens', '1', '--now', '2030-01-01T00:00:02Z']);
    run(['turn', 'trace', 'event', 'ToolInvocation', 'grep', '--span', 'b', '--tokens', '20', '--payload', '{"q":"x"}', '--now', '2030-01-01T00:00:03Z']);
    const show = expectOutput('turn-trace-show', dir, ['turn', 'trace', 'show']);
    expect((show.over as unknown[]).length).toBe(2);
    expect(show.tree).toEqual([{ span_id: 'a', events: [], children: [{ span_id: 'b', events: ['e1', 'e3'], children: [] }] }]);
    expect(expectOutput('turn-trace-replay', dir, ['turn', 'trace', 'replay', 't1']).order).toEqual(['a', 'b']);
  });

  test('failures print the error document: bad input (exit 2) and a usage error', () => {
    const missing = expectOutput('error', fresh, ['plan', 'lint', 'no-such-plan.txt'], 2);
    expect((missing.error as { code: string }).code).toBeTruthy();
    expectOutput('error', fresh, ['plan', 'lint', '--no-such-option'], 2);
  });

  test('a document that breaks the contract is refused by its schema (the check is not vacuous)', () => {
    const url = outputSchemaUrl('run-next');
    expect(registry.check(url, { $schema: url, ok: true, state: 'START' })).not.toEqual([]);
    expect(registry.check(url, { $schema: url, ok: true, state: 'START', next: { state: 'START', instruction: 'x', commands: 'ratchet task start' } })).not.toEqual([]);
  });
});
