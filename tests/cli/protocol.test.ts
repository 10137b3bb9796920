// The built `ratchet` binary, several real processes at once: protocol edits and compiles share the
// protocol sources and AGENTS.md through the store's inter-process locks, and lose nothing.
import { spawn } from 'node:child_process';
import { cpSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { bin, examples, ratchet, tempDir } from '../helpers.js';

function run(args: string[], cwd: string): Promise<{ code: number | null; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [bin, ...args], { cwd, stdio: ['ignore', 'ignore', 'pipe'], env: { ...process.env, NO_COLOR: '1' } });
    let stderr = '';
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.on('close', (code) => resolve({ code, stderr }));
  });
}

describe('protocol commands across processes', () => {
  test('six processes adding tools and two compiling at once: every tool lands, the file keeps its layout, AGENTS.md ends up current', async () => {
    const dir = tempDir('ratchet-protocol-');
    cpSync(join(examples, 'protocols/demo'), join(dir, 'protocols'), { recursive: true });
    const source = join(dir, 'protocols/10-greeting.protocol.json');
    writeFileSync(source, readFileSync(source, 'utf8').replace(/\n/g, '\r\n'));
    writeFileSync(join(dir, 'AGENTS.md'), '# Mine\r\n\r\nKeep me.\r\n');
    const tools = ['ratchet fsm check', 'ratchet fsm render', 'ratchet plan analyze', 'ratchet run next', 'ratchet task start', 'ratchet lessons list'];
    const results = await Promise.all([
      ...tools.map((tool) => run(['protocol', 'update', 'add-tool', 'greeting', tool], dir)),
      run(['protocol', 'compile'], dir),
      run(['protocol', 'compile'], dir),
    ]);
    for (const r of results) expect(r.code, r.stderr).toBe(0);
    const text = readFileSync(source, 'utf8');
    expect(text.replace(/\r\n/g, '')).not.toContain('\n');
    const protocol = JSON.parse(text) as { associated_tools: string[] };
    expect([...protocol.associated_tools].sort()).toEqual(['ratchet plan lint', ...tools].sort());
    // The compiles may have run before some edits: one more makes it current, and --check agrees.
    expect(ratchet(['protocol', 'compile'], { cwd: dir }).status).toBe(0);
    expect(ratchet(['protocol', 'compile', '--check'], { cwd: dir }).status).toBe(0);
    const agents = readFileSync(join(dir, 'AGENTS.md'), 'utf8');
    expect(agents.startsWith('# Mine\r\n\r\nKeep me.\r\n')).toBe(true);
    // A new target is compact: each protocol lists its commands by name.
    const commands = /^Commands: (.*)$/m.exec(agents)?.[1] ?? '';
    for (const tool of tools) expect(commands).toContain(`\`${tool}\``);
  });
});
