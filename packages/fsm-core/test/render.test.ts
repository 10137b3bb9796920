import { describe, expect, test } from 'vitest';
import { toDot, toMermaid } from '../src/index.js';
import { fdcMap, load } from './fixtures.js';

const door = load({
  id: 'door',
  states: ['Closed', 'Open', 'Locked'],
  alphabet: ['open', 'close', 'lock'],
  transitions: { Closed: { open: 'Open', lock: 'Locked' }, Open: { close: 'Closed' } },
  start_state: 'Closed',
  accept_states: ['Closed'],
});

describe('Mermaid', () => {
  test('exact output for a small machine', () => {
    expect(toMermaid(door)).toBe(
      [
        'stateDiagram-v2',
        '    [*] --> Closed',
        '    Closed --> Open: open',
        '    Closed --> Locked: lock',
        '    Open --> Closed: close',
        '    Closed --> [*]',
        '',
      ].join('\n'),
    );
  });

  test('the fdc machine: start arrow, one edge per state pair, accept state to [*]', () => {
    expect(toMermaid(load(fdcMap()))).toBe(
      [
        'stateDiagram-v2',
        '    [*] --> IDLE',
        '    IDLE --> PLANNING: plan_op',
        '    PLANNING --> EXECUTING: step_op',
        '    EXECUTING --> EXECUTING: step_op, read_op, write_op, delete_op, move_op, tool_exec',
        '    EXECUTING --> POST_MORTEM: close_op',
        '    POST_MORTEM --> DONE: submit_op',
        '    DONE --> [*]',
        '',
      ].join('\n'),
    );
  });

  test('a state on no edge is still declared', () => {
    const m = load({ states: ['A', 'Lonely'], alphabet: [], transitions: {}, start_state: 'A', accept_states: ['A'] });
    expect(toMermaid(m)).toBe('stateDiagram-v2\n    [*] --> A\n    A --> [*]\n    Lonely\n');
  });
});

describe('DOT', () => {
  test('exact output for a small machine', () => {
    expect(toDot(door)).toBe(
      [
        'digraph "door" {',
        '  rankdir=LR;',
        '  node [shape=circle];',
        '  __start [shape=point, label=""];',
        '  s0 [label="Closed", shape=doublecircle];',
        '  s1 [label="Open"];',
        '  s2 [label="Locked"];',
        '  __start -> s0;',
        '  s0 -> s1 [label="open"];',
        '  s0 -> s2 [label="lock"];',
        '  s1 -> s0 [label="close"];',
        '}',
        '',
      ].join('\n'),
    );
  });

  test('the fdc machine: DONE is a double circle, the loop is one labelled edge', () => {
    const dot = toDot(load(fdcMap()));
    expect(dot).toMatch(/^digraph "fdc" \{\n/);
    expect(dot).toContain('  s4 [label="DONE", shape=doublecircle];');
    expect(dot).toContain('  s2 -> s2 [label="step_op, read_op, write_op, delete_op, move_op, tool_exec"];');
    expect(dot.match(/doublecircle/g)).toHaveLength(1);
  });
});

describe('hostile names cannot break either syntax', () => {
  const states = ['say "hi"', 'a b', 'x --> [*]', 'line1\nline2', 'state', 'state_1', '%% comment', 'back\\slash', 'crlf\r\nend', 'Ünïcødé'];
  const symbols = ['a:b', 'x;y', '#1', '-->', 'new\nline', '"q"', 'tab\there'];
  // A ring through every state, each edge on one hostile symbol; every state accepting.
  const transitions = Object.fromEntries(states.map((s, i) => [s, { [symbols[i % symbols.length]!]: states[(i + 1) % states.length]! }]));
  const m = load({ states, alphabet: symbols, transitions, start_state: states[0], accept_states: states });
  const decodeMermaid = (t: string) => t.replace(/#(\d+);/g, (_, n: string) => String.fromCodePoint(Number(n)));

  test('Mermaid: every line is a well-formed statement and names survive through entity codes', () => {
    const lines = toMermaid(m).trimEnd().split('\n');
    const id = '[A-Za-z_][A-Za-z0-9_]*';
    const aliases = new Map<string, string>();
    const edgeLabels: string[] = [];
    expect(lines[0]).toBe('stateDiagram-v2');
    for (const line of lines.slice(1)) {
      const alias = new RegExp(`^    state "([^"\\n]*)" as (${id})$`).exec(line);
      const edge = new RegExp(`^    (\\[\\*\\]|${id}) --> (\\[\\*\\]|${id})(?:: ([^\\n]*))?$`).exec(line);
      expect(alias ?? edge, line).not.toBeNull();
      if (alias) aliases.set(alias[2]!, decodeMermaid(alias[1]!));
      if (edge?.[3] !== undefined) {
        expect(edge[3].replace(/#\d+;/g, '')).not.toMatch(/-->|[";:%#<>{}[\]]/);
        edgeLabels.push(decodeMermaid(edge[3]));
      }
    }
    // One statement per line: 1 header + aliases + start + edges + accepts, nothing injected.
    expect(lines).toHaveLength(1 + aliases.size + 1 + states.length + states.length);
    expect(new Set(aliases.values())).toEqual(new Set(states.filter((s) => !/^[A-Za-z_][A-Za-z0-9_]*$/.test(s) || s === 'state')));
    expect(aliases.has('state_1')).toBe(false); // the real state "state_1" keeps its id; aliases avoid it
    expect(edgeLabels).toEqual(states.map((_, i) => symbols[i % symbols.length]));
  });

  test('DOT: one statement per line and every label unescapes to the original name', () => {
    const dot = toDot(m);
    const lines = dot.trimEnd().split('\n');
    expect(lines).toHaveLength(4 + states.length + 1 + states.length + 1);
    const unescape = (s: string) => s.replace(/\\(.)/g, (_, c: string) => (c === 'n' ? '\n' : c));
    const labels = [...dot.matchAll(/label="((?:[^"\\\n]|\\.)*)"/g)].map((x) => unescape(x[1]!));
    const expectedStates = states.map((s) => s.replace(/\r\n/g, '\n'));
    expect(labels).toEqual(['', ...expectedStates, ...states.map((_, i) => symbols[i % symbols.length]!.replace(/\r\n/g, '\n'))]);
    expect(dot.match(/doublecircle/g)).toHaveLength(states.length);
  });
});
