/**
 * The critical path of what is left: the longest chain of unfinished tasks (pending, in progress or
 * blocked), each depending on the one before. Its length is the least number of waves the rest of
 * the campaign needs however many builders run, so these are the tasks whose delay delays the end.
 * Complete tasks count for nothing (their work is done); a chain through one is two chains.
 *
 * Linear in tasks plus dependencies over the shared CSR index (topoOrder), iterative: a
 * 100,000-task chain is fine. Nodes on a cycle (which checkGraph refuses on write) are left out.
 */
import { buildIndex, topoOrder, type GraphIndex, type GraphTask } from './graph.js';
import type { TaskStatus } from './types.js';

export function criticalPath(tasks: readonly (GraphTask & { status: TaskStatus })[], index?: GraphIndex): number[] {
  const g = index ?? buildIndex(tasks);
  const { order, count } = topoOrder(g);
  // length[i]: unfinished tasks on the longest chain ending at i (0 for a complete task).
  const length = new Int32Array(g.size);
  const previous = new Int32Array(g.size).fill(-1);
  let best = -1;
  for (let h = 0; h < count; h++) {
    const i = order[h]!;
    if (tasks[i]!.status === 'complete') continue;
    let longest = 0;
    let from = -1;
    for (let e = g.depStart[i]!; e < g.depStart[i + 1]!; e++) {
      const d = g.dep[e]!;
      // Ties go to the dependency listed first, so the same campaign gives the same path.
      if (length[d]! > longest) {
        longest = length[d]!;
        from = d;
      }
    }
    length[i] = longest + 1;
    previous[i] = from;
    if (best < 0 || length[i] > length[best]!) best = i;
  }
  const path: number[] = [];
  for (let i = best; i >= 0; i = previous[i]!) path.push(tasks[i]!.seq);
  return path.reverse();
}
