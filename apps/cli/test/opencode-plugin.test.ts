/**
 * Ratchet's OpenCode plugin (plugins/opencode/ratchet.js) against a fake OpenCode: it calls
 * `ratchet hook <event> --harness opencode` (here a stand-in that answers what the test says), throws
 * on a deny so the reason becomes the tool's result, appends a warning to the tool's output, prompts
 * an idle session again on a block (once per idle, however many idle events announce it), and does
 * not treat its own re-prompt as a user's prompt. The real OpenCode runs it in tests/harnesses.
 */
import { appendFileSync, readFileSync, writeFileSync } from 'node:fs';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';

const PLUGIN = fileURLToPath(new URL('../plugins/opencode/ratchet.js', import.meta.url));

interface Call {
  args: string[];
  payload: Record<string, unknown>;
}

let dir: string;
let saved: string | undefined;

/** A `ratchet` stand-in: logs each call, answers from answers.json by event (nothing when absent). */
function stub(answers: Record<string, unknown>): void {
  writeFileSync(join(dir, 'answers.json'), JSON.stringify(answers));
  writeFileSync(
    join(dir, 'ratchet.js'),
    `const fs = require('fs'); let input = ''; process.stdin.on('data', (d) => (input += d)); process.stdin.on('end', () => {
      fs.appendFileSync(${JSON.stringify(join(dir, 'calls.jsonl'))}, JSON.stringify({ args: process.argv.slice(2), payload: JSON.parse(input) }) + '\\n');
      const answer = JSON.parse(fs.readFileSync(${JSON.stringify(join(dir, 'answers.json'))}, 'utf8'))[process.argv[3]];
      if (answer !== undefined) process.stdout.write(JSON.stringify(answer) + '\\n');
    });`,
  );
  writeFileSync(join(dir, 'package.json'), '{"type":"commonjs"}');
  appendFileSync(join(dir, 'calls.jsonl'), '');
}

const calls = (): Call[] => readFileSync(join(dir, 'calls.jsonl'), 'utf8').split('\n').filter((l) => l !== '').map((l) => JSON.parse(l) as Call);

async function plugin(prompts: unknown[]) {
  const mod = (await import(pathToFileURL(PLUGIN).href)) as { RatchetPlugin: (input: unknown) => Promise<Record<string, (...a: unknown[]) => Promise<void>>> };
  const client = { session: { promptAsync: (request: unknown) => (prompts.push(request), Promise.resolve()) } };
  return mod.RatchetPlugin({ client, directory: dir });
}

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'ratchet-opencode-plugin-'));
  saved = process.env.RATCHET_CLI;
  process.env.RATCHET_CLI = join(dir, 'ratchet.js');
});
afterEach(() => {
  if (saved === undefined) delete process.env.RATCHET_CLI;
  else process.env.RATCHET_CLI = saved;
});

describe("Ratchet's OpenCode plugin", () => {
  test('a denied tool call throws the reason; OpenCode\'s own values go to ratchet hook pre-tool-use --harness opencode', { timeout: 30_000 }, async () => {
    stub({ 'pre-tool-use': { decision: 'deny', reason: 'Ratchet: Write of a.ts refused' } });
    const hooks = await plugin([]);
    await expect(hooks['tool.execute.before']!({ tool: 'write', sessionID: 'ses_1', callID: 'c1' }, { args: { filePath: 'a.ts', content: 'x' } })).rejects.toThrow('Ratchet: Write of a.ts refused');
    expect(calls()).toEqual([{ args: ['hook', 'pre-tool-use', '--harness', 'opencode'], payload: { event: 'pre-tool-use', directory: dir, tool: 'write', sessionID: 'ses_1', callID: 'c1', args: { filePath: 'a.ts', content: 'x' } } }]);
  });

  test("a warning rides on the tool's result; the call is logged after it ran", { timeout: 30_000 }, async () => {
    stub({ 'pre-tool-use': { additionalContext: 'Ratchet (warning): not this step' } });
    const hooks = await plugin([]);
    await hooks['tool.execute.before']!({ tool: 'bash', sessionID: 's', callID: 'c2' }, { args: { command: 'ls' } });
    const output = { title: 'ls', output: 'a.txt', metadata: {} };
    await hooks['tool.execute.after']!({ tool: 'bash', sessionID: 's', callID: 'c2', args: { command: 'ls' } }, output);
    expect(output.output).toBe('a.txt\n\nRatchet (warning): not this step');
    expect(calls().map((c) => c.args[1])).toEqual(['pre-tool-use', 'post-tool-use']);
    expect(calls()[1]!.payload).toMatchObject({ tool: 'bash', args: { command: 'ls' }, output: 'a.txt' });
  });

  test('an idle session with obligations is prompted again once per idle; its re-prompt is no user prompt', { timeout: 30_000 }, async () => {
    stub({ stop: { decision: 'block', reason: 'Ratchet: you cannot stop yet' }, 'user-prompt-submit': { additionalContext: 'flow directive' } });
    const prompts: unknown[] = [];
    const hooks = await plugin(prompts);
    // OpenCode announces one idle twice: session.status (idle) and session.idle.
    await Promise.all([
      hooks.event!({ event: { type: 'session.status', properties: { sessionID: 's1', status: { type: 'idle' } } } }),
      hooks.event!({ event: { type: 'session.idle', properties: { sessionID: 's1' } } }),
    ]);
    expect(prompts).toEqual([{ path: { id: 's1' }, body: { parts: [{ type: 'text', text: 'Ratchet: you cannot stop yet' }] } }]);
    expect(calls().filter((c) => c.args[1] === 'stop').map((c) => c.payload.stopHookActive)).toEqual([false]);
    // The re-prompt arrives as a chat message: not a user's prompt.
    await hooks['chat.message']!({ sessionID: 's1' }, { message: {}, parts: [{ type: 'text', text: 'Ratchet: you cannot stop yet' }] });
    expect(calls().some((c) => c.args[1] === 'user-prompt-submit')).toBe(false);
    // The next idle says the last one sent the model back.
    await hooks.event!({ event: { type: 'session.idle', properties: { sessionID: 's1' } } });
    expect(calls().filter((c) => c.args[1] === 'stop').map((c) => c.payload.stopHookActive)).toEqual([false, true]);
    // Other events are not stops.
    await hooks.event!({ event: { type: 'session.status', properties: { sessionID: 's1', status: { type: 'busy' } } } });
    expect(calls().filter((c) => c.args[1] === 'stop')).toHaveLength(2);
  });

  test('session context once per session, prompt context per prompt, both as system text', { timeout: 30_000 }, async () => {
    stub({ 'session-start': { additionalContext: 'task t1 is PLANNING' }, 'user-prompt-submit': { additionalContext: 'reasoning flow' } });
    const hooks = await plugin([]);
    await hooks['chat.message']!({ sessionID: 's2' }, { message: {}, parts: [{ type: 'text', text: 'build it' }, { type: 'text', text: 'hidden', synthetic: true }] });
    const first = { system: [] as string[] };
    const second = { system: [] as string[] };
    await hooks['experimental.chat.system.transform']!({ sessionID: 's2', model: {} }, first);
    await hooks['experimental.chat.system.transform']!({ sessionID: 's2', model: {} }, second);
    expect(first.system).toEqual(['task t1 is PLANNING', 'reasoning flow']);
    expect(second.system).toEqual(first.system);
    expect(calls().map((c) => c.args[1])).toEqual(['user-prompt-submit', 'session-start']);
    expect(calls()[0]!.payload.prompt).toBe('build it');
  });

  test('a ratchet that cannot run, or answers garbage, lets the action go ahead', { timeout: 30_000 }, async () => {
    process.env.RATCHET_CLI = join(dir, 'missing-ratchet');
    const hooks = await plugin([]);
    await expect(hooks['tool.execute.before']!({ tool: 'write', sessionID: 's', callID: 'c' }, { args: {} })).resolves.toBeUndefined();
    writeFileSync(join(dir, 'garbage.js'), "process.stdin.resume(); process.stdin.on('end', () => process.stdout.write('not json'));");
    process.env.RATCHET_CLI = join(dir, 'garbage.js');
    await expect(hooks['tool.execute.before']!({ tool: 'write', sessionID: 's', callID: 'c' }, { args: {} })).resolves.toBeUndefined();
  });
});
