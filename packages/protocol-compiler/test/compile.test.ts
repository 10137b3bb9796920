import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { BEGIN_MARKER, END_MARKER, compileProtocols, findManagedBlock, loadProtocolSet, renderProtocols, replaceManagedBlock, type ProtocolError } from '../src/index.js';
import { protocolJson, tempDir, writeFiles } from './support.js';

async function project(): Promise<{ dir: string; protocols: string; target: string }> {
  const dir = await tempDir();
  await writeFiles(dir, {
    'protocols/10-b.protocol.json': protocolJson('beta', { associated_tools: ['ratchet plan lint', 'google_search'], associated_artifacts: ['knowledge_core/x.json'] }),
    'protocols/00-a.protocol.json': protocolJson('alpha', { deprecated_tools: ['old.py'] }),
    'protocols/00-a.protocol.md': '# Alpha Title\n\nWhy alpha exists.\n',
    'protocols/VERSION': '2.0.0\n',
  });
  return { dir, protocols: join(dir, 'protocols'), target: join(dir, 'AGENTS.md') };
}

const usageFor = (tool: string): string | undefined => (tool === 'ratchet plan lint' ? 'Usage: ratchet plan lint [options] <plan>   \n\u001b[1mbold\u001b[22m\n' : undefined);

describe('render', () => {
  test('header, prose without a duplicated title, rules as a list, JSON fenced, usage embedded once, deterministic', async () => {
    const { protocols } = await project();
    const set = await loadProtocolSet(protocols);
    const text = renderProtocols(set, { usageFor });
    expect(text).toContain('DO NOT EDIT');
    expect(text).toContain('**Version:** 2.0.0');
    expect(text.match(/Alpha Title/g)).toHaveLength(1);
    expect(text).not.toContain('## Protocol `alpha`');
    expect(text).toContain('## Protocol `beta`');
    expect(text).toContain('- **`beta-rule`**: Follow beta.\n  - *Enforcement:* Review.');
    expect(text).toContain('`ratchet plan lint` (see Tool reference)');
    expect(text).toContain('### `ratchet plan lint`\n\n```text\nUsage: ratchet plan lint [options] <plan>\nbold\n```');
    expect(text).toContain('**Deprecated tools (do not use):** `old.py`');
    // The JSON block parses back to the protocol.
    const blocks = [...text.matchAll(/```json\n([\s\S]*?)\n```/g)].map((m) => JSON.parse(m[1]!) as { protocol_id: string });
    expect(blocks.map((b) => b.protocol_id)).toEqual(['alpha', 'beta']);
    expect(text.indexOf('alpha-rule')).toBeLessThan(text.indexOf('beta-rule'));
    expect(renderProtocols(await loadProtocolSet(protocols), { usageFor })).toBe(text);
    expect(text).not.toMatch(/Compiled at/);
    expect(renderProtocols(set, { timestamp: '2030-01-01T00:00:00Z' })).toContain('**Compiled at:** 2030-01-01T00:00:00Z');
  });

  test('prose without a title gets the protocol heading; backticks in names cannot break inline code', async () => {
    const dir = await tempDir();
    await writeFiles(dir, {
      'a.protocol.json': protocolJson('a', { associated_tools: ['run `make`', '``x'], deprecated_tools: ['`old`'] }),
      'a.protocol.md': 'Just a paragraph, no title.\n',
    });
    const text = renderProtocols(await loadProtocolSet(dir));
    expect(text).toContain('## Protocol `a`\n\nJust a paragraph, no title.');
    expect(text).toContain("**Associated tools:** `` run `make` ``, ``` ``x ```");
    expect(text).toContain('**Deprecated tools (do not use):** `` `old` ``');
  });

  test('a fence inside content cannot close the JSON block early', async () => {
    const dir = await tempDir();
    await writeFiles(dir, { 'a.protocol.json': protocolJson('a', { description: 'uses ```` fences' }) });
    const text = renderProtocols(await loadProtocolSet(dir));
    expect(text).toContain('`````json');
  });
});

describe('compileProtocols', () => {
  test('creates, keeps hand-written text outside the block, reports unchanged on a second run, several targets', async () => {
    const { dir, protocols, target } = await project();
    const claude = join(dir, 'CLAUDE.md');
    await writeFile(claude, '# Mine\n\nHand-written.\n');
    const first = await compileProtocols({ protocolsDir: protocols, targets: [target, claude] });
    expect(first.targets.map((t) => t.status)).toEqual(['created', 'updated']);
    const claudeText = await readFile(claude, 'utf8');
    expect(claudeText.startsWith('# Mine\n\nHand-written.\n\n' + BEGIN_MARKER)).toBe(true);
    await writeFile(claude, `${claudeText}\n## After the block\n`);
    const second = await compileProtocols({ protocolsDir: protocols, targets: [target, claude] });
    expect(second.targets.map((t) => t.status)).toEqual(['unchanged', 'unchanged']);
    expect(await readFile(claude, 'utf8')).toContain('## After the block');
  });

  test('--check writes nothing and returns a diff when stale; a missing target is stale', async () => {
    const { protocols, target } = await project();
    const missing = await compileProtocols({ protocolsDir: protocols, targets: [target], check: true });
    expect(missing.stale).toBe(true);
    expect(missing.targets[0]!.status).toBe('missing');
    await compileProtocols({ protocolsDir: protocols, targets: [target] });
    expect((await compileProtocols({ protocolsDir: protocols, targets: [target], check: true })).stale).toBe(false);
    await writeFiles(protocols, { '10-b.protocol.json': protocolJson('beta', { description: 'Changed.' }) });
    const before = await readFile(target, 'utf8');
    const stale = await compileProtocols({ protocolsDir: protocols, targets: [target], check: true, labelFor: () => 'AGENTS.md' });
    expect(stale.stale).toBe(true);
    expect(stale.targets[0]!.diff).toContain('--- AGENTS.md (current)');
    expect(stale.targets[0]!.diff).toMatch(/^\+Changed\.$/m);
    expect(await readFile(target, 'utf8')).toBe(before);
  });

  test('a timestamp only when asked; it records the last content change, and --check ignores it', async () => {
    const { protocols, target } = await project();
    await compileProtocols({ protocolsDir: protocols, targets: [target], timestamp: '2030-01-01T00:00:00Z' });
    const stamped = await readFile(target, 'utf8');
    expect(stamped).toContain('**Compiled at:** 2030-01-01T00:00:00Z');
    // Unchanged sources: nothing is written, the old timestamp stays; --check passes.
    const again = await compileProtocols({ protocolsDir: protocols, targets: [target], timestamp: '2031-01-01T00:00:00Z' });
    expect(again.targets[0]!.status).toBe('unchanged');
    expect(await readFile(target, 'utf8')).toBe(stamped);
    expect((await compileProtocols({ protocolsDir: protocols, targets: [target], check: true })).stale).toBe(false);
    // Changed sources: --check shows the content change only; a timestamped recompile stamps anew.
    await writeFiles(protocols, { '10-b.protocol.json': protocolJson('beta', { description: 'Changed.' }) });
    const check = await compileProtocols({ protocolsDir: protocols, targets: [target], check: true });
    expect(check.stale).toBe(true);
    expect(check.targets[0]!.diff).not.toContain('Compiled at');
    await compileProtocols({ protocolsDir: protocols, targets: [target], timestamp: '2032-01-01T00:00:00Z' });
    expect(await readFile(target, 'utf8')).toContain('**Compiled at:** 2032-01-01T00:00:00Z');
    // Without --timestamp the line goes: same sources, same bytes as a never-stamped compile.
    await compileProtocols({ protocolsDir: protocols, targets: [target] });
    const plain = await readFile(target, 'utf8');
    expect(plain).not.toContain('Compiled at');
    const fresh = join(protocols, '..', 'FRESH.md');
    await compileProtocols({ protocolsDir: protocols, targets: [fresh] });
    expect(plain).toBe(await readFile(fresh, 'utf8'));
  });

  test('a target with a BOM keeps it', async () => {
    const { protocols, target } = await project();
    await writeFile(target, '\uFEFF# Mine\n');
    await compileProtocols({ protocolsDir: protocols, targets: [target] });
    const bytes = await readFile(target);
    expect([...bytes.subarray(0, 5)]).toEqual([0xef, 0xbb, 0xbf, 0x23, 0x20]);
    expect((await compileProtocols({ protocolsDir: protocols, targets: [target], check: true })).stale).toBe(false);
  });

  test('requireUsage: a claimed tool the provider cannot document is an error with its place', async () => {
    const { protocols, target } = await project();
    await writeFiles(protocols, { '20-c.protocol.json': protocolJson('gamma', { associated_tools: ['google_search', 'ratchet plan lint', 'ratchet plan lnit'] }) });
    const err = (await compileProtocols({ protocolsDir: protocols, targets: [target], usageFor, requireUsage: (t) => t.startsWith('ratchet ') }).catch((e: unknown) => e)) as ProtocolError;
    expect(err.code).toBe('unknown-tool');
    expect(err.problems.map((p) => [p.pointer, p.line])).toEqual([['/associated_tools/2', 14]]);
    expect(err.reason).toContain('"ratchet plan lnit"');
    await expect(readFile(target, 'utf8')).rejects.toThrow();
  });

  test('broken markers are an error and the file is left alone', async () => {
    const { protocols, target } = await project();
    for (const text of [`${BEGIN_MARKER}\nno end\n`, `x\n${END_MARKER}\n`, `${BEGIN_MARKER}\n${END_MARKER}\n${BEGIN_MARKER}\n${END_MARKER}\n`, `${END_MARKER}\n${BEGIN_MARKER}\n`]) {
      await writeFile(target, text);
      const err = (await compileProtocols({ protocolsDir: protocols, targets: [target] }).catch((e: unknown) => e)) as ProtocolError;
      expect(err.code).toBe('bad-markers');
      expect(err.line).toBeGreaterThan(0);
      expect(await readFile(target, 'utf8')).toBe(text);
    }
  });

  test('CRLF targets stay CRLF; markers inside code fences are not markers', async () => {
    const { protocols, target } = await project();
    await writeFile(target, `# Doc\r\n\r\n\`\`\`\r\n${BEGIN_MARKER}\r\n\`\`\`\r\n`);
    await compileProtocols({ protocolsDir: protocols, targets: [target] });
    const text = await readFile(target, 'utf8');
    expect(text.replace(/\r\n/g, '')).not.toContain('\n');
    expect(findManagedBlock(text)).toBeDefined();
    expect(text.startsWith(`# Doc\r\n\r\n\`\`\`\r\n${BEGIN_MARKER}\r\n\`\`\`\r\n`)).toBe(true);
  });

  test('prose that would forge a marker is refused', async () => {
    const { protocols, target } = await project();
    await writeFiles(protocols, { '00-a.protocol.md': `# A\n${END_MARKER}\n` });
    const err = (await compileProtocols({ protocolsDir: protocols, targets: [target] }).catch((e: unknown) => e)) as ProtocolError;
    expect(err.code).toBe('bad-markers');
    expect(err.path).toContain('00-a.protocol.md');
  });

  test('property: text outside the block survives and recompiling is idempotent', () => {
    // Backticks and tildes excluded: a fence opened outside the block would (rightly) hide the markers.
    const outside = fc.string({ maxLength: 200 }).filter((s) => !s.includes('ratchet:protocols') && !/[`~]/.test(s));
    fc.assert(
      fc.property(outside, outside, fc.string({ maxLength: 100 }).filter((s) => !s.includes('ratchet:protocols')), (before, after, body) => {
        const start = replaceManagedBlock(undefined, 'old');
        const doc = `${before}\n${start}${after}`;
        const once = replaceManagedBlock(doc, body);
        expect(once.startsWith(`${before}\n`)).toBe(true);
        expect(once.endsWith(after)).toBe(true);
        expect(replaceManagedBlock(once, body)).toBe(once);
      }),
      { numRuns: 200 },
    );
  });
});
