/**
 * Every task of the campaign as a list that stays fast at 10,000 rows: fixed-height rows, and only
 * the rows in view (plus a margin) exist in the DOM. Filter by status and by text (seq, slug,
 * description, runner, reason); a click selects the task in the graph.
 */
import type { DashboardTask } from '../../src/serve/model.js';
import { duration, h, seqLabel } from './dom.js';
import { displayStatus } from './graph-view.js';

const ROW = 30;
const MARGIN = 30;

export class TaskList {
  readonly element: HTMLElement;
  private readonly viewport: HTMLElement;
  private readonly spacer: HTMLElement;
  private readonly rows: HTMLElement;
  private readonly count: HTMLElement;
  private readonly search: HTMLInputElement;
  private readonly statusFilter: HTMLSelectElement;
  private all: DashboardTask[] = [];
  private shown: DashboardTask[] = [];
  private selected: number | undefined;
  private frame = 0;
  onSelect: (seq: number) => void = () => undefined;
  now: () => number = () => Date.now();

  constructor() {
    this.search = h('input', { type: 'search', placeholder: 'Find a task: seq, slug, runner, reason…', 'aria-label': 'Find a task' });
    this.statusFilter = h(
      'select',
      { 'aria-label': 'Status' },
      ...['all', 'ready', 'in_progress', 'pending', 'blocked', 'unreachable', 'complete', 'critical'].map((s) => h('option', { value: s }, s === 'all' ? 'every status' : s.replace('_', ' '))),
    );
    this.count = h('span', { class: 'muted' });
    this.spacer = h('div', { class: 'vlist-spacer' });
    this.rows = h('div', { class: 'vlist-rows', role: 'list' });
    this.viewport = h('div', { class: 'vlist', tabindex: 0 }, this.spacer, this.rows);
    this.element = h('div', { class: 'task-list' }, h('div', { class: 'toolbar' }, this.search, this.statusFilter, this.count), this.viewport);
    this.search.addEventListener('input', () => this.refilter());
    this.statusFilter.addEventListener('change', () => this.refilter());
    this.viewport.addEventListener('scroll', () => this.schedule());
    new ResizeObserver(() => this.schedule()).observe(this.viewport);
    this.rows.addEventListener('click', (e) => {
      const row = (e.target as HTMLElement).closest<HTMLElement>('[data-seq]');
      if (row !== null) this.onSelect(Number(row.dataset.seq));
    });
  }

  setTasks(tasks: DashboardTask[]): void {
    this.all = tasks;
    this.refilter();
  }

  select(seq: number | undefined): void {
    this.selected = seq;
    const i = seq === undefined ? -1 : this.shown.findIndex((t) => t.seq === seq);
    if (i >= 0) {
      const top = i * ROW;
      if (top < this.viewport.scrollTop || top > this.viewport.scrollTop + this.viewport.clientHeight - ROW) this.viewport.scrollTop = Math.max(0, top - this.viewport.clientHeight / 2);
    }
    this.schedule();
  }

  /** Repaints the rows in view (lease countdowns). */
  tick(): void {
    this.schedule();
  }

  private refilter(): void {
    const q = this.search.value.trim().toLowerCase();
    const status = this.statusFilter.value;
    this.shown = this.all.filter((t) => {
      if (status === 'critical' ? t.critical !== true : status !== 'all' && displayStatus(t) !== status && t.status !== status) return false;
      if (q === '') return true;
      return [seqLabel(t.seq), String(t.seq), t.slug, t.description ?? '', t.runner ?? '', t.reason ?? '', t.lease?.runner ?? ''].some((s) => s.toLowerCase().includes(q));
    });
    this.count.textContent = this.shown.length === this.all.length ? `${this.all.length} tasks` : `${this.shown.length} of ${this.all.length}`;
    this.spacer.style.height = `${this.shown.length * ROW}px`;
    this.schedule();
  }

  private schedule(): void {
    if (this.frame !== 0) return;
    this.frame = requestAnimationFrame(() => {
      this.frame = 0;
      this.render();
    });
  }

  private render(): void {
    const top = this.viewport.scrollTop;
    const height = this.viewport.clientHeight || 400;
    const first = Math.max(0, Math.floor(top / ROW) - MARGIN);
    const last = Math.min(this.shown.length, Math.ceil((top + height) / ROW) + MARGIN);
    this.rows.style.transform = `translateY(${first * ROW}px)`;
    const now = this.now();
    const out: HTMLElement[] = [];
    for (let i = first; i < last; i++) out.push(this.row(this.shown[i]!, now));
    this.rows.replaceChildren(...out);
  }

  private row(t: DashboardTask, now: number): HTMLElement {
    const status = displayStatus(t);
    const who = t.lease !== undefined && !t.lease.expired ? `${t.lease.runner} · ${duration(Date.parse(t.lease.until) - now)} left` : (t.runner ?? '');
    const note = t.status === 'blocked' ? (t.reason ?? (t.cascade === true ? `cascade from ${seqLabel(t.rootCause ?? 0)}` : '')) : t.unreachable !== undefined ? `waits on blocked ${seqLabel(t.unreachable.rootCause)}` : (t.description ?? '');
    return h(
      'div',
      { class: `vrow${t.seq === this.selected ? ' selected' : ''}`, role: 'listitem', 'data-seq': t.seq, 'data-status': status },
      h('span', { class: `dot bg-${status}` }),
      h('span', { class: 'seq' }, seqLabel(t.seq)),
      h('span', { class: 'slug' }, t.slug),
      h('span', { class: `status s-${status}` }, status.replace('_', ' ')),
      h('span', { class: 'who' }, who),
      h('span', { class: 'note', title: note }, note),
      t.critical === true ? h('span', { class: 'crit', title: 'on the critical path' }, 'critical') : null,
    );
  }
}
