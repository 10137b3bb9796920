import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { buildIndex, cascadeStatus, checkGraph, graphIssues, propagateBlocks, readyTasks, releaseCascades, renderGraph, waves, type Task } from '../src/index.js';
import { randomDag, task } from './support/fixtures.js';

describe('ready', () => {
  test('pending tasks whose dependencies are all complete, nothing else', () => {
    const tasks = [task(1, [], 'complete'), task(2, [1]), task(3, [1, 2]), task(4), task(5, [], 'in_progress'), task(6, [1], 'blocked')];
    expect(readyTasks(tasks).map((t) => t.seq)).toEqual([2, 4]);
  });

  test('sparse seqs (a Map lookup instead of a table) give the same answer', () => {
    const tasks = [task(900_000_000, [], 'complete'), task(7, [900_000_000]), task(8, [7])];
    expect(readyTasks(tasks).map((t) => t.seq)).toEqual([7]);
  });
});

describe('checkGraph', () => {
  test('reports the full cycle path, every disjoint cycle, and unknown/self dependencies at once', () => {
    const tasks = [task(1, [3]), task(2, [1]), task(3, [2]), task(4, [5]), task(5, [4]), task(6, [6]), task(7, [42]), task(8, [1])];
    const problems = checkGraph(tasks);
    const cycles = problems.filter((p) => p.rule === 'cycle').map((p) => (p.rule === 'cycle' ? p.cycle : []));
    expect(cycles).toEqual([
      [1, 3, 2, 1],
      [4, 5, 4],
    ]);
    expect(problems.filter((p) => p.rule === 'self-dependency')).toHaveLength(1);
    expect(problems.filter((p) => p.rule === 'unknown-dependency')).toMatchObject([{ seq: 7, dependency: 42 }]);
  });

  test('duplicate seqs are reported', () => {
    expect(checkGraph([task(1), task(1)])).toMatchObject([{ rule: 'duplicate-seq', index: 1, seq: 1, first: 0 }]);
  });

  test('a 100,000-task chain and a 100,000-task cycle: no stack overflow, the cycle path is complete', () => {
    const chain = Array.from({ length: 100_000 }, (_, i) => task(i + 1, i === 0 ? [] : [i]));
    expect(checkGraph(chain)).toEqual([]);
    expect(waves(chain)).toHaveLength(100_000);
    chain[0]!.depends = [100_000];
    const [cycle] = checkGraph(chain);
    expect(cycle?.rule).toBe('cycle');
    if (cycle?.rule === 'cycle') expect(cycle.cycle).toHaveLength(100_001);
    chain[0]!.depends = [];
    chain[0]!.status = 'blocked';
    const status = cascadeStatus(chain);
    expect(status.unreachable).toHaveLength(99_999);
    expect(status.unreachable.at(-1)).toEqual({ seq: 100_000, blockedBy: [99_999], rootCause: 1 });
  });

  test('property: random DAGs have no problems; adding a back edge makes a cycle whose path follows real edges', () => {
    fc.assert(
      fc.property(fc.integer({ min: 2, max: 60 }), fc.integer({ min: 0, max: 200 }), fc.integer({ min: 1, max: 2 ** 31 }), (n, m, seed) => {
        const tasks = randomDag(n, m, seed);
        expect(checkGraph(tasks)).toEqual([]);
        // Close a cycle along an existing path: the last task with a dependency points back down.
        const child = tasks.findLast((t) => t.depends.length > 0);
        if (child === undefined) return;
        const parent = tasks[child.depends[0]! - 1]!;
        parent.depends = [...parent.depends, child.seq];
        const cycles = checkGraph(tasks).filter((p) => p.rule === 'cycle');
        expect(cycles.length).toBeGreaterThan(0);
        for (const c of cycles) {
          if (c.rule !== 'cycle') continue;
          expect(c.cycle[0]).toBe(c.cycle.at(-1));
          for (let i = 0; i + 1 < c.cycle.length; i++) expect(tasks[c.cycle[i]! - 1]!.depends).toContain(c.cycle[i + 1]);
        }
      }),
      { numRuns: 150 },
    );
  });
});

describe('graphIssues (campaign.json on read)', () => {
  test('property: no issue exactly when checkGraph finds none and no task lists a dependency twice, in any task order', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 12 }), fc.array(fc.tuple(fc.nat(11), fc.nat(13)), { maxLength: 20 }), fc.boolean(), fc.integer(), (n, edges, shuffle, seed) => {
        const tasks = Array.from({ length: n }, (_, i) => task(i + 1));
        for (const [from, to] of edges) tasks[from % n]!.depends.push(to);
        if (shuffle) {
          let x = seed >>> 0 || 1;
          for (let i = tasks.length - 1; i > 0; i--) {
            x = (x * 1103515245 + 12345) >>> 0;
            const j = x % (i + 1);
            [tasks[i], tasks[j]] = [tasks[j]!, tasks[i]!];
          }
        }
        const dupDeps = tasks.some((t) => new Set(t.depends).size !== t.depends.length);
        expect(graphIssues(tasks).length === 0).toBe(checkGraph(tasks).length === 0 && !dupDeps);
      }),
      { numRuns: 500 },
    );
  });

  test('a valid campaign in any order has no issue (tasks listed before their dependencies take the full check)', () => {
    const dag = randomDag(300, 900, 5);
    expect(graphIssues(dag)).toEqual([]);
    expect(graphIssues([...dag].reverse())).toEqual([]);
    expect(graphIssues([task(2, [1]), task(1)])).toEqual([]);
    expect(graphIssues([task(2, [1]), task(1, [2])]).map((i) => [i.path.join('/'), i.code])).toEqual([['tasks/0/depends/0', 'cycle']]);
  });
});

describe('waves', () => {
  test('parallel layers: each task sits one wave after its latest dependency', () => {
    const tasks = [task(1), task(2), task(3, [1]), task(4, [1, 2]), task(5, [3, 4]), task(6, [1])];
    expect(waves(tasks)).toEqual([[1, 2], [3, 4, 6], [5]]);
  });

  test('property: every dependency is in an earlier wave and every task appears once', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 80 }), fc.integer({ min: 0, max: 300 }), fc.integer({ min: 1, max: 2 ** 31 }), (n, m, seed) => {
        const tasks = randomDag(n, m, seed);
        const layers = waves(tasks);
        const waveOf = new Map<number, number>();
        layers.forEach((w, i) => w.forEach((s) => waveOf.set(s, i)));
        expect(waveOf.size).toBe(n);
        for (const t of tasks) {
          for (const d of t.depends) expect(waveOf.get(d)!).toBeLessThan(waveOf.get(t.seq)!);
          if (t.depends.length > 0) expect(Math.max(...t.depends.map((d) => waveOf.get(d)!)) + 1).toBe(waveOf.get(t.seq));
        }
      }),
      { numRuns: 100 },
    );
  });
});

/** The obvious fixpoint algorithm (FTL's propagate loop, made transitive) as the reference. */
function naiveUnreachable(tasks: Task[]): Set<number> {
  const bad = new Set(tasks.filter((t) => t.status === 'blocked').map((t) => t.seq));
  const out = new Set<number>();
  for (let changed = true; changed; ) {
    changed = false;
    for (const t of tasks) {
      if (t.status === 'pending' && !out.has(t.seq) && t.depends.some((d) => bad.has(d))) {
        bad.add(t.seq);
        out.add(t.seq);
        changed = true;
      }
    }
  }
  return out;
}

describe('cascade-status and propagate-blocks', () => {
  test('states: none, in_progress, stuck, all_blocked, complete', () => {
    expect(cascadeStatus([]).state).toBe('none');
    expect(cascadeStatus([task(1, [], 'complete'), task(2, [1])]).state).toBe('in_progress');
    expect(cascadeStatus([task(1, [], 'in_progress'), task(2, [1])]).state).toBe('in_progress');
    expect(cascadeStatus([task(1, [], 'blocked'), task(2, [1])]).state).toBe('stuck');
    expect(cascadeStatus([task(1, [], 'blocked'), task(2, [1], 'blocked')]).state).toBe('all_blocked');
    expect(cascadeStatus([task(1, [], 'complete')]).state).toBe('complete');
  });

  test('unreachable is transitive (FTL only looked at direct parents); blockers and root cause recorded', () => {
    const tasks = [task(1, [], 'blocked'), task(2, [1]), task(3, [2]), task(4, [3]), task(5), task(6, [4, 5])];
    const status = cascadeStatus(tasks);
    expect(status.unreachable).toEqual([
      { seq: 2, blockedBy: [1], rootCause: 1 },
      { seq: 3, blockedBy: [2], rootCause: 1 },
      { seq: 4, blockedBy: [3], rootCause: 1 },
      { seq: 6, blockedBy: [4], rootCause: 1 },
    ]);
    expect(status.ready).toEqual([5]);
    expect(status.state).toBe('in_progress');
  });

  test('propagate-blocks reaches the fixpoint in one call, marks cascades, keeps original failures distinct', () => {
    const tasks = [task(1, [], 'blocked', { reason: 'tests fail', cascade: false }), task(2, [], 'blocked'), task(3, [2, 1]), task(4, [3]), task(5, [], 'complete'), task(6, [5])];
    const changed = propagateBlocks(tasks, { now: '2030-01-01T00:00:00.000Z' });
    expect(changed.map((u) => u.seq)).toEqual([3, 4]);
    expect(tasks[2]).toMatchObject({ status: 'blocked', blockedBy: [1, 2], rootCause: 1, cascade: true, updatedAt: '2030-01-01T00:00:00.000Z' });
    expect(tasks[3]).toMatchObject({ status: 'blocked', blockedBy: [3], rootCause: 1, cascade: true });
    expect(tasks[0]).toMatchObject({ reason: 'tests fail', cascade: false });
    expect(propagateBlocks(tasks)).toEqual([]);
    expect(cascadeStatus(tasks).state).toBe('in_progress');
    // A cascaded block keeps pointing at the original failure further down.
    tasks.push(task(7, [4]));
    expect(cascadeStatus(tasks).unreachable).toEqual([{ seq: 7, blockedBy: [4], rootCause: 1 }]);
  });

  test('releaseCascades: retrying the root sends its cascade back to pending; a task still blocked by another failure is re-pointed', () => {
    const tasks = [task(1, [], 'blocked', { cascade: false }), task(2, [1]), task(3, [2]), task(4, [], 'blocked', { cascade: false }), task(5, [3, 4]), task(6, [5])];
    propagateBlocks(tasks);
    expect(tasks.map((t) => [t.seq, t.status, t.rootCause])).toEqual([[1, 'blocked', undefined], [2, 'blocked', 1], [3, 'blocked', 1], [4, 'blocked', undefined], [5, 'blocked', 1], [6, 'blocked', 1]]);
    tasks[0]!.status = 'pending';
    delete tasks[0]!.cascade;
    expect(releaseCascades(tasks, { now: 'later' })).toEqual([2, 3]);
    expect(tasks[1]).toEqual(task(2, [1], 'pending', { updatedAt: 'later' }));
    expect(tasks[4]).toMatchObject({ status: 'blocked', cascade: true, blockedBy: [4], rootCause: 4 });
    expect(tasks[5]).toMatchObject({ status: 'blocked', cascade: true, blockedBy: [5], rootCause: 4 });
    expect(releaseCascades(tasks)).toEqual([]);
  });

  test('property: unreachable equals the naive transitive fixpoint; after propagation nothing is unreachable', () => {
    const statuses = ['pending', 'pending', 'pending', 'complete', 'blocked', 'in_progress'] as const;
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 60 }), fc.integer({ min: 0, max: 200 }), fc.integer({ min: 1, max: 2 ** 31 }), fc.array(fc.nat(5), { minLength: 60, maxLength: 60 }), (n, m, seed, picks) => {
        const tasks = randomDag(n, m, seed);
        tasks.forEach((t, i) => (t.status = statuses[picks[i]!]!));
        const expected = naiveUnreachable(tasks);
        expect(new Set(cascadeStatus(tasks).unreachable.map((u) => u.seq))).toEqual(expected);
        propagateBlocks(tasks);
        expect(cascadeStatus(tasks).unreachable).toEqual([]);
        for (const t of tasks) if (expected.has(t.seq)) expect(t).toMatchObject({ status: 'blocked', cascade: true });
      }),
      { numRuns: 150 },
    );
  });

  test('ready from cascadeStatus equals readyTasks', () => {
    const tasks = randomDag(500, 1500, 7);
    tasks.forEach((t, i) => (t.status = i % 3 === 0 ? 'complete' : 'pending'));
    expect(cascadeStatus(tasks, buildIndex(tasks)).ready).toEqual(readyTasks(tasks).map((t) => t.seq));
  });
});

describe('graph rendering', () => {
  // renderGraph takes any tasks (campaign.json refuses such slugs, library callers may not).
  const hostile = [task(1, [], 'complete', { slug: 'x"]\n  evil --> t001\n  click t001 "javascript:alert(1)"' }), task(2, [1], 'blocked', { slug: 'a\\"b\r\n<i>&`' })];

  test('mermaid: hostile task text stays inside its label, one line per node and edge', () => {
    const lines = renderGraph(hostile, 'mermaid').trimEnd().split('\n');
    expect(lines.slice(0, 4)).toEqual([
      'flowchart TD',
      '  t001["001 x#34;]   evil --#62; t001   click t001 #34;javascript:alert(1)#34;<br/>complete"]:::done',
      '  t002["002 a\\#34;b  #60;i#62;#38;#96;<br/>blocked"]:::blocked',
      '  t001 --> t002',
    ]);
    expect(lines.filter((l) => l.includes('-->'))).toHaveLength(1);
  });

  test('dot: quotes, backslashes and line breaks escaped inside the quoted label', () => {
    expect(renderGraph(hostile, 'dot').split('\n').slice(3, 6)).toEqual([
      '  t001 [label="001 x\\"]\\n  evil --> t001\\n  click t001 \\"javascript:alert(1)\\"\\ncomplete", fillcolor=palegreen];',
      '  t002 [label="002 a\\\\\\"b\\n<i>&`\\nblocked", fillcolor=lightpink];',
      '  t001 -> t002;',
    ]);
  });
});
