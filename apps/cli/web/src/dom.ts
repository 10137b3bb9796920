/**
 * Building the page's DOM. Everything the server sends is user data (task titles, reasons, goal
 * titles, log messages), so text goes in through textContent and attributes through setAttribute:
 * nothing here ever parses a string as HTML.
 */
export type Child = Node | string | number | null | undefined | false | Child[];

export function h<K extends keyof HTMLElementTagNameMap>(tag: K, attrs: Record<string, string | number | boolean | undefined> | null = null, ...children: Child[]): HTMLElementTagNameMap[K] {
  const el = document.createElement(tag);
  if (attrs !== null) {
    for (const [name, value] of Object.entries(attrs)) {
      if (value === undefined || value === false) continue;
      el.setAttribute(name, value === true ? '' : String(value));
    }
  }
  append(el, children);
  return el;
}

export function append(el: Node, children: Child[]): void {
  for (const child of children) {
    if (child === null || child === undefined || child === false) continue;
    if (Array.isArray(child)) append(el, child);
    else el.appendChild(typeof child === 'string' || typeof child === 'number' ? document.createTextNode(String(child)) : child);
  }
}

/** Replaces an element's content. */
export function fill(el: Element, ...children: Child[]): void {
  el.replaceChildren();
  append(el, children);
}

/** "3m 20s", "1h 05m", "42s"; negative durations read as "expired". */
export function duration(ms: number): string {
  if (ms <= 0) return 'expired';
  const s = Math.floor(ms / 1000);
  if (s < 60) return `${s}s`;
  const m = Math.floor(s / 60);
  if (m < 60) return `${m}m ${String(s % 60).padStart(2, '0')}s`;
  const hours = Math.floor(m / 60);
  if (hours < 48) return `${hours}h ${String(m % 60).padStart(2, '0')}m`;
  return `${Math.floor(hours / 24)}d`;
}

/** "12s ago", "5m ago", or the date. */
export function ago(iso: string, now: number): string {
  const t = Date.parse(iso);
  if (Number.isNaN(t)) return iso;
  const s = Math.round((now - t) / 1000);
  if (s < 5) return 'just now';
  if (s < 60) return `${s}s ago`;
  if (s < 3600) return `${Math.floor(s / 60)}m ago`;
  if (s < 86_400) return `${Math.floor(s / 3600)}h ago`;
  return new Date(t).toISOString().slice(0, 16).replace('T', ' ');
}

export function seqLabel(seq: number): string {
  return String(seq).padStart(3, '0');
}

/** A button that copies `text` (a command) to the clipboard, saying so. */
export function copyButton(text: string): HTMLButtonElement {
  const button = h('button', { type: 'button', class: 'copy', title: 'Copy the command' }, 'copy');
  button.addEventListener('click', () => {
    void navigator.clipboard?.writeText(text).then(
      () => {
        button.textContent = 'copied';
        setTimeout(() => (button.textContent = 'copy'), 1200);
      },
      () => undefined,
    );
  });
  return button;
}
