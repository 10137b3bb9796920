/** A protocols directory laid out as the original Jules system did (test/fixtures/jules/protocols). */
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { compileProtocols, loadProtocolSet, renderProtocols, updateProtocol } from '../src/index.js';

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

/**
 * The later original layout (test/fixtures/jules-underscore, the shape of IDMclean/AgenticDevTools and
 * metavacua/SynthPlayground protocol folders): `NN_name.protocol.md` paired by numeric prefix, a
 * security sub-folder without its own schema, the hierarchical build's leftovers.
 */
describe('the original layout: NN_name.protocol.md, sub-folders, generated leftovers', () => {
  const ROOT = fileURLToPath(new URL('./fixtures/jules-underscore/', import.meta.url));
  const UNDERSCORE = join(ROOT, 'protocols');

  function copyUnderscore(): string {
    const root = mkdtempSync(join(tmpdir(), 'ratchet-jules-underscore-'));
    cpSync(ROOT, root, { recursive: true });
    return root;
  }

  it('NN_name.protocol.md pairs with the NN_ protocol without prose of its own; exact names stay paired; leftovers are skipped with why', async () => {
    const set = await loadProtocolSet(UNDERSCORE);
    expect(set.sources.map((s) => [s.protocol.protocol_id, s.prose?.file.split('/').pop()])).toEqual([
      ['aorp-header', '00_introduction.protocol.md'],
      ['core-directive-001', '01_the_core_problem_checkable_plans.protocol.md'],
      ['bootstrap', '02_bootstrap.protocol.md'],
      ['dependency-management', '02_dependency-management.protocol.md'],
    ]);
    expect(set.skipped?.map((s) => [s.file.split('/').pop(), s.reason.slice(0, 40)])).toEqual([
      ['99_system_documentation.autodoc.md', "the original's placeholder for its gener"],
      ['_z_child_summary_core.protocol.md', "a child summary the original's hierarchi"],
    ]);
    // The original's own schema (it requires `version`) validates them: a source without it is refused at its place.
    const dir = join(copyUnderscore(), 'protocols');
    writeFileSync(join(dir, '03_extra.protocol.json'), '{\n  "protocol_id": "extra",\n  "description": "d",\n  "rules": []\n}\n');
    const err = (await loadProtocolSet(dir).catch((e: unknown) => e)) as { problems: { file: string; message: string; line?: number }[] };
    expect(err.problems).toEqual([expect.objectContaining({ file: join(dir, '03_extra.protocol.json'), message: "must have required property 'version'", line: 1 })]);
  });

  it('a sub-folder without its own schema uses the nearest one above it, up to schemaRoot; the bundled schema accepts the original fields', async () => {
    const root = copyUnderscore();
    const security = join(root, 'protocols', 'security');
    // With the project root as schemaRoot: protocols/protocol.schema.json applies (it requires `version`).
    const set = await loadProtocolSet(security, { schemaRoot: root });
    expect(set.sources.map((s) => [s.protocol.protocol_id, s.prose?.file.split('/').pop()])).toEqual([
      ['security-header', '00_introduction.protocol.md'],
      ['vulnerability-reporting', undefined],
    ]);
    writeFileSync(join(security, '02_no-version.protocol.json'), JSON.stringify({ protocol_id: 'no-version', description: 'd', rules: [] }));
    await expect(loadProtocolSet(security, { schemaRoot: root })).rejects.toThrow(/02_no-version\.protocol\.json.*required property 'version'/);
    // Without a schema anywhere, the bundled one: `version` and `rules[].tags` are the original's fields, accepted.
    rmSync(join(root, 'protocols', 'protocol.schema.json'));
    rmSync(join(security, '02_no-version.protocol.json'));
    expect((await loadProtocolSet(security, { schemaRoot: root })).sources).toHaveLength(2);
    // A schema above the root is not the project's: not used.
    writeFileSync(join(root, 'protocols', 'protocol.schema.json'), JSON.stringify({ type: 'object', required: ['owner'] }));
    expect((await loadProtocolSet(security, { schemaRoot: security })).sources).toHaveLength(2);
    await expect(loadProtocolSet(security, { schemaRoot: root })).rejects.toThrow(/required property 'owner'/);
  });

  it('a folder whose only other content is generated leftovers compiles (the JSON leftover too); the compile lists what it skipped', async () => {
    const root = copyUnderscore();
    const target = join(root, 'AGENTS.md');
    const result = await compileProtocols({ protocolsDir: join(root, 'protocols', 'core'), targets: [target], schemaRoot: root });
    expect(result.protocols).toEqual(['file-indexing']);
    expect(result.skipped.map((s) => s.file.split('/').pop())).toEqual(['_z_child_summary_core.protocol.json', '_z_child_summary_core.protocol.md']);
    expect(readFileSync(target, 'utf8')).not.toContain('Child Module');
  });

  it("a project schema that leaves rules out compiles a protocol without rules; one that allows what the compiler cannot render is refused at its place", async () => {
    const dir = join(mkdtempSync(join(tmpdir(), 'ratchet-jules-loose-')), 'protocols');
    mkdirSync(dir);
    writeFileSync(join(dir, 'protocol.schema.json'), JSON.stringify({ type: 'object', required: ['protocol_id', 'description'] }));
    writeFileSync(join(dir, 'agent.protocol.json'), JSON.stringify({ protocol_id: 'agent', description: 'An agent with no rules.', core_mandate: 'Be careful.' }));
    const set = await loadProtocolSet(dir);
    const text = renderProtocols(set);
    expect(text).toContain('## Protocol `agent`');
    expect(text).toContain('"core_mandate": "Be careful."');
    writeFileSync(join(dir, 'bad.protocol.json'), '{\n  "protocol_id": 7,\n  "description": "d",\n  "rules": "none"\n}\n');
    const err = (await loadProtocolSet(dir).catch((e: unknown) => e)) as { problems: { pointer?: string; line?: number; message: string }[] };
    expect(err.problems.map((p) => [p.pointer, p.line])).toEqual([
      ['/protocol_id', 2],
      ['/rules', 4],
    ]);
    expect(err.problems[0]!.message).toContain('the compiler needs it, whatever protocol.schema.json allows');
  });

  it('unnumbered prose that pairs with nothing is still refused, and says how to make it prose of its own', async () => {
    const dir = join(copyUnderscore(), 'protocols');
    writeFileSync(join(dir, 'CHARTER.protocol.md'), '# Charter\n');
    await expect(loadProtocolSet(dir)).rejects.toThrow(/CHARTER\.protocol\.md.*pairs with no protocol.*number it \(NN_name\.protocol\.md\) to compile it as prose of its own/s);
    rmSync(join(dir, 'CHARTER.protocol.md'));
    writeFileSync(join(dir, '05_charter.protocol.md'), '# Charter\n');
    expect((await loadProtocolSet(dir)).prose?.map((p) => p.name)).toEqual(['05_charter.protocol.md']);
  });
});
