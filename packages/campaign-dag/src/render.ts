/** The task graph as Mermaid (flowchart) or Graphviz DOT: edges point from a dependency to its dependant. */
import { formatSeq } from './seq.js';
import type { Task } from './types.js';

export type GraphFormat = 'mermaid' | 'dot';

const MERMAID_CLASS: Record<Task['status'], string> = { pending: 'pending', in_progress: 'running', complete: 'done', blocked: 'blocked' };

export function renderGraph(tasks: readonly Task[], format: GraphFormat): string {
  return format === 'dot' ? toDot(tasks) : toMermaid(tasks);
}

function toMermaid(tasks: readonly Task[]): string {
  const lines = ['flowchart TD'];
  for (const t of tasks) lines.push(`  t${formatSeq(t.seq)}["${mermaidText(`${formatSeq(t.seq)} ${t.slug}`)}<br/>${t.status}"]:::${MERMAID_CLASS[t.status]}`);
  for (const t of tasks) for (const d of t.depends) lines.push(`  t${formatSeq(d)} --> t${formatSeq(t.seq)}`);
  lines.push('  classDef done fill:#d4edda,stroke:#28a745', '  classDef blocked fill:#f8d7da,stroke:#dc3545', '  classDef running fill:#fff3cd,stroke:#ffc107', '  classDef pending fill:#ffffff,stroke:#6c757d');
  return `${lines.join('\n')}\n`;
}

function toDot(tasks: readonly Task[]): string {
  const color: Record<Task['status'], string> = { pending: 'white', in_progress: 'lightyellow', complete: 'palegreen', blocked: 'lightpink' };
  const lines = ['digraph campaign {', '  rankdir=TB;', '  node [shape=box, style=filled];'];
  for (const t of tasks) lines.push(`  t${formatSeq(t.seq)} [label=${dotString(`${formatSeq(t.seq)} ${t.slug}\n${t.status}`)}, fillcolor=${color[t.status]}];`);
  for (const t of tasks) for (const d of t.depends) lines.push(`  t${formatSeq(d)} -> t${formatSeq(t.seq)};`);
  lines.push('}');
  return `${lines.join('\n')}\n`;
}

/**
 * Mermaid labels: quotes and markup characters as entity codes, line breaks and other control
 * characters as spaces (a raw newline would end the node and let the rest of the text be read as graph).
 */
function mermaidText(s: string): string {
  // eslint-disable-next-line no-control-regex -- replacing control characters is the point
  return s.replace(/["<>&#`]/g, (c) => `#${c.charCodeAt(0)};`).replace(/[\u0000-\u001f\u007f\u2028\u2029]/g, ' ');
}

/** A DOT quoted string: backslashes and quotes escaped, line breaks as DOT's \n, other control characters as spaces. */
function dotString(s: string): string {
  // eslint-disable-next-line no-control-regex -- replacing control characters is the point
  return `"${s.replace(/\\/g, '\\\\').replace(/"/g, '\\"').replace(/\r?\n/g, '\\n').replace(/[\u0000-\u001f\u007f]/g, ' ')}"`;
}
