/** A protocols directory laid out as the original Jules system did (test/fixtures/jules/protocols). */
import { cpSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { loadProtocolSet, renderProtocols, updateProtocol } from '../src/index.js';

const PROTOCOLS = fileURLToPath(new URL('./fixtures/jules/protocols/', import.meta.url));

function copy(): string {
  const dir = join(mkdtempSync(join(tmpdir(), 'ratchet-jules-protocols-')), 'protocols');
  cpSync(PROTOCOLS, dir, { recursive: true });
  return dir;
}

describe('the original layout: NN-name.md paired by numeric prefix', () => {
  it('pairs prose with the protocol of the same prefix and compiles an introduction as prose, in file order', async () => {
    const set = await loadProtocolSet(PROTOCOLS);
    expect(set.sources.map((s) => [s.protocol.protocol_id, s.prose?.file.split('/').pop()])).toEqual([
      ['core-directive-001', '01-core-directive.md'],
      ['decidability-constraints-001', '02-decidability.md'],
    ]);
    expect(set.prose?.map((p) => p.name)).toEqual(['00-introduction.md']);
    const text = renderProtocols(set, { sourceLabel: 'protocols/' });
    const intro = text.indexOf('# Jules Agent Protocol');
    const core = text.indexOf('# Core Directive');
    const decidability = text.indexOf('# Decidability');
    expect(intro).toBeGreaterThan(0);
    expect(intro).toBeLessThan(core);
    expect(core).toBeLessThan(decidability);
    // Prose with its own title keeps it alone (the original duplicated headings).
    expect(text).not.toContain('## Protocol `core-directive-001`');
  });

  it('two protocols with the prefix of a prose file: an error naming both, not a guess', async () => {
    const dir = copy();
    writeFileSync(join(dir, '02-other.protocol.json'), JSON.stringify({ protocol_id: 'other', description: 'd', rules: [] }));
    await expect(loadProtocolSet(dir)).rejects.toThrow(/02-decidability\.md.*more than one protocol has the prefix 02-/s);
  });

  it('a protocol written in YAML reads like its JSON form, paired with its prose; broken YAML is a problem at its line', async () => {
    const dir = copy();
    writeFileSync(join(dir, '03-research.protocol.yaml'), 'protocol_id: research-001\ndescription: Research before building.\nrules:\n  - rule_id: cite\n    description: Cite every source.\n    enforcement: Review.\n');
    writeFileSync(join(dir, '03-research.md'), '# Research\n\nLook things up.\n');
    const set = await loadProtocolSet(dir);
    expect(set.sources.map((s) => [s.protocol.protocol_id, s.prose?.file.split('/').pop()])).toContainEqual(['research-001', '03-research.md']);
    // Lessons edit JSON text in place: a YAML source is refused with its name, not rewritten as JSON.
    await expect(updateProtocol(dir, { command: 'add-tool', protocolId: 'research-001', tool: 'grep' })).rejects.toThrow(/03-research\.protocol\.yaml.*written in YAML/);
    writeFileSync(join(dir, '04-bad.protocol.yml'), 'protocol_id: bad\nrules: [\n');
    writeFileSync(join(dir, '05-invalid.protocol.yaml'), 'protocol_id: invalid\ndescription: x\nrules:\n  - rule_id: r\n');
    const err = (await loadProtocolSet(dir).catch((e: unknown) => e)) as { problems: { file: string; line?: number; message: string }[] };
    const byFile = (name: string) => err.problems.find((p) => p.file.endsWith(name));
    expect(byFile('04-bad.protocol.yml')?.line).toBe(3);
    expect(byFile('05-invalid.protocol.yaml')?.line).toBe(4);
  });
});
