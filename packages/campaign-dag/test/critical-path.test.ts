import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { criticalPath, waves, type Task } from '../src/index.js';
import { randomDag, task } from './support/fixtures.js';

describe('criticalPath', () => {
  test('the longest chain of unfinished tasks, parents first', () => {
    // 1 -> 2 -> 4 -> 5 is longer than 1 -> 3 -> 5.
    const tasks = [task(1), task(2, [1]), task(3, [1]), task(4, [2]), task(5, [3, 4]), task(6)];
    expect(criticalPath(tasks)).toEqual([1, 2, 4, 5]);
  });

  test('complete tasks are done work: the path is what is left', () => {
    const tasks = [task(1, [], 'complete'), task(2, [1], 'complete'), task(3, [2]), task(4, [3], 'in_progress'), task(5, [1]), task(6, [5], 'blocked'), task(7, [6])];
    // 3 -> 4 and 5 -> 6 -> 7: the second is longer.
    expect(criticalPath(tasks)).toEqual([5, 6, 7]);
  });

  test('empty when everything is complete, or there is nothing', () => {
    expect(criticalPath([task(1, [], 'complete'), task(2, [1], 'complete')])).toEqual([]);
    expect(criticalPath([])).toEqual([]);
  });

  test('ties go to the first dependency and the first task, so the answer is stable', () => {
    const tasks = [task(1), task(2), task(3, [1, 2])];
    expect(criticalPath(tasks)).toEqual([1, 3]);
    expect(criticalPath([task(1), task(2)])).toEqual([1]);
  });

  test('a 100,000-task chain needs no recursion', () => {
    const tasks: Task[] = Array.from({ length: 100_000 }, (_, i) => task(i + 1, i === 0 ? [] : [i]));
    const path = criticalPath(tasks);
    expect(path.length).toBe(100_000);
    expect(path[0]).toBe(1);
    expect(path.at(-1)).toBe(100_000);
  });

  test('with nothing complete, its length is the number of waves, and it is a real chain', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 60 }), fc.integer({ min: 0, max: 150 }), fc.integer({ min: 1, max: 1 << 30 }), (n, edges, seed) => {
        const tasks = randomDag(n, edges, seed);
        const path = criticalPath(tasks);
        expect(path.length).toBe(waves(tasks).length);
        const bySeq = new Map(tasks.map((t) => [t.seq, t]));
        for (let k = 1; k < path.length; k++) expect(bySeq.get(path[k]!)!.depends).toContain(path[k - 1]);
      }),
    );
  });
});
