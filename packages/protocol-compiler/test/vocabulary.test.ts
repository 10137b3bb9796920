import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { compileProtocols, loadProtocolSet, renderProtocols, type PlanVocabulary } from '../src/index.js';
import { protocolJson, tempDir, writeFiles } from './support.js';

const fdc: PlanVocabulary = {
  id: 'fdc',
  source: 'protocols/fdc.dialect.json',
  purpose: 'Task plans (`ratchet run plan`).',
  description: 'The FDC plan language.',
  entries: [
    { usage: 'read_file <file>', meaning: 'Reads `<file>`.' },
    { usage: 'run_in_bash_session close', meaning: 'Closes the plan.' },
  ],
};

async function project(): Promise<{ protocols: string; target: string }> {
  const dir = await tempDir();
  await writeFiles(dir, { 'protocols/a.protocol.json': protocolJson('a', { associated_tools: ['ratchet plan lint'] }) });
  return { protocols: join(dir, 'protocols'), target: join(dir, 'AGENTS.md') };
}

describe('plan vocabulary', () => {
  test('each dialect is a section listing its lines, after the protocols and before the tool reference', async () => {
    const { protocols } = await project();
    const text = renderProtocols(await loadProtocolSet(protocols), { vocabularies: [fdc], usageFor: (t) => (t === 'ratchet plan lint' ? 'Usage: ratchet plan lint' : undefined) });
    expect(text).toContain(
      '## Plan vocabulary\n\nThe lines a plan may contain, one command per line: generated from the dialects `ratchet plan lint` checks plans against, so this list changes when a dialect does. Which orders are legal is the FSM the dialect names.\n\n' +
        '### Dialect `fdc` (`protocols/fdc.dialect.json`)\n\nTask plans (`ratchet run plan`).\n\nThe FDC plan language.\n\n- `read_file <file>`: Reads `<file>`.\n- `run_in_bash_session close`: Closes the plan.\n',
    );
    expect(text.indexOf('## Protocol `a`')).toBeLessThan(text.indexOf('## Plan vocabulary'));
    expect(text.indexOf('## Plan vocabulary')).toBeLessThan(text.indexOf('## Tool reference'));
    expect(renderProtocols(await loadProtocolSet(protocols))).not.toContain('Plan vocabulary');
  });

  test('data cannot break the list: newlines are folded, backticks in a usage get a longer delimiter', async () => {
    const { protocols } = await project();
    const text = renderProtocols(await loadProtocolSet(protocols), {
      vocabularies: [{ ...fdc, description: 'line one\n# not a heading', entries: [{ usage: 'say `hi`', meaning: 'two\n\n- lines' }] }],
    });
    expect(text).toContain('line one # not a heading\n');
    expect(text).toContain('- `` say `hi` ``: two - lines\n');
  });

  test('`check` reports the block stale when a dialect changes, and a compile brings it back in step', async () => {
    const { protocols, target } = await project();
    await compileProtocols({ protocolsDir: protocols, targets: [target], vocabularies: [fdc] });
    const grown = { ...fdc, entries: [...fdc.entries, { usage: 'lint_code [args...]', meaning: 'Run the linter.' }] };
    const check = await compileProtocols({ protocolsDir: protocols, targets: [target], vocabularies: [grown], check: true });
    expect(check.stale).toBe(true);
    expect(check.targets[0]!.diff).toContain('+- `lint_code [args...]`: Run the linter.');
    await compileProtocols({ protocolsDir: protocols, targets: [target], vocabularies: [grown] });
    expect((await compileProtocols({ protocolsDir: protocols, targets: [target], vocabularies: [grown], check: true })).stale).toBe(false);
  });
});
