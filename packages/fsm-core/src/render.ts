/**
 * Diagrams of a machine: Mermaid `stateDiagram-v2` and Graphviz DOT. Output is deterministic
 * (states in declaration order, edges by source then symbol) and safe for any state or symbol
 * name: quotes, spaces, `-->`, `%%`, newlines and the like can neither break the syntax nor
 * inject statements. Symbols sharing a source and target are drawn as one labelled edge.
 */
import type { Machine } from './machine.js';

interface Edge {
  from: number;
  to: number;
  symbols: string[];
}

/** Edges grouped by (source, target), in source order, then order of each target's first symbol. */
function edges(machine: Machine): Edge[] {
  const out: Edge[] = [];
  for (let s = 0; s < machine.states.length; s++) {
    const byTarget = new Map<number, Edge>();
    for (let e = machine.edgeStart[s]!; e < machine.edgeStart[s + 1]!; e++) {
      const to = machine.edgeTarget[e]!;
      let edge = byTarget.get(to);
      if (!edge) {
        edge = { from: s, to, symbols: [] };
        byTarget.set(to, edge);
        out.push(edge);
      }
      edge.symbols.push(machine.alphabet[machine.edgeSymbol[e]!]!);
    }
  }
  return out;
}

// Mermaid words that cannot be bare state ids; such states get an alias like any unsafe name.
const MERMAID_KEYWORDS = new Set(
  ['state', 'note', 'end', 'direction', 'class', 'classdef', 'style', 'click', 'as', 'left', 'right', 'of', 'over', 'fork', 'join', 'choice', 'default', 'hide', 'empty', 'description', 'scale', 'accdescr', 'acctitle', 'statediagram', 'statediagram-v2'],
);

/**
 * Mermaid text: any character outside a small safe set becomes an entity code (`#34;`), which
 * Mermaid decodes when drawing. That covers quotes, `:` and `;`, `#`, `%`, `<`/`>` (so `-->`
 * cannot form), brackets, braces and line breaks.
 */
function mermaidText(text: string): string {
  return text.replace(/[^\p{L}\p{N} _.,()/+*=!?'@$-]/gu, (c) => `#${c.codePointAt(0)!};`);
}

export function toMermaid(machine: Machine): string {
  const n = machine.states.length;
  const ids: string[] = new Array<string>(n);
  const used = new Set<string>();
  const aliased: number[] = [];
  machine.states.forEach((name, i) => {
    if (/^[A-Za-z_][A-Za-z0-9_]*$/.test(name) && !MERMAID_KEYWORDS.has(name.toLowerCase())) {
      ids[i] = name;
      used.add(name);
    } else {
      aliased.push(i);
    }
  });
  for (const i of aliased) {
    let id = `state_${i}`;
    while (used.has(id)) id += '_';
    ids[i] = id;
    used.add(id);
  }

  const lines = ['stateDiagram-v2'];
  for (const i of aliased) lines.push(`    state "${mermaidText(machine.states[i]!)}" as ${ids[i]}`);
  lines.push(`    [*] --> ${ids[machine.startId]}`);
  const mentioned = new Uint8Array(n);
  mentioned[machine.startId] = 1;
  for (const e of edges(machine)) {
    lines.push(`    ${ids[e.from]} --> ${ids[e.to]}: ${mermaidText(e.symbols.join(', '))}`);
    mentioned[e.from] = 1;
    mentioned[e.to] = 1;
  }
  for (let i = 0; i < n; i++) {
    if (machine.accepting[i] === 1) {
      lines.push(`    ${ids[i]} --> [*]`);
      mentioned[i] = 1;
    }
  }
  // A state on no edge would vanish from the drawing; a bare id line declares it.
  for (let i = 0; i < n; i++) if (mentioned[i] === 0 && !aliased.includes(i)) lines.push(`    ${ids[i]}`);
  return `${lines.join('\n')}\n`;
}

/**
 * A DOT string literal. Backslash and quote are escaped; line breaks become `\n` (DOT's centred
 * line break); other control characters become U+FFFD rather than reach the layout engine.
 */
function dotString(text: string): string {
  const escaped = text
    .replace(/\\/g, '\\\\')
    .replace(/"/g, '\\"')
    .replace(/\r\n|\r|\n/g, '\\n')
    // eslint-disable-next-line no-control-regex -- control characters are exactly what is replaced
    .replace(/[\u0000-\u0008\u000b-\u001f\u007f]/g, '\uFFFD');
  return `"${escaped}"`;
}

/**
 * Graphviz DOT. Nodes get synthetic ids (`s0`, `s1`, ...) and the name as label, so no two names
 * can collide after escaping; accept states are double circles, the start has an arrow from a point.
 */
export function toDot(machine: Machine): string {
  const lines = [`digraph ${dotString(machine.id ?? 'fsm')} {`, '  rankdir=LR;', '  node [shape=circle];', '  __start [shape=point, label=""];'];
  machine.states.forEach((name, i) => {
    const shape = machine.accepting[i] === 1 ? ', shape=doublecircle' : '';
    lines.push(`  s${i} [label=${dotString(name)}${shape}];`);
  });
  lines.push(`  __start -> s${machine.startId};`);
  for (const e of edges(machine)) lines.push(`  s${e.from} -> s${e.to} [label=${dotString(e.symbols.join(', '))}];`);
  lines.push('}');
  return `${lines.join('\n')}\n`;
}
