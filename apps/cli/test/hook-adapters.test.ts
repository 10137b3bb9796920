/**
 * The seam between each agent CLI and the one decision core: its payloads (the shapes captured from
 * the real CLIs on these machines, tests/harnesses/) read into the HookPayload the decisions read,
 * the decisions' answers written in its format, and the event table every configuration is derived
 * from. Bad input too: a hostile `__proto__`, arguments as a JSON string, patches with CRLF and
 * look-alike headers, prompts wrapped by the harness.
 */
import { existsSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, test } from 'vitest';
import { adapterFor } from '../src/hook/adapters/index.js';
import { patchFiles } from '../src/hook/adapters/patch-files.js';
import { userPrompt } from '../src/hook/adapters/gemini.js';
import type { HookAnswer } from '../src/hook/answer.js';
import { isStopContinuation } from '../src/hook/continuation.js';
import { HARNESSES, HOOK_EVENT_TABLE, HOOK_EVENTS, fastKey, harnessEventName, parseHarness, parseHookEvent, type Harness, type HookEvent } from '../src/hook/events.js';
import { isHookConfig } from '../src/hook/harness-files.js';
import { openHookMemory } from '../src/hook/memory.js';
import { preToolUse } from '../src/hook/pre-tool-use.js';
import { readTaskSession } from '../src/hook/obligations.js';

const read = (harness: Harness, event: HookEvent, raw: Record<string, unknown>) => adapterFor(harness).read(event, raw);
const reply = (harness: Harness, event: HookEvent, answer: HookAnswer): string => adapterFor(harness).reply(event, answer).stdout;

describe('the event table', () => {
  test('every event has its Claude Code name; Ratchet names and each harness names are unique', () => {
    expect(HOOK_EVENTS).toEqual(HOOK_EVENT_TABLE.map((e) => e.event));
    for (const harness of HARNESSES) {
      const names = HOOK_EVENT_TABLE.map((e) => e.names[harness]).filter((n) => n !== undefined);
      expect(new Set(names).size, harness).toBe(names.length);
    }
    for (const e of HOOK_EVENT_TABLE) expect(e.names.claude, e.event).toBeDefined();
    expect(harnessEventName('gemini', 'stop')).toBe('AfterAgent');
    expect(harnessEventName('copilot', 'pre-tool-use')).toBe('preToolUse');
    expect(harnessEventName('gemini', 'subagent-stop')).toBeUndefined();
  });

  test('the built start-up files: a self-contained CommonJS one per per-call event, the rest on the main graph', () => {
    const dist = fileURLToPath(new URL('../dist/hooks/', import.meta.url));
    for (const e of HOOK_EVENT_TABLE) {
      // A per-call event has only its .cjs file (run with a code cache), importing nothing; the
      // others are ES modules that import the main graph's chunks (they share it).
      expect(existsSync(join(dist, `${fastKey(e.event)}.cjs`)), e.event).toBe(e.perCall);
      expect(existsSync(join(dist, `${fastKey(e.event)}.js`)), e.event).toBe(!e.perCall);
      const text = readFileSync(join(dist, `${fastKey(e.event)}.${e.perCall ? 'cjs' : 'js'}`), 'utf8');
      expect(/from"\.\.\/[^"]+-[A-Z0-9]{8}\.js"/.test(text), e.event).toBe(!e.perCall);
    }
  });

  test('how each event refuses when Ratchet cannot decide: a tool call is denied, a stop blocked, the rest cannot refuse', () => {
    expect(Object.fromEntries(HOOK_EVENT_TABLE.map((e) => [e.event, e.refusal]))).toEqual({
      'session-start': undefined,
      'user-prompt-submit': undefined,
      'pre-tool-use': 'deny',
      'post-tool-use': undefined,
      stop: 'block',
      'subagent-stop': 'block',
    });
  });

  test("the OpenCode plugin listens to the table's OpenCode names and calls exactly their Ratchet events", () => {
    const plugin = readFileSync(fileURLToPath(new URL('../plugins/opencode/ratchet.js', import.meta.url)), 'utf8');
    const withName = HOOK_EVENT_TABLE.filter((e) => e.names.opencode !== undefined);
    for (const e of withName) expect(plugin, e.event).toContain(`"${e.names.opencode}"`);
    const called = [...plugin.matchAll(/ratchetHook\(directory, "([a-z-]+)"/g)].map((m) => m[1]);
    expect([...new Set(called)].sort()).toEqual(withName.map((e) => e.event).sort());
  });

  test("the Claude Code plugin's hooks.json (generated, test/hook-schema.test.ts holds it current) declares the table's Claude events, each calling its Ratchet event, tool events matching every tool", () => {
    const hooks = JSON.parse(readFileSync(fileURLToPath(new URL('../../claude-plugin/hooks/hooks.json', import.meta.url)), 'utf8')) as { hooks: Record<string, { matcher?: string; hooks: { command: string }[] }[]> };
    expect(Object.keys(hooks.hooks)).toEqual(HOOK_EVENT_TABLE.map((e) => e.names.claude));
    for (const e of HOOK_EVENT_TABLE) {
      expect(hooks.hooks[e.names.claude]![0]!.hooks[0]!.command).toMatch(new RegExp(`ratchet-hook\\.mjs" ${e.event}$`));
      expect(hooks.hooks[e.names.claude]![0]!.matcher, e.event).toBe(e.tools ? '*' : undefined);
    }
  });

  test('event and harness names parse as the bin folds them; anything else is refused', () => {
    expect(parseHookEvent('PreToolUse')).toBe('pre-tool-use');
    expect(parseHookEvent('pre_tool_use')).toBe('pre-tool-use');
    expect(parseHookEvent('BeforeTool')).toBeUndefined();
    expect(parseHarness('gemini')).toBe('gemini');
    for (const bad of ['Gemini', '__proto__', 'constructor', '', 'codex ']) expect(parseHarness(bad), bad).toBeUndefined();
  });
});

describe('reading each harness payload (captured from the real CLIs)', () => {
  const cwd = '/work/proj';

  test('Codex: apply_patch names its files; the shell arrives as Bash', () => {
    const patch = read('codex', 'pre-tool-use', {
      session_id: 'c1',
      cwd,
      hook_event_name: 'PreToolUse',
      tool_name: 'apply_patch',
      tool_input: { command: '*** Begin Patch\n*** Add File: x.txt\n+hello\n*** Update File: src/a.ts\n@@\n-a\n+b\n*** Delete File: old.txt\n*** Update File: b.ts\n*** Move to: .ratchet/session.json\n*** End Patch\n' },
    });
    expect(patch).toMatchObject({ harness: 'codex', sessionId: 'c1', cwd, toolName: 'apply_patch', toolInput: { paths: ['x.txt', 'src/a.ts', 'old.txt', 'b.ts', '.ratchet/session.json'] } });
    expect(read('codex', 'pre-tool-use', { cwd, tool_name: 'Bash', tool_input: { command: 'echo hi > y.txt' } })).toMatchObject({ toolName: 'Bash', toolInput: { command: 'echo hi > y.txt' } });
    expect(read('codex', 'stop', { session_id: 'c1', cwd, hook_event_name: 'Stop', stop_hook_active: true, last_assistant_message: 'stopping' })).toMatchObject({ stopHookActive: true, toolName: undefined });
    expect(read('codex', 'pre-tool-use', { tool_name: 'mcp__ratchet__run_next', tool_input: {} }).toolName).toBe('mcp__ratchet__run_next');
  });

  test('Gemini CLI: write_file, replace and run_shell_command (in its dir_path); read tools under read-only names', () => {
    expect(read('gemini', 'pre-tool-use', { session_id: 'g1', cwd, hook_event_name: 'BeforeTool', tool_name: 'write_file', tool_input: { file_path: `${cwd}/x.txt`, content: 'hello\n' } })).toMatchObject({
      harness: 'gemini',
      toolName: 'Write',
      toolInput: { file_path: `${cwd}/x.txt`, content: 'hello\n' },
    });
    expect(read('gemini', 'pre-tool-use', { cwd, tool_name: 'replace', tool_input: { file_path: 'a.ts', old_string: 'a', new_string: 'b' } })).toMatchObject({ toolName: 'Edit', toolInput: { file_path: 'a.ts', old_string: 'a', new_string: 'b' } });
    expect(read('gemini', 'pre-tool-use', { cwd, tool_name: 'run_shell_command', tool_input: { command: 'echo > y', dir_path: 'sub' } })).toMatchObject({ toolName: 'Bash', toolInput: { command: 'echo > y' }, cwd: `${cwd}/sub` });
    for (const [tool, as] of [['read_file', 'Read'], ['glob', 'Glob'], ['grep_search', 'Grep'], ['list_directory', 'LS'], ['google_web_search', 'WebSearch'], ['save_memory', 'TodoWrite']]) {
      expect(read('gemini', 'pre-tool-use', { tool_name: tool, tool_input: {} }).toolName, tool).toBe(as);
    }
    expect(read('gemini', 'pre-tool-use', { tool_name: 'mcp_ratchet_run_done', tool_input: {} }).toolName).toBe('mcp__ratchet__run_done');
    expect(read('gemini', 'post-tool-use', { tool_name: 'run_shell_command', tool_input: { command: 'false' }, tool_response: { llmContent: '', error: 'exit 1' } }).toolResponse).toMatchObject({ is_error: true });
    expect(read('gemini', 'stop', { session_id: 'g1', cwd, hook_event_name: 'AfterAgent', prompt: 'add x.txt', prompt_response: 'stopping', stop_hook_active: true })).toMatchObject({ stopHookActive: true });
  });

  test('Gemini CLI: the SessionStart context it prepends to a headless prompt is not the prompt (a leading -b still bypasses)', () => {
    expect(userPrompt('<hook_context>Ratchet keeps ...\n\nOpen now</hook_context>\n\n-b build the app')).toBe('-b build the app');
    expect(userPrompt('<hook_context>a</hook_context><hook_context>b</hook_context> hello')).toBe('hello');
    expect(userPrompt('no context here <hook_context>x</hook_context>')).toBe('no context here <hook_context>x</hook_context>');
    expect(read('gemini', 'user-prompt-submit', { prompt: '<hook_context>ctx</hook_context>\n\n-b go', session_id: 's' }).prompt).toBe('-b go');
  });

  test('Copilot CLI: camelCase fields, create/edit/bash, toolArgs as an object or a JSON string', () => {
    const create = read('copilot', 'pre-tool-use', { sessionId: 'p1', timestamp: 1, cwd, toolName: 'create', toolArgs: { path: `${cwd}/x.txt`, file_text: 'hello\n' } });
    expect(create).toMatchObject({ harness: 'copilot', sessionId: 'p1', cwd, toolName: 'Write', toolInput: { file_path: `${cwd}/x.txt`, content: 'hello\n' } });
    expect(read('copilot', 'pre-tool-use', { cwd, toolName: 'bash', toolArgs: JSON.stringify({ command: 'echo hi > y.txt', description: 'y' }) })).toMatchObject({ toolName: 'Bash', toolInput: { command: 'echo hi > y.txt' } });
    expect(read('copilot', 'pre-tool-use', { cwd, toolName: 'edit', toolArgs: { path: 'a', old_str: 'x', new_str: 'y' } })).toMatchObject({ toolName: 'Edit', toolInput: { file_path: 'a', old_string: 'x', new_string: 'y' } });
    // Input typed into a running shell is a command.
    expect(read('copilot', 'pre-tool-use', { toolName: 'write_bash', toolArgs: { shellId: '0', input: 'rm -rf .ratchet\n' } })).toMatchObject({ toolName: 'Bash', toolInput: { command: 'rm -rf .ratchet\n' } });
    expect(read('copilot', 'pre-tool-use', { toolName: 'bash', toolArgs: '{not json' }).toolInput).toEqual({ command: '' });
    expect(read('copilot', 'pre-tool-use', { toolName: 'view', toolArgs: { path: 'a' } }).toolName).toBe('Read');
    expect(read('copilot', 'stop', { sessionId: 'p1', cwd, transcriptPath: '/t', stopReason: 'end_turn', stop_hook_active: true })).toMatchObject({ stopHookActive: true, sessionId: 'p1' });
    expect(read('copilot', 'post-tool-use', { toolName: 'bash', toolArgs: { command: 'false' }, toolResult: { resultType: 'failure', textResultForLlm: 'exit 1' } }).toolResponse).toMatchObject({ is_error: true });
  });

  test("OpenCode (the plugin's payload): write/edit/bash in OpenCode's own keys, bash in its workdir", () => {
    expect(read('opencode', 'pre-tool-use', { event: 'pre-tool-use', directory: cwd, sessionID: 'ses_1', callID: 'call_3', tool: 'write', args: { filePath: `${cwd}/x.txt`, content: 'hello\n' } })).toMatchObject({
      harness: 'opencode',
      sessionId: 'ses_1',
      cwd,
      toolName: 'Write',
      toolInput: { file_path: `${cwd}/x.txt` },
    });
    expect(read('opencode', 'pre-tool-use', { directory: cwd, tool: 'bash', args: { command: 'echo > y', workdir: '/elsewhere' } })).toMatchObject({ toolName: 'Bash', cwd: '/elsewhere' });
    expect(read('opencode', 'pre-tool-use', { tool: 'apply_patch', args: { patchText: '*** Begin Patch\r\n*** Add File: a.txt\r\n+x\r\n*** End Patch' } }).toolInput).toEqual({ paths: ['a.txt'] });
    expect(read('opencode', 'stop', { sessionID: 'ses_1', directory: cwd, stopHookActive: true })).toMatchObject({ stopHookActive: true, toolName: undefined });
  });

  test.each(HARNESSES)('%s: a hostile payload is data, never a prototype; a non-object input reads as none', (harness) => {
    const hostile = '{"__proto__":{"polluted":1},"command":"ls"}';
    const raw = JSON.parse(`{"tool_name":"mystery","toolName":"mystery","tool":"mystery","tool_input":${hostile},"toolArgs":${hostile},"args":${hostile}}`) as Record<string, unknown>;
    const payload = read(harness, 'pre-tool-use', raw);
    expect(payload.toolName).toBe('mystery');
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(Object.keys(payload.toolInput)).toEqual(['__proto__', 'command']);
    expect(payload.toolInput.polluted).toBeUndefined();
    const odd = read(harness, 'pre-tool-use', { tool_name: 'Write', toolName: 'create', tool: 'write', tool_input: [1, 2], toolArgs: 7, args: 'x' });
    expect(odd.toolInput.file_path).toBeUndefined();
  });
});

describe('patches: the files an apply_patch touches', () => {
  test('every header kind, CRLF, indented headers; hunk lines that merely contain a header are not files', () => {
    expect(patchFiles('*** Begin Patch\r\n*** Add File: a b.txt\r\n+*** Add File: not-a-file\r\n   *** Update File: c.ts  \r\n@@\r\n- *** Delete File: also-not\r\n*** End Patch')).toEqual([
      { op: 'add', path: 'a b.txt' },
      { op: 'update', path: 'c.ts' },
    ]);
    expect(patchFiles('')).toEqual([]);
    expect(patchFiles('*** Add File: \n*** Move to:   ')).toEqual([]);
  });

  test('a 1 MiB patch of headers is read in time and judged whole', () => {
    const text = Array.from({ length: 40_000 }, (_, i) => `*** Add File: f${i}.txt`).join('\n');
    const start = performance.now();
    expect(patchFiles(text)).toHaveLength(40_000);
    expect(performance.now() - start).toBeLessThan(5_000);
  });
});

describe("writing each harness's answer", () => {
  const deny: HookAnswer = { kind: 'deny', reason: 'Ratchet: no' };
  const block: HookAnswer = { kind: 'block', reason: 'Ratchet: not yet' };
  const note: HookAnswer = { kind: 'note', event: 'pre-tool-use', context: 'Ratchet (warning): step' };

  test.each(HARNESSES)('%s: nothing to say is no output', (harness) => {
    for (const event of HOOK_EVENTS) expect(adapterFor(harness).reply(event, { kind: 'none' })).toEqual({ stdout: '', exitCode: 0 });
  });

  test('Claude Code and Codex share one format', () => {
    for (const harness of ['claude', 'codex'] as const) {
      expect(JSON.parse(reply(harness, 'pre-tool-use', deny))).toEqual({ hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'deny', permissionDecisionReason: 'Ratchet: no' } });
      expect(JSON.parse(reply(harness, 'stop', block))).toEqual({ decision: 'block', reason: 'Ratchet: not yet' });
      expect(JSON.parse(reply(harness, 'pre-tool-use', note))).toEqual({ hookSpecificOutput: { hookEventName: 'PreToolUse', additionalContext: 'Ratchet (warning): step' } });
    }
  });

  test('Gemini CLI: deny for both a tool and a stop; context where it reaches the model, else to the user', () => {
    expect(JSON.parse(reply('gemini', 'pre-tool-use', deny))).toEqual({ decision: 'deny', reason: 'Ratchet: no' });
    expect(JSON.parse(reply('gemini', 'stop', block))).toEqual({ decision: 'deny', reason: 'Ratchet: not yet' });
    expect(JSON.parse(reply('gemini', 'session-start', { kind: 'note', event: 'session-start', context: 'c' }))).toEqual({ hookSpecificOutput: { hookEventName: 'SessionStart', additionalContext: 'c' } });
    expect(JSON.parse(reply('gemini', 'user-prompt-submit', { kind: 'note', event: 'user-prompt-submit', context: 'c' }))).toEqual({ hookSpecificOutput: { hookEventName: 'BeforeAgent', additionalContext: 'c' } });
    expect(JSON.parse(reply('gemini', 'pre-tool-use', note))).toEqual({ systemMessage: 'Ratchet (warning): step' });
  });

  test('Copilot CLI and OpenCode: top-level fields', () => {
    expect(JSON.parse(reply('copilot', 'pre-tool-use', deny))).toEqual({ permissionDecision: 'deny', permissionDecisionReason: 'Ratchet: no' });
    expect(JSON.parse(reply('copilot', 'stop', block))).toEqual({ decision: 'block', reason: 'Ratchet: not yet' });
    expect(JSON.parse(reply('copilot', 'session-start', note))).toEqual({ additionalContext: 'Ratchet (warning): step' });
    expect(JSON.parse(reply('opencode', 'pre-tool-use', deny))).toEqual({ decision: 'deny', reason: 'Ratchet: no' });
    expect(JSON.parse(reply('opencode', 'stop', block))).toEqual({ decision: 'block', reason: 'Ratchet: not yet' });
    expect(JSON.parse(reply('opencode', 'post-tool-use', note))).toEqual({ additionalContext: 'Ratchet (warning): step' });
  });
});

/** A project with a task in PLANNING, built from the session file a real `task start` writes. */
function planningProject(): string {
  const dir = realpathSync(mkdtempSync(join(tmpdir(), 'ratchet-adapters-')));
  mkdirSync(join(dir, '.ratchet'));
  writeFileSync(
    join(dir, '.ratchet/session.json'),
    JSON.stringify({ schemaVersion: 1, taskId: 't1', state: 'PLANNING', stack: [], history: [], createdAt: '2026-01-01T00:00:00.000Z', updatedAt: '2026-01-01T00:00:00.000Z', sessionId: 's' }),
  );
  return dir;
}

describe('the one decision core behind every adapter', () => {
  test.each([
    ['codex', { tool_name: 'apply_patch', tool_input: { command: '*** Begin Patch\n*** Update File: src/a.ts\n*** Move to: .ratchet/session.json\n*** End Patch' } }, /\.ratchet\/session\.json is Ratchet state/],
    ['gemini', { tool_name: 'write_file', tool_input: { file_path: 'src/app.ts', content: 'x' } }, /Write of src\/app\.ts refused: task t1 is PLANNING/],
    ['gemini', { tool_name: 'run_shell_command', tool_input: { command: 'echo x > ../.ratchet/session.json', dir_path: 'src' } }, /\.ratchet\/session\.json is Ratchet state/],
    ['copilot', { toolName: 'edit', toolArgs: { path: '.RATCHET/Session.json', old_str: 'a', new_str: 'b' } }, /Ratchet state/],
    ['copilot', { toolName: 'write_bash', toolArgs: { shellId: '1', input: 'echo x > out.txt\n' } }, /Bash of out\.txt refused/],
    ['opencode', { tool: 'write', args: { filePath: '.gemini/settings.json', content: '{}' } }, /\.gemini\/settings\.json is the configuration that holds Ratchet's rails.*ask the user/],
    ['codex', { tool_name: 'Bash', tool_input: { command: 'rm .codex/hooks.json' } }, /\.codex\/hooks\.json is the configuration that holds Ratchet's rails/],
  ] as const)('%s: %j is refused', (harness, raw, reason) => {
    const dir = planningProject();
    mkdirSync(join(dir, 'src'), { recursive: true });
    const payload = read(harness, 'pre-tool-use', { cwd: dir, directory: dir, ...raw });
    const answer = preToolUse(dir, payload);
    expect(answer.kind).toBe('deny');
    expect((answer as { reason: string }).reason).toMatch(reason);
  });

  test('a write through a symbolic link into the state directory is refused whatever the harness calls its tool', () => {
    const dir = planningProject();
    symlinkSync(join(dir, '.ratchet'), join(dir, 'link'));
    for (const [harness, raw] of [
      ['gemini', { tool_name: 'write_file', tool_input: { file_path: 'link/session.json', content: '{}' } }],
      ['copilot', { toolName: 'create', toolArgs: { path: join(dir, 'link/session.json'), file_text: '{}' } }],
      ['opencode', { tool: 'edit', args: { filePath: 'link/session.json', oldString: 'a', newString: 'b' } }],
    ] as const) {
      expect(preToolUse(dir, read(harness, 'pre-tool-use', { cwd: dir, directory: dir, ...raw })).kind, harness).toBe('deny');
    }
    expect(readTaskSession(dir)?.state).toBe('PLANNING');
  });

  test("plans may be written while planning, and reading is never refused, in every harness's names", () => {
    const dir = planningProject();
    expect(preToolUse(dir, read('gemini', 'pre-tool-use', { cwd: dir, tool_name: 'write_file', tool_input: { file_path: 'plans/p.txt', content: 'x' } })).kind).toBe('none');
    expect(preToolUse(dir, read('codex', 'pre-tool-use', { cwd: dir, tool_name: 'apply_patch', tool_input: { command: '*** Begin Patch\n*** Add File: plans/p.txt\n+x\n*** End Patch' } })).kind).toBe('none');
    expect(preToolUse(dir, read('copilot', 'pre-tool-use', { cwd: dir, toolName: 'view', toolArgs: { path: '.ratchet/session.json' } })).kind).toBe('none');
  });

  test('hook configuration files of every harness are protected, in any letter case', () => {
    for (const rel of ['.codex/hooks.json', '.CODEX/config.toml', '.gemini/settings.json', '.geminiignore', '.github/hooks/ratchet.json', '.opencode/plugin/ratchet.js', 'opencode.json', '.claude/settings.json']) expect(isHookConfig(rel), rel).toBe(true);
    for (const rel of ['.github/hooks/other.json', '.codex/prompts/a.md', 'src/opencode.json']) expect(isHookConfig(rel), rel).toBe(false);
  });
});

describe('a stop reason sent back as a prompt', () => {
  test("is recognised by the last block's obligations, not by its wording; any other prompt is a prompt", async () => {
    const dir = planningProject();
    const memory = openHookMemory(dir, 'p1');
    await memory.update((m) => ({ ...m, sessionId: 'p1', stopBlocks: 1, lastBlock: '- task t1 is PLANNING: write a plan' }));
    const payload = (prompt: string, sessionId = 'p1') => read('copilot', 'user-prompt-submit', { sessionId, cwd: dir, prompt });
    expect(isStopContinuation(dir, payload('Anything at all.\n- task t1 is PLANNING: write a plan\nmore'))).toBe(true);
    expect(isStopContinuation(dir, payload('please write a plan'))).toBe(false);
    expect(isStopContinuation(dir, payload('- task t1 is PLANNING: write a plan', 'other-session'))).toBe(false);
    await memory.update((m) => ({ ...m, lastBlock: null }));
    expect(isStopContinuation(dir, payload('- task t1 is PLANNING: write a plan'))).toBe(false);
  });
});
