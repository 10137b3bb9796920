/**
 * The edge of the campaign commands that have no MCP tool (graph, find-similar): commander's option
 * bag parsed once (src/commands/campaign/inputs.ts) into typed inputs. A wrong kind or a value out of
 * range is a usage error (exit 2) naming the option, with the message it always had.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { findSimilarInput, graphInput } from '../src/commands/campaign/inputs.js';
import { inProcess, usage } from './edge-support.js';

const ratchet = inProcess;

const temp = (): string => mkdtempSync(join(tmpdir(), 'ratchet-campaign-edge-'));

describe('campaign graph, find-similar: the parse functions', () => {
  test('typed inputs: the format as a choice (mermaid by default), the threshold as a number', () => {
    expect(graphInput([], {})).toEqual({ format: 'mermaid' });
    expect(graphInput([], { format: 'dot' })).toEqual({ format: 'dot' });
    expect(findSimilarInput([], {})).toEqual({ objective: undefined, framework: undefined, threshold: undefined });
    expect(findSimilarInput([], { objective: 'add login', framework: 'express', threshold: '0.3' })).toEqual({ objective: 'add login', framework: 'express', threshold: 0.3 });
    expect(findSimilarInput([], { threshold: '0' }).threshold).toBe(0);
    expect(findSimilarInput([], { threshold: '1' }).threshold).toBe(1);
  });

  test('wrong kinds and bad values are usage errors naming the option, as before', () => {
    expect(usage(() => graphInput([], { format: 'svg' }))).toBe('--format must be one of mermaid, dot');
    expect(usage(() => graphInput([], { format: true }))).toBe('--format takes a value');
    expect(usage(() => findSimilarInput([], { threshold: 0.5 }))).toBe('--threshold takes a value');
    expect(usage(() => findSimilarInput([], { objective: ['a'] }))).toBe('--objective takes a value');
    expect(usage(() => findSimilarInput([], { framework: 'express' }))).toBe("--framework goes with --objective (without it the active campaign's framework is used)");
  });

  test('hostile values: __proto__, huge, negative, CRLF inside', () => {
    for (const t of ['__proto__', '1e999', '-0.1', '1.0000001', 'NaN', 'Infinity', '0.5\r\n0.6', '', '  ']) {
      expect(usage(() => findSimilarInput([], { threshold: t }))).toBe(`--threshold must be a number from 0 to 1, got ${t}`);
    }
    expect(usage(() => graphInput([], { format: '__proto__' }))).toBe('--format must be one of mermaid, dot');
    expect(usage(() => graphInput([], { format: 'dot\r\n' }))).toBe('--format must be one of mermaid, dot');
  });
});

describe('campaign graph, find-similar: through the CLI', () => {
  test('a bad value is exit 2 naming the option, before the campaign is read', async () => {
    const dir = temp();
    const huge = await ratchet(dir, ['campaign', 'find-similar', '--threshold', '1e999']);
    expect(huge).toMatchObject({ code: 2, err: 'ratchet: --threshold must be a number from 0 to 1, got 1e999\n' });
    const negative = await ratchet(dir, ['campaign', 'find-similar', '--objective', 'x', '--threshold', '-1']);
    expect(negative.code).toBe(2);
    expect(negative.err).toContain('--threshold');
    const lone = await ratchet(dir, ['campaign', 'find-similar', '--framework', 'express']);
    expect(lone).toMatchObject({ code: 2, err: "ratchet: --framework goes with --objective (without it the active campaign's framework is used)\n" });
    const svg = await ratchet(dir, ['campaign', 'graph', '--format', 'svg']);
    expect(svg.code).toBe(2);
    expect(svg.err).toContain("'-f, --format <format>' argument 'svg' is invalid");
  });

  test('valid values through the edge: the graph in either format, find-similar with a threshold', async () => {
    const dir = temp();
    await ratchet(dir, ['campaign', 'create', 'add a login page', '--framework', 'express']);
    await ratchet(dir, ['campaign', 'add-tasks'], JSON.stringify({ objective: 'x', tasks: [{ seq: 1, delta: ['a'], verify: 'v' }, { seq: 2, delta: ['b'], verify: 'v', depends: 1 }] }));
    const mermaid = JSON.parse((await ratchet(dir, ['--json', 'campaign', 'graph'])).out) as { format: string; text: string };
    expect(mermaid.format).toBe('mermaid');
    expect(mermaid.text).toMatch(/^(graph|flowchart) /);
    expect((await ratchet(dir, ['campaign', 'graph', '-f', 'dot'])).out).toContain('t001 -> t002;');
    expect((await ratchet(dir, ['campaign', 'complete', '--force', '--skip-observe', 'fixture'])).code).toBe(0);
    const found = await ratchet(dir, ['--json', 'campaign', 'find-similar', '--objective', 'add a login page', '--framework', 'express', '--threshold', '0']);
    expect(found.code).toBe(0);
    expect((JSON.parse(found.out) as { similar: { objective: string }[] }).similar.map((s) => s.objective)).toEqual(['add a login page']);
    const strict = await ratchet(dir, ['--json', 'campaign', 'find-similar', '--objective', 'delete the billing service', '--threshold', '1']);
    expect((JSON.parse(strict.out) as { similar: unknown[] }).similar).toEqual([]);
  });
});
