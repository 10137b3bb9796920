/**
 * Graph layout, run in a Web Worker (layout-worker.ts) so the page stays responsive while it runs.
 * Campaign graphs are laid out left to right by wave (the server's waves: a task's column is the
 * longest dependency chain above it), which is also the layering a Sugiyama layout would choose.
 *
 * Small graphs go to d3-dag's Sugiyama layout (crossing reduction, coordinate assignment, edges
 * routed around nodes). It does not scale: measured on campaign-like graphs, d3-dag took 107 s for
 * 10,000 tasks, dagre 35 s and ELK 14 s for 3,000 (BENCHMARKS.md, "dashboard"). Above
 * SUGIYAMA_LIMIT (tasks plus the dummy nodes long edges need) the layers are the waves, ordered by
 * a few barycenter sweeps and stacked: linear in tasks plus edges, tens of milliseconds for 10,000.
 */

export interface LayoutTask {
  seq: number;
  depends: readonly number[];
  wave: number;
}

export interface LayoutRequest {
  id: number;
  tasks: LayoutTask[];
}

export interface LayoutResult {
  id: number;
  /** Which layout ran. */
  engine: 'd3-dag' | 'waves';
  /** Node centres, in task order: x[i], y[i]. */
  x: Float64Array;
  y: Float64Array;
  width: number;
  height: number;
  /** Per edge (child index, dependency position), the bend points between the ends, when routed. */
  routes?: { child: number; dep: number; points: number[] }[];
  ms: number;
}

export const NODE_W = 168;
export const NODE_H = 38;
export const GAP_X = 56;
export const GAP_Y = 14;
/**
 * Nodes plus dummy nodes up to which d3-dag's Sugiyama layout runs (measured on campaign-like
 * graphs: ~70 ms at 340, ~450 ms at 720 with greedy coordinates and two crossing-reduction passes).
 */
export const SUGIYAMA_LIMIT = 500;
/** Up to this many nodes plus dummies, the quadratic-programming coordinates (straighter edges; 300 ms at 60). */
export const QUAD_LIMIT = 40;

/** Dummy nodes a Sugiyama layout would add: every wave an edge crosses without stopping. */
export function dummyCount(tasks: readonly LayoutTask[]): number {
  const wave = new Map(tasks.map((t) => [t.seq, t.wave]));
  let dummies = 0;
  for (const t of tasks) for (const d of t.depends) dummies += Math.max(0, t.wave - (wave.get(d) ?? t.wave) - 1);
  return dummies;
}

/**
 * The wave layout: one column per wave (a cycle's tasks, wave -1, in a last column), each column's
 * order improved by barycenter sweeps (down by dependencies, up by dependants), columns centred.
 */
export function waveLayout(tasks: readonly LayoutTask[], sweeps = 4): { x: Float64Array; y: Float64Array; width: number; height: number } {
  const n = tasks.length;
  const index = new Map<number, number>();
  tasks.forEach((t, i) => index.set(t.seq, i));
  let maxWave = 0;
  for (const t of tasks) if (t.wave > maxWave) maxWave = t.wave;
  const col = (t: LayoutTask): number => (t.wave < 0 ? maxWave + 1 : t.wave);
  const columns: number[][] = Array.from({ length: maxWave + 2 }, () => []);
  for (let i = 0; i < n; i++) columns[col(tasks[i]!)]!.push(i);
  const deps: number[][] = tasks.map((t) => t.depends.map((d) => index.get(d)).filter((j): j is number => j !== undefined));
  const children: number[][] = Array.from({ length: n }, () => []);
  deps.forEach((ds, i) => ds.forEach((d) => children[d]!.push(i)));
  // Position of a node within its column, normalised to 0..1 so columns of different sizes compare.
  const pos = new Float64Array(n);
  const place = (c: number[]): void => c.forEach((i, k) => (pos[i] = c.length === 1 ? 0.5 : k / (c.length - 1)));
  columns.forEach(place);
  const key = new Float64Array(n);
  const reorder = (c: number[], neighbours: number[][]): void => {
    for (const i of c) {
      const ns = neighbours[i]!;
      if (ns.length === 0) key[i] = pos[i]!;
      else {
        let sum = 0;
        for (const j of ns) sum += pos[j]!;
        key[i] = sum / ns.length;
      }
    }
    c.sort((a, b) => key[a]! - key[b]! || a - b);
    place(c);
  };
  for (let s = 0; s < sweeps; s++) {
    if (s % 2 === 0) for (let k = 1; k < columns.length; k++) reorder(columns[k]!, deps);
    else for (let k = columns.length - 2; k >= 0; k--) reorder(columns[k]!, children);
  }
  const tallest = Math.max(1, ...columns.map((c) => c.length));
  const x = new Float64Array(n);
  const y = new Float64Array(n);
  const usedColumns = columns.filter((c) => c.length > 0);
  usedColumns.forEach((c, k) => {
    const offset = ((tallest - c.length) * (NODE_H + GAP_Y)) / 2;
    c.forEach((i, r) => {
      x[i] = k * (NODE_W + GAP_X) + NODE_W / 2;
      y[i] = offset + r * (NODE_H + GAP_Y) + NODE_H / 2;
    });
  });
  return { x, y, width: Math.max(NODE_W, usedColumns.length * (NODE_W + GAP_X) - GAP_X), height: tallest * (NODE_H + GAP_Y) - GAP_Y };
}
