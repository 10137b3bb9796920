import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { COMPACT_MARKER, compileProtocols, detailOfBlock, findManagedBlock, firstSentence, loadProtocolSet, renderProtocolDetail, renderProtocols } from '../src/index.js';
import { protocolJson, tempDir, writeFiles } from './support.js';

const rules = (id: string, n: number): { rule_id: string; description: string; enforcement: string }[] =>
  Array.from({ length: n }, (_, i) => ({ rule_id: `${id}-r${i}`, description: `Rule ${i} of ${id}. A second sentence that the brief leaves out.`, enforcement: `Enforced by check ${i}.` }));

async function project(): Promise<{ dir: string; protocols: string; target: string }> {
  const dir = await tempDir();
  await writeFiles(dir, {
    'protocols/10-b.protocol.json': protocolJson('beta', { rules: rules('beta', 3), associated_tools: ['ratchet plan lint'], deprecated_tools: ['old.py'] }),
    'protocols/00-a.protocol.json': protocolJson('alpha', { rules: rules('alpha', 2) }),
    'protocols/00-a.protocol.md': '# Alpha Title\n\nWhy alpha exists, at length.\n',
    'protocols/05-intro.md': '# Introduction\n\nLong author prose.\n',
    'protocols/VERSION': '2.0.0\n',
  });
  return { dir, protocols: join(dir, 'protocols'), target: join(dir, 'AGENTS.md') };
}

const usageFor = (tool: string): string | undefined => (tool === 'ratchet plan lint' ? 'Usage: ratchet plan lint [options] <plan>' : undefined);

describe('compact detail', () => {
  test('names every rule id with its first sentence, in protocol order, and leaves the rest to `protocol show`', async () => {
    const set = await loadProtocolSet((await project()).protocols);
    const text = renderProtocols(set, { detail: 'compact', usageFor });
    expect(text.split('\n')[1]).toBe(COMPACT_MARKER);
    const ids = [...text.matchAll(/^- `([a-z]+-r\d)`: (.*)$/gm)];
    expect(ids.map((m) => m[1])).toEqual(['alpha-r0', 'alpha-r1', 'beta-r0', 'beta-r1', 'beta-r2']);
    expect(ids[0]![2]).toBe('Rule 0 of alpha.');
    expect(text).toContain('## `alpha`: Alpha Title');
    expect(text).toContain('`ratchet protocol show <id>`');
    expect(text).toContain('Commands: `ratchet plan lint`. Do not use: `old.py`');
    // Freestanding prose: its title and the command that prints it, in file-name order.
    expect(text).toContain('## Introduction\n\nRead it with `ratchet protocol show 05-intro`.');
    expect(text.indexOf('Introduction')).toBeGreaterThan(text.indexOf('alpha-r1'));
    expect(text.indexOf('Introduction')).toBeLessThan(text.indexOf('beta-r0'));
    for (const left of ['Enforced by', 'A second sentence', 'at length', 'Long author prose', 'Usage:', '```']) expect(text).not.toContain(left);
    expect(renderProtocols(await loadProtocolSet((await project()).protocols), { detail: 'compact', usageFor })).toBe(text);
    expect(renderProtocols(set, { usageFor })).toBe(renderProtocols(set, { detail: 'full', usageFor }));
  });

  test('renderProtocolDetail gives one protocol in full with the usage of its own commands only', async () => {
    const set = await loadProtocolSet((await project()).protocols);
    const beta = renderProtocolDetail(set.sources.find((s) => s.protocol.protocol_id === 'beta')!, { usageFor });
    expect(beta).toContain('- **`beta-r2`**: Rule 2 of beta. A second sentence that the brief leaves out.\n  - *Enforcement:* Enforced by check 2.');
    expect(beta).toContain('### `ratchet plan lint`\n\n```text\nUsage: ratchet plan lint [options] <plan>\n```');
    expect(beta).not.toContain('alpha');
    const alpha = renderProtocolDetail(set.sources.find((s) => s.protocol.protocol_id === 'alpha')!, { usageFor });
    expect(alpha).toContain('Why alpha exists, at length.');
    expect(alpha).not.toContain('Tool reference');
  });

  test('firstSentence: ends at a sentence break, never inside code or after an abbreviation', () => {
    expect(firstSentence('Run `a. B` first. Then go.')).toBe('Run `a. B` first.');
    expect(firstSentence('Use a tool, e.g. Grep, here. Next.')).toBe('Use a tool, e.g. Grep, here.');
    expect(firstSentence('Version 1.2 is fine. More.')).toBe('Version 1.2 is fine.');
    expect(firstSentence('Line one\r\ncontinues. Two.')).toBe('Line one continues.');
    expect(firstSentence('No stop at all')).toBe('No stop at all');
    expect(firstSentence('Ends with ``code with ` inside. X`` then. Y.')).toBe('Ends with ``code with ` inside. X`` then.');
    expect(firstSentence('')).toBe('');
    const huge = `${'word '.repeat(50_000)}end. Next.`;
    expect(firstSentence(huge).endsWith('end.')).toBe(true);
  });
});

describe('compile at a detail', () => {
  test('a new target gets newTargetDetail; a plain recompile and --check keep the detail each target was written with', async () => {
    const { protocols, target, dir } = await project();
    const other = join(dir, 'CLAUDE.md');
    await compileProtocols({ protocolsDir: protocols, targets: [target], newTargetDetail: 'compact' });
    await compileProtocols({ protocolsDir: protocols, targets: [other], detail: 'full' });
    const compact = await readFile(target, 'utf8');
    const full = await readFile(other, 'utf8');
    expect(compact).toContain(COMPACT_MARKER);
    expect(full).not.toContain(COMPACT_MARKER);
    expect(full).toContain('*Enforcement:*');

    // No detail given: each keeps its own, byte for byte, and check agrees with both.
    const again = await compileProtocols({ protocolsDir: protocols, targets: [target, other], newTargetDetail: 'compact' });
    expect(again.targets.map((t) => [t.status, t.detail])).toEqual([['unchanged', 'compact'], ['unchanged', 'full']]);
    const check = await compileProtocols({ protocolsDir: protocols, targets: [target, other], check: true, newTargetDetail: 'compact' });
    expect(check.stale).toBe(false);
    expect(await readFile(target, 'utf8')).toBe(compact);

    // Checking at the other detail finds them stale, with a diff; nothing is written.
    const cross = await compileProtocols({ protocolsDir: protocols, targets: [target], check: true, detail: 'full' });
    expect(cross.targets[0]!.status).toBe('stale');
    expect(cross.targets[0]!.diff).toContain('+- **`alpha-r0`**');
    expect(await readFile(target, 'utf8')).toBe(compact);

    // An explicit detail switches the target, and from then on it sticks.
    await compileProtocols({ protocolsDir: protocols, targets: [target], detail: 'full' });
    expect(await readFile(target, 'utf8')).toBe(full);
    const sticky = await compileProtocols({ protocolsDir: protocols, targets: [target], newTargetDetail: 'compact' });
    expect(sticky.targets[0]).toMatchObject({ status: 'unchanged', detail: 'full' });
  });

  test('a stale compact target is caught by check, and text outside the block survives (CRLF kept)', async () => {
    const { protocols, target } = await project();
    await writeFile(target, '# Mine\r\n\r\nKeep me.\r\n');
    await compileProtocols({ protocolsDir: protocols, targets: [target], newTargetDetail: 'compact' });
    const written = await readFile(target, 'utf8');
    expect(written.startsWith('# Mine\r\n\r\nKeep me.\r\n')).toBe(true);
    expect(written).not.toMatch(/[^\r]\n/);
    expect(detailOfBlock(written.slice(findManagedBlock(written)!.start))).toBe('compact');
    await writeFile(join(protocols, '10-b.protocol.json'), protocolJson('beta', { rules: rules('beta', 4) }));
    const check = await compileProtocols({ protocolsDir: protocols, targets: [target], check: true, newTargetDetail: 'full' });
    expect(check.targets[0]).toMatchObject({ status: 'stale', detail: 'compact' });
    expect(check.targets[0]!.diff).toContain('+- `beta-r3`: Rule 3 of beta.');
  });

  test('the marker counts only right after the notice: a full block quoting it in prose stays full', async () => {
    const { protocols, target } = await project();
    await writeFile(join(protocols, '00-a.protocol.md'), `# Alpha Title\n\n${COMPACT_MARKER}\n\nQuoted.\n`);
    await compileProtocols({ protocolsDir: protocols, targets: [target], detail: 'full' });
    const check = await compileProtocols({ protocolsDir: protocols, targets: [target], check: true, newTargetDetail: 'compact' });
    expect(check.targets[0]).toMatchObject({ status: 'unchanged', detail: 'full' });
    // A block written before `compact` existed (no marker) is full.
    expect(detailOfBlock('<!-- ratchet:protocols:begin -->\n<!-- GENERATED by x -->\n\n# Agent Protocols\n')).toBe('full');
    expect(detailOfBlock(`<!-- ratchet:protocols:begin -->\r\n<!-- GENERATED by x -->\r\n${COMPACT_MARKER}\r\n`)).toBe('compact');
    expect(detailOfBlock(`<!-- ratchet:protocols:begin -->\n# hand-written\n${COMPACT_MARKER}\n`)).toBe('full');
  });
});
