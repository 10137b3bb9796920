/**
 * The page's panels, each a pure function of the snapshot into its container. Text only (dom.ts):
 * every string here may be user data.
 */
import type { CampaignView, DashboardTask, Snapshot, SourceError } from '../../src/serve/model.js';
import { ago, copyButton, duration, fill, h, seqLabel, type Child } from './dom.js';

function empty(text: string): HTMLElement {
  return h('p', { class: 'empty' }, text);
}

function place(e: { file?: string; line?: number; column?: number }): string {
  if (e.file === undefined) return '';
  return e.line === undefined ? e.file : `${e.file}:${e.line}:${e.column ?? 1}`;
}

export function renderErrors(el: HTMLElement, errors: readonly SourceError[]): void {
  el.hidden = errors.length === 0;
  fill(
    el,
    h('strong', null, `${errors.length} state file${errors.length === 1 ? '' : 's'} could not be read; the rest of the page is live.`),
    h(
      'ul',
      null,
      errors.map((e) =>
        h(
          'li',
          { 'data-source': e.source },
          h('code', null, place(e) || e.source),
          ': ',
          e.message,
          h('span', { class: 'muted' }, ` [${e.source}, ${e.code}]`),
          e.problems !== undefined ? h('ul', null, e.problems.map((p) => h('li', null, h('code', null, place(p)), ': ', p.message))) : null,
        ),
      ),
    ),
    h('p', { class: 'muted' }, 'Repair with `ratchet doctor` (it restores the last good version or accepts the edit); never edit state by hand.'),
  );
}

export function renderCampaignHeader(el: HTMLElement, c: CampaignView | null, archived: Snapshot['archive']): void {
  if (c === null) {
    fill(el, h('h2', null, 'No active campaign'), h('p', { class: 'muted' }, 'Start one with ', h('code', null, 'ratchet campaign create "<objective>"'), archived.length > 0 ? ` (${archived.length} archived below)` : ''));
    return;
  }
  const total = c.tasks.length;
  const bar = h('div', { class: 'progress', role: 'img', 'aria-label': `${c.counts.complete} of ${total} complete` });
  for (const [status, n] of [
    ['complete', c.counts.complete],
    ['in_progress', c.counts.in_progress],
    ['blocked', c.counts.blocked],
    ['pending', c.counts.pending],
  ] as const) {
    if (n === 0) continue;
    const seg = h('span', { class: `bg-${status}`, title: `${n} ${status.replace('_', ' ')}` });
    seg.style.flexGrow = String(n);
    bar.appendChild(seg);
  }
  const stat = (label: string, value: Child, cls = ''): HTMLElement => h('div', { class: `stat ${cls}` }, h('span', { class: 'value' }, value), h('span', { class: 'label' }, label));
  fill(
    el,
    h('div', { class: 'title-row' }, h('h2', { class: 'objective' }, c.objective), h('span', { class: 'chip' }, c.phase ?? '?'), h('span', { class: `chip state-${c.state}` }, c.state.replace('_', ' '))),
    h('div', { class: 'muted small' }, `campaign ${c.id}`, c.framework === null ? '' : ` · ${c.framework}`, ` · ${c.where}`),
    bar,
    h(
      'div',
      { class: 'stats' },
      stat('tasks', total),
      stat('complete', c.counts.complete, 'c-complete'),
      stat('in progress', c.counts.in_progress, 'c-in_progress'),
      stat('ready', c.ready.length, 'c-ready'),
      stat('blocked', c.counts.blocked, 'c-blocked'),
      stat('waves', c.waves),
      stat('critical path', c.criticalPath.length, 'c-critical'),
    ),
  );
}

export function renderClaims(el: HTMLElement, c: CampaignView | null, now: number, select: (seq: number) => void): void {
  const held = (c?.tasks ?? []).filter((t) => t.status === 'in_progress');
  if (held.length === 0) {
    fill(el, empty('Nobody holds a task.'));
    return;
  }
  // Soonest to run out first: those are the ones to watch.
  held.sort((a, b) => (a.lease === undefined ? 1 : b.lease === undefined ? -1 : Date.parse(a.lease.until) - Date.parse(b.lease.until)));
  fill(
    el,
    h(
      'table',
      { class: 'grid claims' },
      h('thead', null, h('tr', null, h('th', null, 'task'), h('th', null, 'runner'), h('th', null, 'lease'), h('th', null, 'attempt'))),
      h(
        'tbody',
        null,
        held.map((t) => {
          const left = t.lease === undefined ? undefined : Date.parse(t.lease.until) - now;
          const cls = left === undefined ? '' : left <= 0 ? 'expired' : left < 60_000 ? 'soon' : '';
          const row = h(
            'tr',
            { 'data-seq': t.seq, class: 'clickable' },
            h('td', null, h('span', { class: 'seq' }, seqLabel(t.seq)), ' ', t.slug),
            h('td', { class: 'runner' }, t.lease?.runner ?? t.runner ?? '?'),
            h('td', { class: `lease ${cls}`, 'data-until': t.lease?.until }, left === undefined ? 'no lease' : duration(left)),
            h('td', null, t.lease === undefined ? '' : String(t.lease.attempt)),
          );
          row.addEventListener('click', () => select(t.seq));
          return row;
        }),
      ),
    ),
  );
}

function taskChips(tasks: readonly number[], select: (seq: number) => void, max = 40): Child[] {
  const out: Child[] = tasks.slice(0, max).map((seq) => {
    const b = h('button', { type: 'button', class: 'chip-btn' }, seqLabel(seq));
    b.addEventListener('click', () => select(seq));
    return b;
  });
  if (tasks.length > max) out.push(h('span', { class: 'muted' }, ` +${tasks.length - max} more`));
  return out;
}

export function renderReady(el: HTMLElement, c: CampaignView | null, select: (seq: number) => void): void {
  if (c === null || c.ready.length === 0) {
    fill(el, empty(c === null ? 'No campaign.' : 'Nothing is ready: every pending task waits on another.'));
    return;
  }
  fill(el, h('div', { class: 'chips' }, taskChips(c.ready, select)), h('p', { class: 'muted small' }, 'A builder takes the first with ', h('code', null, 'ratchet campaign ready --claim <runner> --lease 15m')));
}

export function renderCriticalPath(el: HTMLElement, c: CampaignView | null, select: (seq: number) => void): void {
  if (c === null || c.criticalPath.length === 0) {
    fill(el, empty(c === null ? 'No campaign.' : 'Nothing left to do.'));
    return;
  }
  const chain: Child[] = [];
  c.criticalPath.slice(0, 60).forEach((seq, i) => {
    if (i > 0) chain.push(h('span', { class: 'arrow' }, '→'));
    const b = h('button', { type: 'button', class: 'chip-btn crit' }, seqLabel(seq));
    b.addEventListener('click', () => select(seq));
    chain.push(b);
  });
  if (c.criticalPath.length > 60) chain.push(h('span', { class: 'muted' }, ` … ${c.criticalPath.length - 60} more`));
  fill(el, h('p', { class: 'muted small' }, `${c.criticalPath.length} tasks in a row: the least number of waves left, however many builders run.`), h('div', { class: 'chain' }, chain));
}

export function renderBlocked(el: HTMLElement, c: CampaignView | null, select: (seq: number) => void): void {
  const tasks = c?.tasks ?? [];
  const roots = tasks.filter((t) => t.status === 'blocked' && t.cascade !== true);
  if (roots.length === 0 && !tasks.some((t) => t.status === 'blocked' || t.unreachable !== undefined)) {
    fill(el, empty('Nothing is blocked.'));
    return;
  }
  // Each original failure with everything it holds up (blocked by cascade, or pending below it).
  const below = new Map<number, DashboardTask[]>();
  for (const t of tasks) {
    const root = t.status === 'blocked' && t.cascade === true ? t.rootCause : t.unreachable?.rootCause;
    if (root === undefined) continue;
    const list = below.get(root) ?? [];
    list.push(t);
    below.set(root, list);
  }
  const seqButton = (t: DashboardTask): HTMLElement => {
    const b = h('button', { type: 'button', class: 'link' }, `${seqLabel(t.seq)} ${t.slug}`);
    b.addEventListener('click', () => select(t.seq));
    return b;
  };
  fill(
    el,
    h(
      'ul',
      { class: 'blocked-list' },
      roots.map((t) => {
        const cascade = below.get(t.seq) ?? [];
        return h(
          'li',
          { 'data-seq': t.seq },
          h('div', null, seqButton(t), ' ', h('span', { class: 'reason' }, t.reason ?? 'no reason given')),
          cascade.length > 0 ? h('div', { class: 'cascade small' }, `holds up ${cascade.length}: `, taskChips(cascade.map((x) => x.seq), select, 20)) : null,
          h('div', { class: 'cmd small' }, h('code', null, `ratchet campaign update-task ${seqLabel(t.seq)} pending`), h('span', { class: 'muted' }, ' retries it (its cascade goes back to pending)')),
        );
      }),
    ),
  );
}

export function renderTaskDetail(el: HTMLElement, t: DashboardTask | undefined, now: number, select: (seq: number) => void): void {
  if (t === undefined) {
    fill(el, empty('Click a task in the graph or the list to see it here.'));
    return;
  }
  const row = (label: string, ...value: Child[]): HTMLElement => h('div', { class: 'kv' }, h('span', { class: 'k' }, label), h('span', { class: 'v' }, ...value));
  fill(
    el,
    h('h3', null, `${seqLabel(t.seq)} ${t.slug}`),
    t.description === undefined ? null : h('p', { class: 'description' }, t.description),
    row('status', `${t.status.replace('_', ' ')}${t.ready === true ? ' (ready)' : ''}${t.critical === true ? ' · critical path' : ''}`),
    row('type', t.type, ` · wave ${t.wave + 1}`),
    t.lease !== undefined ? row('lease', `${t.lease.runner}, attempt ${t.lease.attempt}, `, t.lease.expired ? 'expired' : `${duration(Date.parse(t.lease.until) - now)} left`) : t.runner !== undefined ? row('runner', t.runner) : null,
    t.reason === undefined ? null : row('reason', t.reason),
    t.unreachable === undefined ? null : row('waits on', `blocked ${seqLabel(t.unreachable.rootCause)} (through ${t.unreachable.blockedBy.map(seqLabel).join(', ')})`),
    t.cascade === true && t.rootCause !== undefined ? row('cascade', `from ${seqLabel(t.rootCause)}`) : null,
    row('depends on', t.depends.length === 0 ? 'nothing' : taskChips(t.depends, select)),
    t.verify === undefined ? null : row('verify', h('code', null, t.verify)),
    t.delta === undefined || t.delta.length === 0 ? null : row('delta', h('code', null, t.delta.join(', '))),
    (t.lostAttempts ?? []).length === 0 ? null : row('lost attempts', t.lostAttempts!.map((l) => `${l.runner} (attempt ${l.attempt}, lease ran out ${ago(l.leaseUntil, now)})`).join('; ')),
    t.updatedAt === undefined ? null : row('updated', ago(t.updatedAt, now)),
  );
}

export function renderWaiting(el: HTMLElement, s: Snapshot, now: number): void {
  if (s.waiting.length === 0) {
    fill(el, empty('Nothing waits for you.'));
    return;
  }
  const label: Record<string, string> = { action: 'your action', confirmation: 'confirm', proposal: 'proposal', clarification: 'clarify', 'halted-flow': 'halted flow' };
  fill(
    el,
    h(
      'ul',
      { class: 'waiting' },
      s.waiting.map((w) =>
        h(
          'li',
          { 'data-kind': w.kind },
          h('div', { class: 'w-head' }, h('span', { class: `tag k-${w.kind}` }, label[w.kind] ?? w.kind), h('span', { class: 'w-title' }, w.title), w.due === undefined ? null : h('span', { class: w.overdue === true ? 'due overdue' : 'due' }, w.overdue === true ? `overdue ${ago(w.due, now)}` : `due ${w.due.slice(0, 16).replace('T', ' ')}`)),
          w.detail === undefined ? null : h('div', { class: 'w-detail' }, w.detail),
          h('div', { class: 'cmd' }, h('code', null, w.command), copyButton(w.command)),
        ),
      ),
    ),
  );
}

export function renderSession(el: HTMLElement, s: Snapshot, now: number): void {
  const session = s.session;
  if (session === null) {
    fill(el, empty('No task started.'), h('div', { class: 'cmd' }, h('code', null, 'ratchet task start --task-id <id>')));
    return;
  }
  fill(
    el,
    h('div', { class: 'title-row' }, h('strong', null, `task ${session.taskId}`), h('span', { class: `chip lifecycle l-${session.state}` }, session.state)),
    session.stack.length === 0
      ? null
      : h(
          'ol',
          { class: 'stack' },
          session.stack.map((f) => h('li', null, h('code', null, f.planPath), ` step ${f.step} of ${f.steps}`, f.current === undefined ? null : h('div', { class: 'step' }, h('code', null, f.current)))),
        ),
    session.research === undefined ? null : h('p', { class: 'small' }, `research: ${session.research}`),
    session.postMortem === undefined ? null : h('p', { class: 'small' }, `post-mortem: ${session.postMortem}`),
    session.next === undefined ? null : h('div', { class: 'next' }, h('span', { class: 'muted small' }, 'next: '), session.next.instruction, session.next.commands.map((c) => h('div', { class: 'cmd' }, h('code', null, c)))),
    session.history.length === 0 ? null : h('ul', { class: 'history small' }, [...session.history].reverse().slice(0, 4).map((e) => h('li', null, h('span', { class: 'muted' }, ago(e.at, now)), ` ${e.from} → ${e.to} (${e.trigger})`, e.message === undefined ? '' : `: ${e.message}`))),
  );
}

export function renderFlows(el: HTMLElement, s: Snapshot): void {
  if (s.flows.length === 0) {
    fill(el, empty('No open flow.'));
    return;
  }
  fill(
    el,
    h(
      'ul',
      { class: 'flows' },
      s.flows.map((f) =>
        h(
          'li',
          { 'data-session': f.sessionId },
          h('div', { class: 'title-row' }, h('strong', null, f.flow), h('span', { class: 'muted' }, ` ${f.sessionId}`), h('span', { class: `chip f-${f.status}` }, f.status)),
          f.step === null ? null : h('div', { class: 'small' }, 'step ', h('code', null, f.step), f.stepTitle === undefined ? '' : ` ${f.stepTitle}`),
          f.haltReason === undefined ? null : h('div', { class: 'small reason' }, f.haltReason),
          f.command === undefined ? null : h('div', { class: 'cmd small' }, h('code', null, f.command)),
        ),
      ),
    ),
  );
}

export function renderJixo(el: HTMLElement, s: Snapshot, now: number): void {
  if (s.jixo.length === 0) {
    fill(el, empty('No JIXO job in .jixo/.'));
    return;
  }
  fill(
    el,
    s.jixo.map((j) => {
      const counts = new Map<string, number>();
      for (const t of j.tasks) counts.set(t.status, (counts.get(t.status) ?? 0) + 1);
      const bar = h('div', { class: 'progress thin', role: 'img', 'aria-label': `${Math.round(j.progress * 100)}% done` });
      const done = h('span', { class: 'bg-complete' });
      done.style.width = `${Math.round(j.progress * 100)}%`;
      bar.appendChild(done);
      return h(
        'div',
        { class: 'job', 'data-job': j.name },
        h('div', { class: 'title-row' }, h('strong', null, j.title), h('span', { class: 'muted' }, ` ${j.name}`), h('span', { class: 'pct' }, `${Math.round(j.progress * 100)}%`)),
        bar,
        h('div', { class: 'small muted' }, [...counts].map(([k, n]) => `${n} ${k}`).join(' · ') || 'no tasks yet', j.exit === undefined ? '' : ` · exit ${j.exit.code}: ${j.exit.reason}`),
        j.runners.length + j.activeRunners.length === 0 ? null : h('div', { class: 'small' }, 'runners: ', [...new Set([...j.runners, ...j.activeRunners])].join(', ')),
        h(
          'ul',
          { class: 'roadmap small' },
          j.tasks
            .filter((t) => t.status === 'Locked' || t.status === 'Failed' || t.status === 'Pending')
            .slice(0, 8)
            .map((t) => h('li', { 'data-status': t.status }, h('span', { class: `tag j-${t.status}` }, t.status), ' ', t.text, t.runner === undefined ? '' : ` · ${t.runner}`, t.leaseUntil === undefined ? '' : ` · ${duration(Date.parse(t.leaseUntil) - now)} left`)),
        ),
      );
    }),
  );
}

export function renderRefusals(el: HTMLElement, s: Snapshot, now: number): void {
  const r = s.refusals;
  if (r.total === 0) {
    fill(el, empty('No hook has refused anything yet.'));
    return;
  }
  const max = Math.max(...r.byRule.map((b) => b.count));
  fill(
    el,
    h(
      'div',
      { class: 'rules' },
      r.byRule.map((b) => {
        const bar = h('span', { class: 'rule-bar' });
        bar.style.width = `${Math.max(4, (b.count / max) * 100)}%`;
        return h('div', { class: 'rule', 'data-rule': b.rule }, h('span', { class: 'rule-name' }, b.rule), h('span', { class: 'rule-track' }, bar), h('span', { class: 'rule-count' }, String(b.count)), h('span', { class: 'muted small' }, ago(b.last, now)));
      }),
    ),
    h(
      'ul',
      { class: 'refusals small' },
      r.recent.slice(0, 12).map((x) => h('li', null, h('span', { class: `tag d-${x.decision}` }, x.decision === 'deny' ? `denied ${x.tool ?? ''}`.trim() : 'stop blocked'), ' ', h('span', { class: 'muted' }, ago(x.time, now)), ' ', h('span', { class: 'reason-text' }, refusalSummary(x.reason)))),
    ),
  );
}

/** A refusal in one line: a Stop block's first obligation, a deny's reason. */
function refusalSummary(reason: string): string {
  const lines = reason.replace(/^Ratchet: /, '').split('\n');
  const first = lines.find((l) => l.startsWith('- '));
  return first === undefined ? (lines[0] ?? '') : `${lines[0] ?? ''} ${first.slice(2)}${lines.filter((l) => l.startsWith('- ')).length > 1 ? ' …' : ''}`;
}

export function renderActivity(el: HTMLElement, s: Snapshot, now: number): void {
  if (s.activity.length === 0) {
    fill(el, empty('The activity log is empty.'));
    return;
  }
  fill(
    el,
    h(
      'ol',
      { class: 'timeline' },
      s.activity.slice(0, 60).map((a) =>
        h(
          'li',
          { class: a.status === 'FAILURE' ? 'fail' : '' },
          h('span', { class: 'when' }, ago(a.time, now)),
          h('span', { class: 'what' }, a.tool ?? a.action, a.task !== '' && a.task !== 'none' ? h('span', { class: 'muted' }, ` · ${a.task}`) : null, a.phase === '' ? null : h('span', { class: 'muted' }, ` · ${a.phase}`)),
          h('span', { class: 'msg' }, a.detail === undefined ? a.message : `${a.message === a.tool ? '' : `${a.message}: `}${a.detail}`),
        ),
      ),
    ),
  );
}

export function renderArchive(el: HTMLElement, s: Snapshot, now: number): void {
  el.hidden = s.archive.length === 0;
  fill(
    el,
    h('h3', null, 'Completed campaigns'),
    h('ul', { class: 'archive small' }, s.archive.slice(0, 10).map((a) => h('li', null, h('strong', null, a.objective), h('span', { class: 'muted' }, ` · ${a.counts.complete}/${a.total} complete · ${ago(a.completedAt, now)}`)))),
  );
}
