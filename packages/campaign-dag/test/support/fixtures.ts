/** Small builders for tests. */
import type { Task, TaskStatus } from '../../src/index.js';

export function task(seq: number, depends: number[] = [], status: TaskStatus = 'pending', extra: Partial<Task> = {}): Task {
  return { seq, slug: `t${seq}`, type: 'BUILD', delta: [`src/t${seq}.ts`], verify: 'npm test', depends, status, ...extra };
}

/** A seeded random DAG: each task depends on up to `maxDeps` earlier ones (so it is acyclic). */
export function randomDag(n: number, edges: number, seed = 1): Task[] {
  let s = seed >>> 0 || 1;
  const rnd = (): number => {
    s ^= s << 13;
    s ^= s >>> 17;
    s ^= s << 5;
    return (s >>> 0) / 4294967296;
  };
  const deps: Set<number>[] = Array.from({ length: n }, () => new Set());
  for (let e = 0; n > 1 && e < edges; e++) {
    const child = 1 + Math.floor(rnd() * (n - 1));
    const parent = Math.floor(rnd() * child);
    deps[child]!.add(parent + 1);
  }
  return deps.map((d, i) => task(i + 1, [...d].sort((a, b) => a - b)));
}
