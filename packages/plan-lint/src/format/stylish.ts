/** eslint-style text: findings grouped by file, `line:col  severity  message  rule`, a summary line. */
import type { Finding } from '../findings.js';

export interface StylishOptions {
  /** ANSI colours (the CLI turns them on for a TTY only). */
  color?: boolean;
}

const ESC = '\u001b[';
const paint = (on: boolean, code: string, s: string): string => (on ? `${ESC}${code}m${s}${ESC}0m` : s);

export function formatStylish(findings: readonly Finding[], options: StylishOptions = {}): string {
  const color = options.color === true;
  if (findings.length === 0) return '';
  const byFile = new Map<string, Finding[]>();
  for (const f of findings) {
    const list = byFile.get(f.file);
    if (list) list.push(f);
    else byFile.set(f.file, [f]);
  }
  const out: string[] = [];
  for (const [file, list] of byFile) {
    out.push(paint(color, '4', file));
    const rows = list.map((f) => ({
      pos: `${f.line}:${f.column}`,
      sev: f.severity,
      msg: f.chain && f.chain.length > 1 ? `${f.message} (via ${f.chain.slice(0, -1).join(' -> ')})` : f.message,
      rule: f.ruleId,
    }));
    const posW = Math.max(...rows.map((r) => r.pos.length));
    const msgW = Math.max(...rows.map((r) => r.msg.length));
    for (const r of rows) {
      const sev = paint(color, r.sev === 'error' ? '31' : '33', r.sev.padEnd(7));
      out.push(`  ${paint(color, '2', r.pos.padEnd(posW))}  ${sev}  ${r.msg.padEnd(msgW)}  ${paint(color, '2', r.rule)}`);
    }
    out.push('');
  }
  const errors = findings.filter((f) => f.severity === 'error').length;
  const warnings = findings.length - errors;
  const plural = (n: number, w: string): string => `${n} ${w}${n === 1 ? '' : 's'}`;
  const summary = `\u2716 ${plural(findings.length, 'problem')} (${plural(errors, 'error')}, ${plural(warnings, 'warning')})`;
  out.push(paint(color, errors > 0 ? '31;1' : '33;1', summary));
  return `${out.join('\n')}\n`;
}
