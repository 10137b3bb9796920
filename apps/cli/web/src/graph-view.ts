/**
 * The campaign graph on a canvas: one draw call per visible node, edges batched per style, only
 * what is in view is drawn, and labels only where they are legible, so 10,000 tasks pan and zoom
 * smoothly. Positions come from the layout worker and change only when the graph's shape does;
 * status changes repaint in place. Hit-testing goes through a uniform grid over node boxes.
 */
import type { DashboardTask } from '../../src/serve/model.js';
import { duration, seqLabel } from './dom.js';
import { NODE_H, NODE_W, type LayoutResult } from './layout.js';

export const STATUS_COLORS: Record<string, string> = {
  pending: '#94a3b8',
  ready: '#2563eb',
  in_progress: '#d97706',
  complete: '#059669',
  blocked: '#dc2626',
  unreachable: '#f87171',
};

/** What a task looks like: its status, refined (ready, unreachable below a block). */
export function displayStatus(t: DashboardTask): string {
  if (t.status === 'pending' && t.ready === true) return 'ready';
  if (t.status === 'pending' && t.unreachable !== undefined) return 'unreachable';
  return t.status;
}

const CRITICAL = '#7c3aed';
const SELECTED = '#0f172a';
const CELL = 256;

export class GraphView {
  readonly canvas: HTMLCanvasElement;
  private readonly ctx: CanvasRenderingContext2D;
  private tasks: DashboardTask[] = [];
  private layout: LayoutResult | undefined;
  private index = new Map<number, number>();
  private grid = new Map<string, number[]>();
  private routes = new Map<string, number[]>();
  private scale = 1;
  private tx = 0;
  private ty = 0;
  private width = 0;
  private height = 0;
  private frame = 0;
  private selected: number | undefined;
  private hovered: number | undefined;
  /** The user panned or zoomed: a resize or new layout keeps their view instead of fitting. */
  private userMoved = false;
  /** When the first full drawing of a layout finished (performance.now()). */
  drawnAt: number | undefined;
  onSelect: (seq: number | undefined) => void = () => undefined;
  onHover: (seq: number | undefined, x: number, y: number) => void = () => undefined;
  /** The server's clock, for lease countdowns. */
  now: () => number = () => Date.now();

  constructor(private readonly host: HTMLElement) {
    this.canvas = document.createElement('canvas');
    this.canvas.setAttribute('role', 'img');
    this.canvas.setAttribute('aria-label', 'Campaign dependency graph');
    this.canvas.tabIndex = 0;
    host.appendChild(this.canvas);
    const ctx = this.canvas.getContext('2d', { alpha: false });
    if (ctx === null) throw new Error('this browser gives no 2D canvas');
    this.ctx = ctx;
    new ResizeObserver(() => this.resize()).observe(host);
    this.resize();
    this.bindInput();
  }

  /** New tasks and, when the shape changed, a new layout (tasks in the layout's order). */
  setData(tasks: DashboardTask[], layout?: LayoutResult): void {
    this.tasks = tasks;
    this.index = new Map(tasks.map((t, i) => [t.seq, i]));
    if (layout !== undefined) {
      this.layout = layout;
      this.routes = new Map((layout.routes ?? []).map((r) => [`${r.child}:${r.dep}`, r.points]));
      this.buildGrid();
      if (!this.userMoved) this.fit();
      this.drawnAt = undefined;
      this.canvas.dataset.layout = layout.engine;
      this.canvas.dataset.nodes = String(tasks.length);
    }
    this.repaint();
  }

  /** Tasks changed in place (statuses, runners, leases): same positions. */
  update(tasks: DashboardTask[]): void {
    this.tasks = tasks;
    this.repaint();
  }

  select(seq: number | undefined, center = false): void {
    this.selected = seq;
    if (center && seq !== undefined && this.layout !== undefined) {
      const i = this.index.get(seq);
      if (i !== undefined) {
        if (this.scale < 0.8) this.scale = 1;
        this.tx = this.width / 2 - this.layout.x[i]! * this.scale;
        this.ty = this.height / 2 - this.layout.y[i]! * this.scale;
      }
    }
    this.repaint();
  }

  fit(): void {
    if (this.layout === undefined || this.width === 0) return;
    this.userMoved = false;
    const pad = 24;
    const s = Math.min((this.width - 2 * pad) / Math.max(1, this.layout.width), (this.height - 2 * pad) / Math.max(1, this.layout.height), 1.25);
    // Very large graphs fit as a mosaic too small to read: start where the work is instead (the
    // tasks in progress or ready, else the first unfinished one).
    this.scale = Math.max(s, this.tasks.length > 2000 ? 0.2 : 0.02);
    if (this.scale === s) {
      this.tx = (this.width - this.layout.width * s) / 2;
      this.ty = (this.height - this.layout.height * s) / 2;
    } else {
      const l = this.layout;
      const active = this.tasks.map((t, i) => (t.status === 'in_progress' || t.ready === true ? i : -1)).filter((i) => i >= 0);
      const focus = active.length > 0 ? active : this.tasks.map((t, i) => (t.status !== 'complete' ? i : -1)).filter((i) => i >= 0).slice(0, 1);
      const cx = focus.length === 0 ? l.width / 2 : focus.reduce((sum, i) => sum + l.x[i]!, 0) / focus.length;
      const cy = focus.length === 0 ? l.height / 2 : focus.reduce((sum, i) => sum + l.y[i]!, 0) / focus.length;
      this.tx = this.width / 2 - cx * this.scale;
      this.ty = this.height / 2 - cy * this.scale;
    }
    this.repaint();
  }

  zoom(factor: number, cx = this.width / 2, cy = this.height / 2): void {
    this.userMoved = true;
    const next = Math.min(4, Math.max(0.01, this.scale * factor));
    this.tx = cx - ((cx - this.tx) * next) / this.scale;
    this.ty = cy - ((cy - this.ty) * next) / this.scale;
    this.scale = next;
    this.repaint();
  }

  /** Whether any task on screen has a live lease (the page repaints once a second for its countdown). */
  hasVisibleLeases(): boolean {
    return this.tasks.some((t) => t.lease !== undefined && !t.lease.expired);
  }

  repaint(): void {
    if (this.frame !== 0) return;
    this.frame = requestAnimationFrame(() => {
      this.frame = 0;
      this.draw();
    });
  }

  private resize(): void {
    const rect = this.host.getBoundingClientRect();
    const dpr = window.devicePixelRatio || 1;
    this.width = Math.max(1, rect.width);
    this.height = Math.max(1, rect.height);
    this.canvas.width = Math.round(this.width * dpr);
    this.canvas.height = Math.round(this.height * dpr);
    this.canvas.style.width = `${this.width}px`;
    this.canvas.style.height = `${this.height}px`;
    if (!this.userMoved) this.fit();
    this.repaint();
  }

  private buildGrid(): void {
    this.grid.clear();
    const l = this.layout!;
    for (let i = 0; i < l.x.length; i++) {
      const x0 = Math.floor((l.x[i]! - NODE_W / 2) / CELL);
      const x1 = Math.floor((l.x[i]! + NODE_W / 2) / CELL);
      const y0 = Math.floor((l.y[i]! - NODE_H / 2) / CELL);
      const y1 = Math.floor((l.y[i]! + NODE_H / 2) / CELL);
      for (let gx = x0; gx <= x1; gx++) {
        for (let gy = y0; gy <= y1; gy++) {
          const key = `${gx},${gy}`;
          const cell = this.grid.get(key);
          if (cell === undefined) this.grid.set(key, [i]);
          else cell.push(i);
        }
      }
    }
  }

  /** The task under a point of the canvas (CSS pixels), if any. */
  hit(px: number, py: number): number | undefined {
    if (this.layout === undefined) return undefined;
    const x = (px - this.tx) / this.scale;
    const y = (py - this.ty) / this.scale;
    const cell = this.grid.get(`${Math.floor(x / CELL)},${Math.floor(y / CELL)}`) ?? [];
    for (const i of cell) {
      if (Math.abs(x - this.layout.x[i]!) <= NODE_W / 2 && Math.abs(y - this.layout.y[i]!) <= NODE_H / 2) return this.tasks[i]?.seq;
    }
    return undefined;
  }

  private bindInput(): void {
    let drag: { x: number; y: number; tx: number; ty: number; moved: boolean } | undefined;
    this.canvas.addEventListener('pointerdown', (e) => {
      drag = { x: e.clientX, y: e.clientY, tx: this.tx, ty: this.ty, moved: false };
      this.canvas.setPointerCapture(e.pointerId);
    });
    this.canvas.addEventListener('pointermove', (e) => {
      const rect = this.canvas.getBoundingClientRect();
      if (drag !== undefined) {
        const dx = e.clientX - drag.x;
        const dy = e.clientY - drag.y;
        if (Math.abs(dx) + Math.abs(dy) > 3) drag.moved = true;
        this.tx = drag.tx + dx;
        this.ty = drag.ty + dy;
        this.userMoved = true;
        this.repaint();
        return;
      }
      const seq = this.hit(e.clientX - rect.left, e.clientY - rect.top);
      if (seq !== this.hovered) {
        this.hovered = seq;
        this.canvas.style.cursor = seq === undefined ? 'grab' : 'pointer';
        this.repaint();
      }
      this.onHover(seq, e.clientX, e.clientY);
    });
    this.canvas.addEventListener('pointerup', (e) => {
      const rect = this.canvas.getBoundingClientRect();
      if (drag !== undefined && !drag.moved) {
        const seq = this.hit(e.clientX - rect.left, e.clientY - rect.top);
        this.selected = seq;
        this.onSelect(seq);
        this.repaint();
      }
      drag = undefined;
    });
    this.canvas.addEventListener('pointerleave', () => {
      this.hovered = undefined;
      this.onHover(undefined, 0, 0);
      this.repaint();
    });
    this.canvas.addEventListener(
      'wheel',
      (e) => {
        e.preventDefault();
        const rect = this.canvas.getBoundingClientRect();
        this.zoom(Math.exp(-e.deltaY * 0.0015), e.clientX - rect.left, e.clientY - rect.top);
      },
      { passive: false },
    );
    this.canvas.addEventListener('keydown', (e) => {
      const step = 60;
      if (e.key === '+' || e.key === '=') this.zoom(1.25);
      else if (e.key === '-') this.zoom(0.8);
      else if (e.key === '0') {
        this.userMoved = false;
        this.fit();
      }
      else if (e.key === 'ArrowLeft') this.tx += step;
      else if (e.key === 'ArrowRight') this.tx -= step;
      else if (e.key === 'ArrowUp') this.ty += step;
      else if (e.key === 'ArrowDown') this.ty -= step;
      else return;
      e.preventDefault();
      this.repaint();
    });
  }

  private draw(): void {
    const ctx = this.ctx;
    const dpr = window.devicePixelRatio || 1;
    ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
    ctx.fillStyle = '#f8fafc';
    ctx.fillRect(0, 0, this.width, this.height);
    const l = this.layout;
    if (l === undefined || this.tasks.length === 0 || l.x.length !== this.tasks.length) return;
    ctx.setTransform(dpr * this.scale, 0, 0, dpr * this.scale, dpr * this.tx, dpr * this.ty);
    // The visible rectangle in layout coordinates, with a node's margin.
    const vx0 = -this.tx / this.scale - NODE_W;
    const vy0 = -this.ty / this.scale - NODE_H;
    const vx1 = (this.width - this.tx) / this.scale + NODE_W;
    const vy1 = (this.height - this.ty) / this.scale + NODE_H;
    const visible = (i: number): boolean => l.x[i]! >= vx0 && l.x[i]! <= vx1 && l.y[i]! >= vy0 && l.y[i]! <= vy1;

    const routes = this.routes;
    const focus = this.selected ?? this.hovered;
    const plain = new Path2D();
    const critical = new Path2D();
    const focused = new Path2D();
    for (let i = 0; i < this.tasks.length; i++) {
      const t = this.tasks[i]!;
      const deps = t.depends;
      for (let k = 0; k < deps.length; k++) {
        const j = this.index.get(deps[k]!);
        if (j === undefined) continue;
        const x0 = l.x[j]! + NODE_W / 2;
        const y0 = l.y[j]!;
        const x1 = l.x[i]! - NODE_W / 2;
        const y1 = l.y[i]!;
        // Edges entirely outside the view are skipped (their bounding box misses it).
        if (Math.max(x0, x1) < vx0 || Math.min(x0, x1) > vx1 || Math.max(y0, y1) < vy0 || Math.min(y0, y1) > vy1) continue;
        const onFocus = focus !== undefined && (t.seq === focus || deps[k] === focus);
        const path = onFocus ? focused : t.critical === true && this.tasks[j]!.critical === true ? critical : plain;
        const points = routes.get(`${i}:${k}`);
        path.moveTo(x0, y0);
        if (points === undefined) {
          const mid = (x0 + x1) / 2;
          path.bezierCurveTo(mid, y0, mid, y1, x1, y1);
        } else {
          for (let p = 0; p < points.length; p += 2) path.lineTo(points[p]!, points[p + 1]!);
          path.lineTo(x1, y1);
        }
      }
    }
    const px = 1 / this.scale;
    ctx.lineWidth = Math.max(1, 1.2 * px);
    ctx.strokeStyle = focus === undefined ? 'rgba(100,116,139,0.45)' : 'rgba(148,163,184,0.25)';
    ctx.stroke(plain);
    ctx.lineWidth = Math.max(2, 2.5 * px);
    ctx.strokeStyle = CRITICAL;
    ctx.globalAlpha = 0.7;
    ctx.stroke(critical);
    ctx.globalAlpha = 1;
    ctx.lineWidth = Math.max(2, 2.5 * px);
    ctx.strokeStyle = SELECTED;
    ctx.stroke(focused);

    const detail = this.scale >= 0.45;
    // Below legible size a node is its status colour: the overview reads as where the work is.
    const tiny = !detail;
    const now = this.now();
    ctx.textBaseline = 'middle';
    for (let i = 0; i < this.tasks.length; i++) {
      if (!visible(i)) continue;
      const t = this.tasks[i]!;
      const status = displayStatus(t);
      const color = STATUS_COLORS[status] ?? '#94a3b8';
      const x = l.x[i]! - NODE_W / 2;
      const y = l.y[i]! - NODE_H / 2;
      if (tiny) {
        ctx.fillStyle = color;
        ctx.fillRect(x, y, NODE_W, NODE_H);
        if (t.critical === true) {
          ctx.strokeStyle = CRITICAL;
          ctx.lineWidth = 3 * px;
          ctx.strokeRect(x, y, NODE_W, NODE_H);
        }
        continue;
      }
      ctx.fillStyle = status === 'complete' ? '#ecfdf5' : status === 'blocked' || status === 'unreachable' ? '#fef2f2' : status === 'in_progress' ? '#fffbeb' : '#ffffff';
      ctx.beginPath();
      ctx.roundRect(x, y, NODE_W, NODE_H, 6);
      ctx.fill();
      ctx.lineWidth = t.critical === true ? Math.max(2, 2.5 * px) : Math.max(1, px);
      ctx.strokeStyle = t.seq === this.selected ? SELECTED : t.critical === true ? CRITICAL : '#cbd5e1';
      if (t.seq === this.selected) ctx.lineWidth = Math.max(2.5, 3 * px);
      ctx.stroke();
      ctx.fillStyle = color;
      ctx.beginPath();
      ctx.roundRect(x, y, 6, NODE_H, [6, 0, 0, 6]);
      ctx.fill();
      if (!detail) continue;
      ctx.fillStyle = '#0f172a';
      ctx.font = '600 12px system-ui, -apple-system, "Segoe UI", sans-serif';
      ctx.fillText(clip(ctx, `${seqLabel(t.seq)} ${t.slug}`, NODE_W - 18), x + 12, y + 13);
      ctx.font = '11px system-ui, -apple-system, "Segoe UI", sans-serif';
      ctx.fillStyle = status === 'blocked' || status === 'unreachable' ? '#b91c1c' : '#475569';
      ctx.fillText(clip(ctx, subtitle(t, status, now), NODE_W - 18), x + 12, y + 27);
    }
    if (this.drawnAt === undefined) {
      this.drawnAt = performance.now();
      this.canvas.dataset.drawn = 'true';
      performance.mark('ratchet-graph-drawn');
    }
  }
}

function subtitle(t: DashboardTask, status: string, now: number): string {
  if (t.lease !== undefined && !t.lease.expired && t.status === 'in_progress') return `${t.lease.runner} · ${duration(Date.parse(t.lease.until) - now)} left`;
  if (t.status === 'in_progress') return t.runner === undefined ? 'in progress' : `${t.runner} · no lease`;
  if (status === 'unreachable') return `waits on blocked ${seqLabel(t.unreachable!.rootCause)}`;
  if (t.status === 'blocked') return t.reason ?? (t.cascade === true ? 'blocked by cascade' : 'blocked');
  if (status === 'ready') return `ready · ${t.type}`;
  return `${t.status.replace('_', ' ')} · ${t.type}`;
}

/** The text cut to fit `max` pixels, with an ellipsis. */
function clip(ctx: CanvasRenderingContext2D, text: string, max: number): string {
  if (ctx.measureText(text).width <= max) return text;
  let lo = 0;
  let hi = text.length;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (ctx.measureText(`${text.slice(0, mid)}…`).width <= max) lo = mid;
    else hi = mid - 1;
  }
  return `${text.slice(0, lo)}…`;
}
