import { readFileSync } from 'node:fs';
import fc from 'fast-check';
import { fromMarkdown } from 'mdast-util-from-markdown';
import { describe, expect, test } from 'vitest';
import { parseJob, parseLog, parseLogStrict, serializeLog, JixoParseError, type ExtraSection, type LogFile, type RoadmapItem, type WorkLogEntry } from '../src/index.js';

const fixture = (name: string): string => readFileSync(new URL(`./fixtures/${name}`, import.meta.url), 'utf8');

describe('parseLog / serializeLog', () => {
  test('the seed example parses into phases, tasks and entries, and survives byte for byte', () => {
    const text = fixture('seed.log.md');
    const { value, diagnostics } = parseLog(text);
    expect(diagnostics).toEqual([]);
    expect(value.frontMatter).toMatchObject({ title: 'JIXO Refactor Job', progress: 0.15 });
    const phase = value.roadmap[0]!;
    expect(phase.status).toBeUndefined();
    expect(phase.children.map((t) => [t.id, t.status, t.runner ?? null, t.checked])).toEqual([
      ['1.1', 'Completed', 'agent-name-abcd-1234-efgh-5678', true],
      ['1.2', 'Pending', null, false],
    ]);
    expect(value.workLog.map((e) => [e.number, e.role, e.result])).toEqual([
      [2, 'Runner', 'Succeeded'],
      [1, 'Planner', 'Succeeded'],
    ]);
    expect(serializeLog(value)).toBe(text);
  });

  test('content Ratchet does not understand is kept: preamble, notes, nested bullets, extra sections, front matter keys, entry extras', () => {
    const text = fixture('rich.log.md');
    const { value, diagnostics } = parseLog(text);
    expect(diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
    expect(value.frontMatter.extra).toEqual({ owner: 'team-a', tags: ['x', 'y'] });
    expect(value.preamble).toContain('Free text before the roadmap');
    const t = value.roadmap[0]!.children[0]!;
    expect(t.dependsOn).toEqual(['0.1', '0.2']);
    expect(t.notes).toEqual(['- details: keep the API\n  - nested note']);
    expect(value.sections.map((s) => s.title)).toEqual(['Notes']);
    expect(value.sections[0]!.body).toContain('```\n## Roadmap (inside a fence: not a section)\n```');
    expect(value.workLog[0]!.extra).toBe('- **Files**: a.ts, b.ts');
    expect(value.workLog[0]!.summary).toBe('First line.\nSecond line of the summary.');
    // canonical: the file survives byte for byte
    expect(serializeLog(value)).toBe(text);
  });

  test('CRLF and a BOM are read; the canonical output is LF without BOM', () => {
    const text = fixture('seed.log.md');
    const crlf = `\ufeff${text.replace(/\n/g, '\r\n')}`;
    const { value, diagnostics } = parseLog(crlf);
    expect(diagnostics).toEqual([]);
    expect(serializeLog(value)).toBe(text);
  });

  test('progress accepts a number or "NN%", clamped to 0..1', () => {
    const make = (p: string): number => parseLog(`---\ntitle: t\nprogress: ${p}\n---\n\n## Roadmap\n\n## Work Log\n`).value.frontMatter.progress;
    expect(make('"15%"')).toBe(0.15);
    expect(make('0.5')).toBe(0.5);
    expect(make('7')).toBe(1);
    expect(make('"-20%"')).toBe(0);
    expect(make('"250%"')).toBe(1);
    expect(parseLog('---\ntitle: t\nprogress: lots\n---\n\n## Roadmap\n\n## Work Log\n').diagnostics[0]).toMatchObject({ rule: 'bad-front-matter', severity: 'error', line: 3, column: 1 });
    // The bad value's own line, also after other keys and in a CRLF file.
    expect(parseLog('\ufeff---\r\ntitle: t\r\nupdateTime: x\r\ncreateTime: [1]\r\n---\r\n\r\n## Roadmap\r\n\r\n## Work Log\r\n').diagnostics[0]).toMatchObject({ rule: 'bad-front-matter', line: 4 });
    expect(parseLog('---\ntitle: t\nupdateTime: x\ncreateTime: [1]\n---\n\n## Roadmap\n\n## Work Log\n').diagnostics[0]).toMatchObject({ rule: 'bad-front-matter', line: 4 });
  });
});

describe('diagnostics with line numbers', () => {
  const bad = (text: string) => parseLog(text).diagnostics.filter((d) => d.severity === 'error');

  test('malformed front matter: the YAML line', () => {
    const d = bad('---\ntitle: "x\nprogress: 1\n---\n\n## Roadmap\n\n## Work Log\n');
    expect(d[0]).toMatchObject({ rule: 'malformed-front-matter' });
    expect(d[0]!.line).toBeGreaterThanOrEqual(2);
    // No front matter at all is how JIXO v1 wrote some logs: a warning, not an error.
    expect(parseLog('no front matter\n## Roadmap\n## Work Log\n').diagnostics).toEqual([expect.objectContaining({ rule: 'missing-front-matter', severity: 'warning', line: 1 })]);
    expect(bad('---\ntitle: x\n')[0]).toMatchObject({ rule: 'malformed-front-matter', line: 1 });
    expect(bad('---\n- a list\n---\n## Roadmap\n## Work Log\n')[0]).toMatchObject({ rule: 'malformed-front-matter' });
  });

  test('__proto__ and friends in front matter are refused and pollute nothing', () => {
    const d = bad('---\ntitle: x\n__proto__: { polluted: true }\nextra: { constructor: 1 }\n---\n\n## Roadmap\n\n## Work Log\n');
    expect(d.map((x) => x.rule)).toEqual(['unsafe-key', 'unsafe-key']);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  test('front matter nested deeper than 256 levels (the mapping included) is refused at its place; 256 levels still rewrite', () => {
    // Near the stack's limit such a value parsed, then overflowed the rewrite (yaml's stringify):
    // an internal error in the middle of `jixo title`. Refused when read, log and job alike.
    const nested = (depth: number): string => `deep: ${'['.repeat(depth)}${']'.repeat(depth)}\n`;
    const log = (yaml: string): string => `---\ntitle: x\n${yaml}---\n\n## Roadmap\n\n## Work Log\n`;
    for (const depth of [256, 1000, 1856]) {
      expect(bad(log(nested(depth)))[0]).toMatchObject({ rule: 'malformed-front-matter', line: 3 });
      expect(parseJob(`---\nname: x\n${nested(depth)}---\n\nGoal\n`).diagnostics[0]).toMatchObject({ rule: 'malformed-front-matter', line: 3 });
    }
    expect(bad(log(nested(256)))[0]!.message).toBe('front matter nests deeper than 256 levels');
    const deepest = parseLog(log(nested(255)));
    expect(deepest.diagnostics).toEqual([]);
    const rewritten = parseLog(serializeLog(deepest.value));
    expect(rewritten.diagnostics).toEqual([]);
    expect(rewritten.value.frontMatter).toEqual(deepest.value.frontMatter);
    // Block style counts the same way (a mapping in a mapping...).
    const block = Array.from({ length: 257 }, (_, i) => `${' '.repeat(i)}k:`).join('\n');
    expect(bad(log(`${block} v\n`))[0]).toMatchObject({ rule: 'malformed-front-matter', message: 'front matter nests deeper than 256 levels' });
  });

  test('missing sections', () => {
    expect(bad('---\ntitle: x\n---\n\n## Work Log\n').map((d) => d.message)).toEqual(['missing section "## Roadmap"']);
    expect(bad('---\ntitle: x\n---\n\n## Roadmap\n').map((d) => d.message)).toEqual(['missing section "## Work Log"']);
  });

  test('unknown statuses and duplicate task ids, at their lines', () => {
    const text = '---\ntitle: x\n---\n\n## Roadmap\n\n- [ ] 1. a\n  - status: PendingReview\n- [ ] 2. b\n  - status: Pending\n- [ ] 2. c\n  - status: Pending\n\n## Work Log\n';
    const d = bad(text);
    expect(d.map((x) => [x.rule, x.line])).toEqual([
      ['unknown-status', 8],
      ['duplicate-task-id', 11],
    ]);
    expect(() => parseLogStrict(text, 'x.log.md')).toThrow(JixoParseError);
    try {
      parseLogStrict(text, 'x.log.md');
    } catch (err) {
      expect(err).toMatchObject({ code: 'parse-error', path: 'x.log.md', line: 8 });
      expect((err as JixoParseError).diagnostics).toHaveLength(2);
    }
  });

  test('a roadmap bullet that is not a checklist item is an error; binary and huge junk do not crash', () => {
    expect(bad('---\ntitle: x\n---\n\n## Roadmap\n\n- plain bullet\n\n## Work Log\n')[0]).toMatchObject({ rule: 'not-a-checklist-item', line: 7 });
    expect(() => parseLog('\u0000\u0001\u0002binary')).not.toThrow();
    const huge = `---\ntitle: x\n---\n\n## Roadmap\n\n${'- [ ] '.repeat(50_000)}\n\n## Work Log\n`;
    expect(() => parseLog(huge)).not.toThrow();
  });
});

// ---- property tests ----
const word = fc.stringMatching(/^[A-Za-z][A-Za-z0-9 _`*.,:()/-]{0,20}[A-Za-z0-9`)]$/);
const runnerArb = fc.stringMatching(/^[a-z][a-z0-9-]{0,12}$/);
const statusArb = fc.constantFrom('Pending', 'Locked', 'Completed', 'Failed', 'Cancelled' as const);

// A task's other blocks (one note, after its sub-bullets: the parsed form's order).
const blockNoteArb = fc.constantFrom('A paragraph note.', '```\n- [ ] not a task\n## Work Log\n```', '> quoted\n\nand more', '<!-- comment -->');

function itemsArb(depth: number, prefix: string): fc.Arbitrary<RoadmapItem[]> {
  return fc.integer({ min: 0, max: depth === 0 ? 3 : 2 }).chain((n) =>
    fc.tuple(
      ...Array.from({ length: n }, (_, i) => {
        const id = prefix === '' ? String(i + 1) : `${prefix}.${i + 1}`;
        const task = fc.record({ title: word, status: statusArb, runner: fc.option(runnerArb, { nil: undefined }), deps: fc.option(fc.array(fc.constantFrom('9.1', '9.2'), { maxLength: 2 }), { nil: undefined }), note: fc.option(word, { nil: undefined }), block: fc.option(blockNoteArb, { nil: undefined }) }).map(
          ({ title, status, runner, deps, note, block }): RoadmapItem => ({
            id,
            text: `${id}. ${title}`,
            checked: status === 'Completed',
            status,
            ...(runner !== undefined ? { runner } : {}),
            ...(deps !== undefined && deps.length > 0 ? { dependsOn: deps } : {}),
            notes: [...(note !== undefined ? [`- note: ${note}`] : []), ...(block !== undefined ? [block] : [])],
            children: [],
          }),
        );
        if (depth >= 1) return task;
        const phase = fc.tuple(word, itemsArb(depth + 1, id)).map(([title, children]): RoadmapItem => (children.length === 0 ? { id, text: `${id}. ${title}`, checked: false, status: 'Pending', notes: [], children } : { id, text: `${id}. ${title}`, checked: false, notes: [], children }));
        return fc.oneof(task, phase);
      }),
    ),
  );
}

const entryArb = fc.record({ role: fc.constantFrom('Planner', 'Runner'), objective: word, result: fc.constantFrom('Succeeded', 'Failed', 'Pending', 'Cancelled'), summary: fc.array(word, { minLength: 1, maxLength: 3 }).map((l) => l.join('\n')), extra: fc.constantFrom('', '- **Files**: a.ts') });

const logArb: fc.Arbitrary<LogFile> = fc
  .record({
    title: fc.string({ maxLength: 30 }),
    pct: fc.integer({ min: 0, max: 100 }),
    roadmap: itemsArb(0, ''),
    entries: fc.array(entryArb, { maxLength: 4 }),
    preamble: fc.constantFrom('', 'Some preamble text.'),
    extra: fc.constantFrom<Record<string, unknown>>({}, { owner: 'me' }),
    sections: fc.constantFrom<ExtraSection[]>([], [{ title: 'Notes', body: 'kept' }]),
  })
  .map(({ title, pct, roadmap, entries, preamble, extra, sections }): LogFile => ({
    frontMatter: { title, progress: pct / 100, extra },
    preamble,
    roadmapIntro: '',
    roadmap,
    roadmapOutro: '',
    workLogIntro: '',
    workLog: entries.map((e, i): WorkLogEntry => ({ number: entries.length - i, job: 'job', time: '2030-01-01T00:00:00.000Z', ...e })),
    sections: structuredClone(sections),
  }));

describe('properties', () => {
  test('parse(serialise(x)) equals x, and serialise(parse(text)) is the same bytes', () => {
    fc.assert(
      fc.property(logArb, (log) => {
        const text = serializeLog(log);
        const { value, diagnostics } = parseLog(text);
        expect(diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
        expect(value).toEqual(log);
        expect(serializeLog(value)).toBe(text);
      }),
      { numRuns: 200 },
    );
  }, 60_000);

  test('a second CommonMark parser (mdast) reads the same sections and checklist items in what we write', () => {
    fc.assert(
      fc.property(logArb, (log) => {
        const text = serializeLog(log);
        const body = text.slice(text.indexOf('\n---\n') + 5);
        const tree = fromMarkdown(body);
        const h2 = tree.children.filter((n) => n.type === 'heading' && n.depth === 2).length;
        expect(h2).toBe(2 + log.sections.length);
        // count checklist items (listItem with `checked` set) in the Roadmap list
        let checklist = 0;
        // (no GFM extension: a task item is a listItem whose paragraph starts with "[ ] " or "[x] ")
        const visit = (n: { type: string; value?: string; children?: unknown[] }): void => {
          const first = (n.children?.[0] as typeof n | undefined)?.children?.[0] as typeof n | undefined;
          if (n.type === 'listItem' && /^\[[ x]\] /.test(first?.value ?? '')) checklist++;
          for (const c of (n.children ?? []) as (typeof n)[]) visit(c);
        };
        visit(tree);
        const count = (xs: RoadmapItem[]): number => xs.reduce((s, x) => s + 1 + count(x.children), 0);
        expect(checklist).toBe(count(log.roadmap));
      }),
      { numRuns: 40 },
    );
  }, 60_000);

  test('parse never throws on arbitrary text, and a file with errors is reported, not guessed', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 400 }), (s) => {
        const { diagnostics } = parseLog(`---\ntitle: x\n---\n${s}`);
        for (const d of diagnostics) expect(d.line).toBeGreaterThanOrEqual(1);
      }),
      { numRuns: 300 },
    );
  });
});

describe('a real CommonMark parser decides the structure', () => {
  const head = '---\ntitle: "t"\nprogress: "0%"\n---\n\n';
  const errors = (text: string) => parseLog(text).diagnostics.filter((d) => d.severity === 'error');

  test('a "## Roadmap" inside an HTML comment or a fence is not a section; an indented heading is one', () => {
    const text = `${head}<!--\n## Roadmap\n-->\n\n   ## Roadmap\n\n- [ ] 1. a\n  - status: Pending\n\n## Work Log\n\n\`\`\`md\n## Roadmap\n\`\`\`\n`;
    const { value, diagnostics } = parseLog(text);
    expect(diagnostics).toEqual([]);
    expect(value.preamble).toBe('<!--\n## Roadmap\n-->');
    expect(value.roadmap.map((t) => t.id)).toEqual(['1']);
    expect(value.workLogIntro).toBe('```md\n## Roadmap\n```');
  });

  test('"*" and "+" bullets and tab indentation are read; the canonical form uses "-" and spaces', () => {
    const text = `${head}## Roadmap\n\n* [ ] 1. a\n\t+ status: Completed\n\t+ runner: r1\n\n## Work Log\n`;
    const { value, diagnostics } = parseLog(text);
    expect(diagnostics).toEqual([]);
    expect(value.roadmap[0]).toMatchObject({ id: '1', status: 'Completed', runner: 'r1' });
    expect(serializeLog(value)).toContain('- [ ] 1. a\n  - status: Completed\n  - runner: r1\n');
  });

  test('a line that CommonMark reads as part of a status (a lazy continuation) is an error at its line, not a silent Pending', () => {
    const lazy = `${head}## Roadmap\n\n- [x] 1. a\n  - status: Completed\nsee notes\n\n## Work Log\n`;
    expect(errors(lazy)).toMatchObject([{ rule: 'field-continued', line: 9 }]);
    const nested = `${head}## Roadmap\n\n- [x] 1. a\n  - status: Completed\n    - why: because\n\n## Work Log\n`;
    expect(errors(nested)).toMatchObject([{ rule: 'field-continued', line: 9 }]);
  });

  test('a second checklist started by another bullet character is an error (its tasks would be invisible)', () => {
    const text = `${head}## Roadmap\n\n- [ ] 1. a\n  - status: Pending\n\n* [ ] 2. b\n  * status: Pending\n\n## Work Log\n`;
    expect(errors(text)).toMatchObject([{ rule: 'split-roadmap', line: 11 }]);
    // a plain list after the checklist is just kept
    const notes = `${head}## Roadmap\n\n- [ ] 1. a\n  - status: Pending\n\nNotes:\n\n* not a task\n\n## Work Log\n`;
    expect(errors(notes)).toEqual([]);
    expect(parseLog(notes).value.roadmapOutro).toBe('Notes:\n\n* not a task');
  });

  test('blocks inside a task (paragraphs, code with Markdown in it, link definitions) are kept and change nothing', () => {
    const text = `${head}## Roadmap\n\n- [ ] 1. a\n  continued title\n  - status: Pending\n\n  A paragraph.\n\n  \`\`\`\n  - status: Failed\n  ## Work Log\n  \`\`\`\n\n  [ref]: https://example.com\n- [ ] 2. b\n  - status: Pending\n\n## Work Log\n`;
    const { value, diagnostics } = parseLog(text);
    expect(diagnostics).toEqual([]);
    expect(value.roadmap.map((t) => [t.id, t.status])).toEqual([
      ['1', 'Pending'],
      ['2', 'Pending'],
    ]);
    expect(value.roadmap[0]!.notes).toEqual(['continued title\n\nA paragraph.\n\n```\n- status: Failed\n## Work Log\n```\n\n[ref]: https://example.com']);
    const out = serializeLog(value);
    expect(parseLog(out).value).toEqual(value);
    expect(serializeLog(parseLog(out).value)).toBe(out);
  });

  test('a Work Log summary holds whatever its list item holds (a nested list, a fence)', () => {
    const text = `${head}## Roadmap\n\n## Work Log\n\n### Log 1 @j (t)\n\n- **Role**: Runner\n- **Objective**: o\n- **Result**: Succeeded\n- **Summary**: did:\n  - one\n\n  \`\`\`\n  ### Log 9 @x (y)\n  \`\`\`\n\nAfter the list.\n`;
    const { value, diagnostics } = parseLog(text);
    expect(diagnostics).toEqual([]);
    expect(value.workLog).toHaveLength(1);
    expect(value.workLog[0]!.summary).toBe('did:\n- one\n\n```\n### Log 9 @x (y)\n```');
    expect(value.workLog[0]!.extra).toBe('After the list.');
    expect(serializeLog(value)).toBe(text);
  });
});

// Logs with the mess people and agents write: blocks of every kind in the preamble, between and
// inside tasks, after the checklist, in and between Work Log entries.
const looseBlock = fc.constantFrom(
  'Plain paragraph.',
  'Two line\nparagraph.',
  '> a quote\n> - [ ] not a task',
  '```\n## Roadmap\n- [ ] 9. fenced\n  - status: Failed\n```',
  '~~~md\n### Log 7 @x (y)\n~~~',
  '<!-- a comment\n## Work Log\n-->',
  '<div>\nhtml\n</div>',
  '[ref]: https://example.com "t"',
  '   Indented three.',
  '1. an ordered\n2. list',
  '***',
  '#### A small heading',
  '    indented code',
);
const subBullet = fc.constantFrom('- note: x', '- details\n  - deeper', '* star note', '+ plus note\n\n  with a paragraph', '-', '- `status: Failed` in code');
const messyTask = (id: string): fc.Arbitrary<string> =>
  fc
    .record({
      checked: fc.boolean(),
      status: statusArb,
      runner: fc.option(runnerArb, { nil: undefined }),
      before: fc.array(subBullet, { maxLength: 2 }),
      after: fc.array(looseBlock, { maxLength: 2 }),
      cont: fc.boolean(),
    })
    .map(({ checked, status, runner, before, after, cont }) => {
      const ind = (t: string): string => t.split('\n').map((l) => (l === '' ? '' : `  ${l}`)).join('\n');
      let s = `- [${checked ? 'x' : ' '}] ${id}. Task ${id}${cont ? '\n  continued' : ''}\n  - status: ${status}`;
      if (runner !== undefined) s += `\n  - runner: ${runner}`;
      for (const b of before) s += `\n${ind(b)}`;
      for (const a of after) s += `\n\n${ind(a)}`;
      return s;
    });
const messyLog = fc
  .record({
    preamble: fc.array(looseBlock, { maxLength: 2 }),
    tasks: fc.integer({ min: 0, max: 4 }).chain((n) => fc.tuple(...Array.from({ length: n }, (_, i) => messyTask(String(i + 1))))),
    loose: fc.boolean(),
    outro: fc.array(looseBlock, { maxLength: 2 }),
    entries: fc.array(fc.tuple(fc.array(looseBlock, { maxLength: 2 }), fc.boolean()), { maxLength: 3 }),
    tail: fc.array(looseBlock, { maxLength: 1 }),
  })
  .map(({ preamble, tasks, loose, outro, entries, tail }) => {
    let s = '---\ntitle: "Messy"\nprogress: "10%"\nkeep: me\n---\n';
    for (const b of preamble) s += `\n${b}\n`;
    s += '\n## Roadmap\n\n';
    s += tasks.join(loose ? '\n\n' : '\n');
    for (const b of outro) s += `\n\n${b}`;
    s += '\n\n## Work Log\n';
    entries.forEach(([extra, summaryFirst], i) => {
      s += `\n### Log ${entries.length - i} @job (t${i})\n\n`;
      const fields = ['- **Role**: Runner', '- **Objective**: Task 1', '- **Result**: Succeeded', '- **Summary**: line one\n  line two'];
      if (summaryFirst) fields.unshift(fields.pop()!);
      s += fields.join('\n');
      for (const b of extra) s += `\n\n${b}`;
      s += '\n';
    });
    for (const b of tail) s += `\n## Extra\n\n${b}\n`;
    return s;
  });

describe('properties on messy input', () => {
  test('whatever parses cleanly is written back without losing or moving anything: one rewrite is a fixed point', () => {
    let clean = 0;
    const runs = Number(process.env.JIXO_RUNS ?? 300);
    fc.assert(
      fc.property(messyLog, (text) => {
        const first = parseLog(text);
        if (first.diagnostics.some((d) => d.severity === 'error')) return; // never rewritten
        clean++;
        const out = serializeLog(first.value);
        // nothing lost: every word of the input is still there, as often
        const words = (t: string): Map<string, number> => (t.match(/[A-Za-z0-9]+/g) ?? []).reduce((m, w) => m.set(w, (m.get(w) ?? 0) + 1), new Map<string, number>());
        const after = words(out);
        for (const [w, n] of words(text)) expect(after.get(w) ?? 0, `"${w}" lost from\n${text}\n---\n${out}`).toBeGreaterThanOrEqual(n);
        const second = parseLog(out);
        expect(second.diagnostics.filter((d) => d.severity === 'error'), out).toEqual([]);
        expect(second.value).toEqual(first.value);
        expect(serializeLog(second.value)).toBe(out);
      }),
      { numRuns: runs },
    );
    // The generator is meant to produce mostly valid logs, or the property would prove little.
    expect(clean).toBeGreaterThan(runs / 2);
  }, 120_000);
});
