import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { tempDir } from '../helpers.js';
import { claudeSession, freshHome } from './claude.js';
import { startModelServer, toolResults } from './model-server.js';

const denyWrite = join(import.meta.dirname, 'fixtures/deny-write.mjs');

describe('the harness: real Claude Code against the scripted model server', () => {
  test('a project PreToolUse hook denies a scripted Write, and the reason reaches the model as an is_error tool_result', { timeout: 180_000 }, async () => {
    const project = tempDir('ratchet-cc-harness-');
    mkdirSync(join(project, '.claude'));
    writeFileSync(
      join(project, '.claude/settings.json'),
      JSON.stringify({ hooks: { PreToolUse: [{ matcher: '*', hooks: [{ type: 'command', command: `node "${denyWrite}"` }] }] } }),
    );
    const server = await startModelServer([{ text: 'Writing the file.', tools: [{ name: 'Write', input: { file_path: join(project, 'out.txt'), content: 'hello\n' } }] }, { text: 'The hook refused; stopping.' }]);
    try {
      const run = await claudeSession({ cwd: project, home: freshHome(), baseUrl: server.url, prompt: 'write out.txt' });
      expect(run.status, run.stderr).toBe(0);
      expect(run.result).toMatchObject({ is_error: false, result: 'The hook refused; stopping.' });
      const results = toolResults(server);
      expect(results).toHaveLength(1);
      expect(results[0]).toMatchObject({ isError: true });
      expect(results[0]?.text).toContain(`Harness: no writes to ${join(project, 'out.txt')}`);
      expect(existsSync(join(project, 'out.txt'))).toBe(false);
      expect(server.remaining()).toBe(0);
    } finally {
      await server.close();
    }
  });
});
