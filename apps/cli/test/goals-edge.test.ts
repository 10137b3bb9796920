/**
 * The edge of the goals commands that have no MCP tool (goals share|context|compact, actions stats,
 * turn assess|commit, turn trace show|replay, scratch|questions|stories list, proposals
 * list|show|review|merge|export): commander's options are parsed once, in goals-inputs.ts and
 * notes-inputs.ts, and a wrong kind or a bad value is a usage error (exit 2) naming the option,
 * before anything is read or written.
 */
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { compactInput, contextInput, historyInput, revertInput, shareInput, statsInput, traceReadInput, turnAssessInput, turnCommitInput } from '../src/commands/goals/goals-inputs.js';
import { proposalsInput, questionListInput, scratchListInput, storyListInput } from '../src/commands/goals/notes-inputs.js';
import type { Io } from '../src/context.js';
import { CliError } from '../src/errors.js';
import { run } from '../src/main.js';
import type { OptionBag } from '../src/option-values.js';

function project(): string {
  return mkdtempSync(join(tmpdir(), 'cli-goals-edge-'));
}

async function ratchet(cwd: string, args: string[], env: Record<string, string> = {}): Promise<{ code: number; out: string; err: string }> {
  let out = '';
  let err = '';
  const io: Io = { stdout: (t) => void (out += t), stderr: (t) => void (err += t), isTTY: false, env, cwd, readStdin: () => Promise.resolve('') };
  return { code: await run(args, io), out, err };
}

/** The parse function's refusal: a usage error (exit 2) with this message. */
function refused(parse: () => unknown): { exitCode: number; message: string } {
  try {
    parse();
  } catch (err) {
    expect(err).toBeInstanceOf(CliError);
    const e = err as CliError;
    return { exitCode: e.exitCode, message: e.message };
  }
  throw new Error('the parse function accepted the bag');
}

describe('the goals edge: a wrong kind in the option bag is a usage error naming the option', () => {
  const cases: [string, () => unknown, string][] = [
    ['goals share --agent-grant', () => shareInput(['goal', 'g1'], { agentGrant: true, access: 'read' }), '--agent-grant takes a value'],
    ['goals share --access', () => shareInput(['goal', 'g1'], { agentGrant: 'b', access: 'all' }), '--access must be one of read, write, none'],
    ['goals share <kind>', () => shareInput(['__proto__', 'g1'], { agentGrant: 'b', access: 'read' }), 'goals share: <kind> must be one of goal, action, observation, got "__proto__"'],
    ['goals share --expected-version', () => shareInput(['goal', 'g1'], { agentGrant: 'b', access: 'read', expectedVersion: '-1' }), '--expected-version must be an integer >= 0, got "-1"'],
    ['goals context --budget', () => contextInput([], { budget: ['100'] }), '--budget takes a value'],
    ['goals context --memory', () => contextInput([], { memory: 7 }), '--memory takes a value'],
    ['goals context --as', () => contextInput([], { as: 'root' }), '--as must be one of agent, user'],
    ['goals compact --keep', () => compactInput([], { keep: 5 }), '--keep takes a value'],
    ['goals compact --before', () => compactInput([], { before: 'soon\r\n' }), '--before soon\r\n: not an ISO 8601 time'],
    ['goals history --since', () => historyInput([], { since: '-1' }), '--since must be an integer >= 0, got "-1"'],
    ['goals revert <version>', () => revertInput(['1e400'], {}), 'version must be an integer >= 0, got "1e400"'],
    ['goals revert --expected-version', () => revertInput(['1'], { expectedVersion: ['1'] }), '--expected-version takes a value'],
    ['actions stats --since', () => statsInput([], { since: {} }), '--since takes a value'],
    ['actions stats --now', () => statsInput([], { now: false }), '--now takes a value'],
    ['turn assess --owner', () => turnAssessInput([], { owner: 'robot' }), '--owner must be one of agent, user'],
    ['turn assess --limit', () => turnAssessInput([], { limit: '0' }), '--limit must be an integer >= 1, got "0"'],
    ['turn commit <file>', () => turnCommitInput([], {}), 'turn commit: missing <file>'],
    ['turn commit --traces', () => turnCommitInput(['c.json'], { traces: ['a', 'b'] }), '--traces takes a value'],
    ['turn trace show --turn', () => traceReadInput(['show'], { turn: false }), '--turn takes a value'],
    ['turn trace <view>', () => traceReadInput(['dump'], {}), 'turn trace: unknown command "dump"'],
    ['scratch list --status', () => scratchListInput(['list'], { status: 'done' }), '--status must be one of active, pending_review, resolved, archived'],
    ['scratch list --tag', () => scratchListInput(['list'], { tag: ['a'] }), '--tag takes a value'],
    ['questions list --goal', () => questionListInput(['question-list'], { goal: ['g1', 'g2'] }), '--goal takes a value'],
    ['stories list --question', () => storyListInput(['story-list'], { question: 3 }), '--question takes a value'],
    ['proposals list --status', () => proposalsInput(['list'], { status: 'pending' }), '--status must be one of open, approved, rejected, merged'],
    ['proposals show <id>', () => proposalsInput(['show'], {}), 'proposals show: missing <id>'],
    ['proposals review <decision>', () => proposalsInput(['review', 'p1', 'maybe'], {}), 'proposals review: <decision> must be approve or reject'],
    ['proposals review --comments', () => proposalsInput(['review', 'p1', 'approve'], { comments: true }), '--comments takes a value'],
    ['proposals merge --state', () => proposalsInput(['merge', 'p1'], { state: 1 }), '--state takes a value'],
  ];
  test.each(cases)('%s', (_name, parse, message) => {
    expect(refused(parse)).toEqual({ exitCode: 2, message });
  });

  test('the typed input carries what commander gave, and nothing from the bag it does not name', () => {
    const bag: OptionBag = { state: 's.json', registry: 'r.json', agent: 'a', org: 'o', now: '2030-01-01T00:00:00Z', memory: false, budget: '500', limit: '3', goals: '2', questions: '1', query: '   ', extra: 'ignored' };
    expect(contextInput([], bag)).toEqual({ state: 's.json', registry: 'r.json', as: undefined, who: undefined, agent: 'a', org: 'o', now: '2030-01-01T00:00:00Z', query: undefined, goals: 2, limit: 3, questions: 1, budget: 500, memory: false });
    expect(proposalsInput(['review', 'p1', 'reject'], { as: 'user', traces: 't.jsonl', expectedVersion: '4' })).toMatchObject({ command: 'review', id: 'p1', decision: 'reject', comments: '', as: 'user', traces: 't.jsonl', expectedVersion: 4 });
    expect(traceReadInput(['replay', 't1'], { turn: 't2' })).toMatchObject({ view: 'replay', turn: 't1' });
    expect(traceReadInput(['replay'], { turn: 't2' })).toMatchObject({ view: 'replay', turn: 't2' });
    expect(compactInput([], { keep: '10', before: '2030-01-01T00:00:00Z', revertPoints: '2' })).toMatchObject({ keep: 10, before: Date.parse('2030-01-01T00:00:00Z'), revertPoints: 2 });
  });
});

describe('the goals edge through the CLI: bad and hostile values are exit 2 before anything is written', { timeout: 60_000 }, () => {
  test('numbers: negative, huge, not a number, zero where at least one is needed', async () => {
    const dir = project();
    const runs: [string[], string][] = [
      [['turn', 'assess', '--limit', '-1'], '--limit must be an integer >= 1, got "-1"'],
      [['turn', 'assess', '--limit', '1e400'], '--limit must be an integer >= 1, got "1e400"'],
      [['turn', 'assess', '--goals', '99999999999999999999'], '--goals must be an integer >= 0, got "99999999999999999999"'],
      [['goals', 'context', '--budget', '0'], '--budget must be an integer >= 1, got "0"'],
      [['goals', 'context', '--questions', '2.5'], '--questions must be an integer >= 0, got "2.5"'],
      [['goals', 'compact', '--as', 'user', '--keep', 'abc'], '--keep must be an integer >= 0, got "abc"'],
      [['goals', 'compact', '--as', 'user', '--revert-points', '-3'], '--revert-points must be an integer >= 0, got "-3"'],
      [['goals', 'share', 'goal', 'g1', '--agent-grant', 'b', '--access', 'read', '--expected-version', '1e400'], '--expected-version must be an integer >= 0, got "1e400"'],
      [['proposals', 'review', 'p1', 'approve', '--as', 'user', '--expected-version', '-2'], '--expected-version must be an integer >= 0, got "-2"'],
      // A blank value is not 0 (Number('') is): an empty --expected-version must not pass a version check.
      [['goals', 'share', 'goal', 'g1', '--agent-grant', 'b', '--access', 'read', '--expected-version', ''], '--expected-version must be an integer >= 0, got ""'],
      [['goals', 'context', '--questions', '  '], '--questions must be an integer >= 0, got "  "'],
    ];
    for (const [args, message] of runs) {
      const r = await ratchet(dir, args);
      expect({ args, code: r.code, err: r.err }).toEqual({ args, code: 2, err: `ratchet: ${message}\n` });
    }
    // Nothing was written: no goals state.
    expect(existsSync(join(dir, '.ratchet', 'goals.json'))).toBe(false);
  });

  test('times with CRLF and words are refused naming the option', async () => {
    const dir = project();
    const since = await ratchet(dir, ['actions', 'stats', '--since', 'last\r\ntuesday']);
    expect(since.code).toBe(2);
    expect(since.err).toContain('--since last\r\ntuesday: not an ISO 8601 time');
    const before = await ratchet(dir, ['goals', 'compact', '--as', 'user', '--before', 'soon']);
    expect(before.code).toBe(2);
    expect(before.err).toContain('--before soon: not an ISO 8601 time');
    const now = await ratchet(dir, ['scratch', 'list', '--now', 'yesterday\r\n']);
    expect(now.code).toBe(2);
    expect(now.err).toContain('--now yesterday\r\n: not an ISO 8601 time');
  });

  test('paths: a trace, config or memory file outside the project is refused; a state named __proto__ is only a file name', async () => {
    const dir = project();
    const traces = await ratchet(dir, ['turn', 'trace', 'show', '--traces', '../elsewhere.jsonl']);
    expect(traces.code).toBe(2);
    expect(traces.err).toContain('resolves outside the project root');
    const config = await ratchet(dir, ['turn', 'commit', 'c.json', '--trace-config', '../../etc/passwd']);
    expect(config.code).toBe(2);
    const memory = await ratchet(dir, ['goals', 'context', '--query', 'x', '--memory', '../../etc/passwd']);
    expect(memory.code).toBe(2);
    expect(memory.err).toContain('--memory ../../etc/passwd refused');
    expect(memory.err).toContain('outside the project root');

    const list = await ratchet(dir, ['--json', 'scratch', 'list', '--state', '__proto__']);
    expect(list.code).toBe(0);
    expect(JSON.parse(list.out)).toMatchObject({ ok: true, active: [] });
    // A read writes nothing, and the name reached no object's prototype.
    expect(existsSync(join(dir, '__proto__'))).toBe(false);
    expect(({} as Record<string, unknown>).state).toBeUndefined();
    const proposals = await ratchet(dir, ['--json', 'proposals', 'list', '--state', '__proto__']);
    expect(JSON.parse(proposals.out)).toEqual({ ok: true, proposals: [] });
  });

  test('turn trace show|replay: the argument, else --turn, else $RATCHET_TURN; __proto__ is not a turn id; an unknown turn is not-found', async () => {
    const dir = project();
    expect((await ratchet(dir, ['turn', 'start', 't1', '--now', '2030-01-01T00:00:00Z'])).code).toBe(0);
    expect((await ratchet(dir, ['turn', 'start', 't2', '--now', '2030-01-01T00:01:00Z'])).code).toBe(0);
    const byArgument = await ratchet(dir, ['turn', 'trace', 'show', 't1', '--turn', 't2']);
    expect(byArgument.out.split('\n')[0]).toMatch(/^turn t1 /);
    const byFlag = await ratchet(dir, ['turn', 'trace', 'show', '--turn', 't1'], { RATCHET_TURN: 't2' });
    expect(byFlag.out.split('\n')[0]).toMatch(/^turn t1 /);
    const byEnv = await ratchet(dir, ['turn', 'trace', 'replay'], { RATCHET_TURN: 't1' });
    expect(byEnv.out).toContain('turn t1: 0 spans in replay order');
    const hostile = await ratchet(dir, ['turn', 'trace', 'show', '__proto__']);
    expect(hostile.code).toBe(2);
    expect(hostile.err).toBe('ratchet: invalid turn id "__proto__": use letters, digits, "_", ".", ":" or "-", starting with a letter or digit\n');
    const unknown = await ratchet(dir, ['turn', 'trace', 'replay', '--turn', 't9']);
    expect(unknown.code).toBe(2);
    expect(unknown.err).toBe('ratchet: no trace of turn "t9"\n');
  });

  test('turn commit reads its file after the options are checked: a bad --expected-version leaves the state as it was', async () => {
    const dir = project();
    writeFileSync(join(dir, 'c.json'), JSON.stringify({ turn_id: 't1', progress: [], new_actions: [{ type: 'agent_task', title: 'x' }], completed_actions: [], story_updates: [] }));
    const bad = await ratchet(dir, ['turn', 'commit', 'c.json', '--expected-version', 'one']);
    expect(bad.code).toBe(2);
    expect(bad.err).toBe('ratchet: --expected-version must be an integer >= 0, got "one"\n');
    expect(existsSync(join(dir, '.ratchet', 'goals.json'))).toBe(false);
    const good = await ratchet(dir, ['turn', 'commit', 'c.json', '--expected-version', '0']);
    expect(good.code).toBe(0);
    expect(JSON.parse(readFileSync(join(dir, '.ratchet', 'goals.json'), 'utf8'))).toMatchObject({ version: 1 });
  });
});
