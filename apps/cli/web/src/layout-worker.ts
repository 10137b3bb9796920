/**
 * The layout worker: d3-dag's Sugiyama layout for graphs it handles in well under a second, the
 * wave layout above that (layout.ts says why). Any failure of the library falls back to the waves.
 */
import { coordGreedy, coordQuad, decrossTwoLayer, graphStratify, layeringLongestPath, sugiyama, twolayerAgg } from 'd3-dag';
import { GAP_X, GAP_Y, NODE_H, NODE_W, QUAD_LIMIT, SUGIYAMA_LIMIT, dummyCount, waveLayout, type LayoutRequest, type LayoutResult } from './layout.js';

interface WorkerScope {
  onmessage: ((event: MessageEvent<LayoutRequest>) => void) | null;
  postMessage(message: LayoutResult): void;
}
const scope = self as unknown as WorkerScope;

function sugiyamaLayout(request: LayoutRequest, size: number): Omit<LayoutResult, 'id' | 'ms'> {
  const { tasks } = request;
  const ids = new Set(tasks.map((t) => t.seq));
  const dag = graphStratify()(tasks.map((t) => ({ id: String(t.seq), parentIds: t.depends.filter((d) => ids.has(d)).map(String) })));
  // d3-dag lays out top to bottom; the page reads left to right, so its width is our height.
  const layout = sugiyama()
    .layering(layeringLongestPath().topDown(true))
    .decross(decrossTwoLayer().order(twolayerAgg()).passes(size <= QUAD_LIMIT ? 8 : 2))
    .coord(size <= QUAD_LIMIT ? coordQuad() : coordGreedy())
    .nodeSize([NODE_H, NODE_W])
    .gap([GAP_Y, GAP_X]);
  const { width, height } = layout(dag);
  const index = new Map(tasks.map((t, i) => [String(t.seq), i]));
  const x = new Float64Array(tasks.length);
  const y = new Float64Array(tasks.length);
  for (const node of dag.nodes()) {
    const i = index.get(node.data.id)!;
    x[i] = node.y;
    y[i] = node.x;
  }
  const routes: NonNullable<LayoutResult['routes']> = [];
  for (const link of dag.links()) {
    const child = index.get(link.target.data.id)!;
    const dep = tasks[child]!.depends.indexOf(Number(link.source.data.id));
    const points: number[] = [];
    for (const [px, py] of link.points.slice(1, -1)) points.push(py, px);
    if (points.length > 0) routes.push({ child, dep, points });
  }
  return { engine: 'd3-dag', x, y, width: height, height: width, routes };
}

scope.onmessage = (event) => {
  const request = event.data;
  const started = performance.now();
  let result: Omit<LayoutResult, 'id' | 'ms'> | undefined;
  const size = request.tasks.length + dummyCount(request.tasks);
  if (request.tasks.length > 0 && size <= SUGIYAMA_LIMIT) {
    try {
      result = sugiyamaLayout(request, size);
    } catch {
      result = undefined;
    }
  }
  result ??= { engine: 'waves', ...waveLayout(request.tasks) };
  scope.postMessage({ id: request.id, ...result, ms: performance.now() - started });
};
