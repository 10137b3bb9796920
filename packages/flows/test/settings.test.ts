/** Project-wide flow settings: the directive wording a project sets for every flow, checked and placed. */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { DEFAULT_DIRECTIVE, checkFlowSettings, loadFlowFile, loadFlowSettings, startFlow, type FlowError } from '../src/index.js';
import { FlowSettingsSchema } from '../src/schema.js';
import { flowIn, REASONING, runner, tmpProject } from './support.js';

const VALID = { $schema: 'x', schemaVersion: 1, directive: { heading: '**Next, and only this:**', warnings: ['- Progress is saved.', '- No override.'] } };

describe('checkFlowSettings', () => {
  test('a valid document, an empty one, and every problem of a bad one with its pointer', () => {
    expect(checkFlowSettings(VALID)).toEqual({ settings: { directive: VALID.directive }, problems: [] });
    expect(checkFlowSettings({})).toEqual({ settings: {}, problems: [] });
    expect(checkFlowSettings({ directive: { warnings: [] } }).settings).toEqual({ directive: { warnings: [] } });
    const bad = checkFlowSettings({ schemaVersion: 2, extra: 1, directive: { heading: 'two\nlines', warnings: ['ok', '', 3, 'tab\there'], colour: 'red' } });
    expect(bad.settings).toBeUndefined();
    expect(bad.problems.map((p) => p.pointer)).toEqual(['/extra', '/schemaVersion', '/directive/colour', '/directive/heading', '/directive/warnings/1', '/directive/warnings/2', '/directive/warnings/3']);
    expect(checkFlowSettings([]).problems).toEqual([{ pointer: '', message: 'flow settings must be a JSON object' }]);
    expect(checkFlowSettings({ directive: 'x' }).problems.map((p) => p.pointer)).toEqual(['/directive']);
    expect(checkFlowSettings({ directive: { warnings: Array(51).fill('x') } }).problems.map((p) => p.pointer)).toEqual(['/directive/warnings']);
    expect(checkFlowSettings({ directive: { heading: 'x'.repeat(2001) } }).problems.map((p) => p.pointer)).toEqual(['/directive/heading']);
  });

  test('property: the hand-written checker and the zod schema (the JSON Schema source) agree', () => {
    const value = fc.oneof(fc.constant(undefined), fc.constant(null), fc.integer(), fc.constantFrom('', ' ', 'ok', 'a\nb', '\u0007', 'x'.repeat(2001)), fc.constant([]), fc.constant(['ok']), fc.constant(['']), fc.constant({}));
    const paths = [['$schema'], ['schemaVersion'], ['directive'], ['directive', 'heading'], ['directive', 'warnings'], ['directive', 'warnings', 0], ['extra'], ['directive', 'extra']];
    fc.assert(
      fc.property(fc.constantFrom(...paths), value, (path, v) => {
        const doc = structuredClone(VALID) as Record<string | number, unknown>;
        let node = doc;
        for (const key of path.slice(0, -1)) node = node[key] as Record<string | number, unknown>;
        if (v === undefined) delete node[path[path.length - 1]!];
        else node[path[path.length - 1]!] = v;
        // What a file can hold: JSON (a deleted array item is not representable; it reads back as null).
        const json: unknown = JSON.parse(JSON.stringify(doc));
        const zod = FlowSettingsSchema.safeParse(json).success;
        expect(checkFlowSettings(json).problems.length === 0, JSON.stringify({ path, v })).toBe(zod);
      }),
      { numRuns: 300 },
    );
  });
});

describe('loadFlowSettings', () => {
  test('a missing file is no settings; a file is read with a BOM and CRLF; problems are placed at line:col', async () => {
    const dir = tmpProject();
    const path = join(dir, 'flow-settings.json');
    await expect(loadFlowSettings(path)).resolves.toBeUndefined();
    writeFileSync(path, '\uFEFF{\r\n  "directive": { "heading": "Next:" }\r\n}\r\n');
    await expect(loadFlowSettings(path)).resolves.toEqual({ directive: { heading: 'Next:' } });
    writeFileSync(path, '{\n  "directive": {\n    "heading": "",\n    "warning": ["x"]\n  }\n}\n');
    const err = (await loadFlowSettings(path).catch((e: unknown) => e)) as FlowError;
    expect(err).toMatchObject({ code: 'invalid-settings', path, line: 4, column: 5, reason: 'invalid flow settings: unknown property "warning" (allowed: heading, warnings) (and 1 more problem)' });
    expect(err.problems.map((p) => [p.pointer, p.line, p.column])).toEqual([
      ['/directive/warning', 4, 5],
      ['/directive/heading', 3, 16],
    ]);
  });

  test('hostile files: malformed, truncated, __proto__, binary, oversized are refused with their place; nothing is written', async () => {
    const dir = tmpProject();
    const path = join(dir, 'flow-settings.json');
    const cases: [string | Buffer, string][] = [
      ['{ "directive": { "heading": "x", } }', 'parse-error'],
      ['{ "directive": ', 'parse-error'],
      ['{ "__proto__": { "heading": "x" } }', 'unsafe-input'],
      [Buffer.from([0x7b, 0x00, 0xff, 0xfe]), 'binary-file'],
      [`{ "directive": { "heading": "${'x'.repeat(70_000)}" } }`, 'file-too-large'],
    ];
    for (const [content, code] of cases) {
      writeFileSync(path, content);
      const err = (await loadFlowSettings(path).catch((e: unknown) => e)) as { code: string; path: string; line?: number };
      expect(err.code, code).toBe(code);
      expect(err.path).toBe(path);
      if (code === 'parse-error' || code === 'unsafe-input') expect(err.line, code).toBe(1);
      expect(readFileSync(path)).toEqual(Buffer.from(content));
    }
  });
});

describe('the wording in views', () => {
  test("the project's wording replaces Ratchet's for a flow without its own; a flow's own wins; the caller's directive option wins over both", async () => {
    const root = tmpProject();
    const project = { heading: '**Next, and only this:**', warnings: ['- Saved.'] };
    const reasoning = await loadFlowFile(REASONING);
    const view = await startFlow(runner(root, { defaultDirective: project }), { flow: reasoning, ref: REASONING, sessionId: 'a' });
    expect(view.directive.text).toBe(
      `**Next, and only this:**\n\n${view.directive.before.join('\n\n')}\n\n\`ratchet flow advance --session a --output '<file>'\`\n\n- Saved.`,
    );
    expect(view.text.trimEnd().endsWith(view.directive.text)).toBe(true);
    expect(view.text).not.toContain(DEFAULT_DIRECTIVE.heading);
    const dir = tmpProject();
    const own = await flowIn(dir, { id: 'own', title: 'Own', directive: { heading: 'OWN HEADING' }, steps: [{ id: '0', title: 'Z', content: 'a.md' }] });
    const mixed = await startFlow(runner(root, { defaultDirective: project }), { flow: own, ref: own.path, sessionId: 'b' });
    // Field by field: the flow's heading, the project's warnings.
    expect(mixed.directive.text).toBe('OWN HEADING\n\n`ratchet flow advance --session b`\n\n- Saved.');
    const forced = await startFlow(runner(root, { defaultDirective: project, directive: { heading: 'CALLER' } }), { flow: own, ref: own.path, sessionId: 'c' });
    expect(forced.directive.text.split('\n')[0]).toBe('CALLER');
  });
});
