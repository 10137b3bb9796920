/**
 * The dashboard page: one EventSource to the server (a snapshot, then patches), the graph laid out
 * in a worker and drawn on a canvas, and the panels. Read-only: nothing here sends anything back.
 */
import type { DashboardTask, Snapshot, SnapshotPatch } from '../../src/serve/model.js';
import { ClientState, type Change } from './client-state.js';
import { ago, fill, h } from './dom.js';
import { GraphView, STATUS_COLORS } from './graph-view.js';
import type { LayoutRequest, LayoutResult } from './layout.js';
import * as panels from './panels.js';
import { TaskList } from './task-list.js';

const $ = <T extends HTMLElement>(id: string): T => {
  const el = document.getElementById(id);
  if (el === null) throw new Error(`the page has no #${id}`);
  return el as T;
};

const state = new ClientState();
const graph = new GraphView($('graph'));
const list = new TaskList();
$('task-list').appendChild(list.element);
const worker = new Worker(new URL('./layout-worker.js', import.meta.url), { type: 'module' });
let selected: number | undefined;
let layoutId = 0;
/** The tasks (in order) the current layout was computed for. */
let laidOut: DashboardTask[] = [];

graph.now = list.now = () => state.now();

function select(seq: number | undefined, center = true): void {
  selected = seq;
  graph.select(seq, center);
  list.select(seq);
  panels.renderTaskDetail($('task-detail'), seq === undefined ? undefined : state.task(seq), state.now(), (s) => select(s));
}
graph.onSelect = (seq) => select(seq, false);
list.onSelect = (seq) => select(seq);

const tooltip = $('tooltip');
graph.onHover = (seq, x, y) => {
  const t = seq === undefined ? undefined : state.task(seq);
  tooltip.hidden = t === undefined;
  if (t === undefined) return;
  fill(tooltip, h('strong', null, `${String(t.seq).padStart(3, '0')} ${t.slug}`), h('div', null, t.description ?? ''), h('div', { class: 'muted' }, `${t.status.replace('_', ' ')}${t.runner === undefined ? '' : ` · ${t.runner}`}${t.reason === undefined ? '' : ` · ${t.reason}`}`));
  tooltip.style.left = `${x + 14}px`;
  tooltip.style.top = `${y + 14}px`;
};

worker.onmessage = (event: MessageEvent<LayoutResult>) => {
  if (event.data.id !== layoutId) return;
  const tasks = state.snapshot?.campaign?.tasks ?? [];
  // Positions are in the order the request listed the tasks; map them onto the current list.
  const bySeq = new Map(laidOut.map((t, i) => [t.seq, i]));
  const x = new Float64Array(tasks.length);
  const y = new Float64Array(tasks.length);
  let complete = true;
  tasks.forEach((t, i) => {
    const j = bySeq.get(t.seq);
    if (j === undefined) complete = false;
    else {
      x[i] = event.data.x[j]!;
      y[i] = event.data.y[j]!;
    }
  });
  if (!complete) return relayout();
  const indexOf = new Map(tasks.map((t, i) => [t.seq, i]));
  const routes = (event.data.routes ?? []).map((r) => ({ ...r, child: indexOf.get(laidOut[r.child]!.seq)! }));
  // A small graph gets a canvas its size; a large one a fixed window onto it.
  $('graph').style.height = `${event.data.engine === 'd3-dag' ? Math.min(560, Math.max(220, event.data.height + 64)) : 560}px`;
  graph.setData(tasks, { ...event.data, x, y, routes });
  $('graph-info').textContent = `${event.data.engine === 'd3-dag' ? 'Sugiyama (d3-dag)' : 'wave layout'}, ${Math.round(event.data.ms)} ms`;
  $('graph-info').title = `${tasks.length} tasks laid out by ${event.data.engine === 'd3-dag' ? "d3-dag's Sugiyama layout" : 'waves (too many for a Sugiyama layout in time)'} in ${Math.round(event.data.ms)} ms`;
};

function relayout(): void {
  const tasks = state.snapshot?.campaign?.tasks ?? [];
  laidOut = tasks;
  layoutId++;
  const request: LayoutRequest = { id: layoutId, tasks: tasks.map((t) => ({ seq: t.seq, depends: t.depends, wave: t.wave })) };
  worker.postMessage(request);
}

function renderAll(change: Change): void {
  const s = state.snapshot!;
  const now = state.now();
  const has = (k: string): boolean => change.full || change.sections.has(k);
  const campaignChanged = has('campaign') || has('tasks');
  fill($('project'), s.project.name);
  $('project').title = s.project.root;
  fill($('backend'), s.backend.kind === 'file' ? 'files' : s.backend.location);
  if (has('errors')) panels.renderErrors($('errors'), s.errors);
  if (campaignChanged || has('archive')) {
    panels.renderCampaignHeader($('campaign-header'), s.campaign, s.archive);
    $('graph-section').hidden = s.campaign === null;
    panels.renderReady($('ready'), s.campaign, select);
    panels.renderCriticalPath($('critical'), s.campaign, select);
    panels.renderBlocked($('blocked'), s.campaign, select);
    panels.renderClaims($('claims'), s.campaign, now, select);
    list.setTasks(s.campaign?.tasks ?? []);
    if (change.relayout) relayout();
    else graph.update(s.campaign?.tasks ?? []);
    if (selected !== undefined) panels.renderTaskDetail($('task-detail'), state.task(selected), now, (q) => select(q));
  }
  if (has('archive')) panels.renderArchive($('archive'), s, now);
  if (has('waiting')) {
    panels.renderWaiting($('waiting'), s, now);
    fill($('waiting-count'), String(s.waiting.length));
    $('waiting-count').hidden = s.waiting.length === 0;
  }
  if (has('session')) panels.renderSession($('session'), s, now);
  if (has('flows')) panels.renderFlows($('flows'), s);
  if (has('jixo')) panels.renderJixo($('jixo'), s, now);
  if (has('refusals')) panels.renderRefusals($('refusals'), s, now);
  if (has('activity')) panels.renderActivity($('activity'), s, now);
  $('updated').dataset.at = s.now;
  fill($('updated'), `updated ${ago(s.now, now)}`);
  document.body.dataset.version = String(Number(document.body.dataset.version ?? '0') + 1);
}

state.onChange(renderAll);

// Legend, once.
fill(
  $('legend'),
  Object.entries({ ready: 'ready', in_progress: 'in progress', pending: 'pending', complete: 'complete', blocked: 'blocked', unreachable: 'held by a block' }).map(([k, label]) => {
    const dot = h('span', { class: 'dot' });
    dot.style.background = STATUS_COLORS[k]!;
    return h('span', { class: 'legend-item' }, dot, label);
  }),
  h('span', { class: 'legend-item' }, h('span', { class: 'dot crit-dot' }), 'critical path'),
);
$('fit').addEventListener('click', () => graph.fit());
$('zoom-in').addEventListener('click', () => graph.zoom(1.3));
$('zoom-out').addEventListener('click', () => graph.zoom(1 / 1.3));

// Once a second: leases count down, "updated 3s ago" ages. Only what shows time is repainted.
setInterval(() => {
  const s = state.snapshot;
  if (s === undefined) return;
  const now = state.now();
  if (graph.hasVisibleLeases()) {
    graph.repaint();
    list.tick();
    panels.renderClaims($('claims'), s.campaign, now, select);
  }
  fill($('updated'), `updated ${ago(s.now, now)}`);
}, 1000);

const live = $('live');
function connect(): void {
  const events = new EventSource('/api/events');
  events.addEventListener('open', () => {
    live.dataset.state = 'live';
    live.textContent = 'live';
  });
  events.addEventListener('error', () => {
    live.dataset.state = 'down';
    live.textContent = 'reconnecting…';
  });
  events.addEventListener('snapshot', (e) => {
    try {
      state.load(JSON.parse((e as MessageEvent<string>).data) as Snapshot);
    } catch (err) {
      live.dataset.state = 'down';
      live.textContent = (err as Error).message;
      events.close();
    }
  });
  events.addEventListener('patch', (e) => state.apply(JSON.parse((e as MessageEvent<string>).data) as SnapshotPatch));
}
connect();
