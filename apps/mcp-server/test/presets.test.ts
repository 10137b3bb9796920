import { spawnSync } from 'node:child_process';
import { encode } from 'gpt-tokenizer/encoding/o200k_base';
import { afterEach, describe, expect, test } from 'vitest';
import { selectionOf, selectTools, TOOLS, ToolSelectionError } from '../src/index.js';
import { connect, serverBin, tempDir, type Connected } from './helpers.js';

/** What the brief of the `core` preset promises: the task lifecycle and the everyday commands. */
const CORE = ['task_start', 'task_close', 'task_submit', 'run_status', 'plan_lint', 'run_plan', 'run_next', 'run_done', 'campaign_ready', 'campaign_update_task', 'memory_query', 'lessons_extract', 'lessons_apply'];
const STANDARD_ADDS = ['flow_list', 'flow_start', 'flow_advance', 'flow_status', 'jixo_check', 'jixo_triage', 'jixo_lock', 'jixo_unlock', 'turn_assess', 'turn_commit', 'actions_list', 'lessons_list', 'workspace_show', 'workspace_list', 'campaign_heartbeat'];

describe('selectTools (RATCHET_MCP_TOOLS)', () => {
  test('no value is core; each preset contains the one before it', () => {
    const names = (v: string | undefined): string[] => selectTools(v, TOOLS).map((t) => t.name);
    expect(names(undefined).sort()).toEqual([...CORE].sort());
    expect(names('').sort()).toEqual([...CORE].sort());
    expect(names('standard').sort()).toEqual([...CORE, ...STANDARD_ADDS].sort());
    expect(names('all')).toEqual(TOOLS.map((t) => t.name));
    expect(names('all').length).toBeGreaterThan(names('standard').length);
  });

  test('a comma list names tools one by one; an unknown name is refused with the known ones listed', () => {
    expect(selectTools('run_next, memory_query', TOOLS).map((t) => t.name)).toEqual(['run_next', 'memory_query']);
    expect(() => selectTools('run_next,run_nxt', TOOLS)).toThrow(ToolSelectionError);
    expect(() => selectTools('run_next,run_nxt', TOOLS)).toThrow(/unknown tool run_nxt.*core, standard, all/);
  });

  test('presets and tool names combine (a union, in table order); an unknown name among them is still refused', () => {
    const names = (v: string): string[] => selectTools(v, TOOLS).map((t) => t.name);
    expect(names('core,lessons_list,flow_halt').sort()).toEqual([...CORE, 'lessons_list', 'flow_halt'].sort());
    expect(names('lessons_list,core')).toEqual(names('core,lessons_list'));
    expect(names('core,standard')).toEqual(names('standard'));
    expect(names('standard, core , run_next')).toEqual(names('standard'));
    expect(() => selectTools('core,flow_hlat', TOOLS)).toThrow(/unknown tool flow_hlat/);
    expect(() => selectTools(',,', TOOLS)).toThrow(/none named/);
  });

  test('--preset and --tools on the command line combine and win over RATCHET_MCP_TOOLS; bad flags are refused', () => {
    expect(selectionOf(['--preset', 'core', '--tools', 'lessons_apply,flow_halt'], { RATCHET_MCP_TOOLS: 'all' })).toEqual({ value: 'core,lessons_apply,flow_halt', source: '--preset core --tools lessons_apply,flow_halt' });
    expect(selectionOf(['--tools=run_next'], {})).toMatchObject({ value: 'run_next' });
    expect(selectionOf([], { RATCHET_MCP_TOOLS: 'standard' })).toEqual({ value: 'standard', source: undefined });
    expect(() => selectionOf(['--preset', 'lessons_apply'], {})).toThrow(/not a preset/);
    expect(() => selectionOf(['--preset'], {})).toThrow(/needs a value/);
    expect(() => selectionOf(['--verbose'], {})).toThrow(/unknown argument --verbose/);
  });

  test('tool names are unique', () => {
    expect(new Set(TOOLS.map((t) => t.name)).size).toBe(TOOLS.length);
  });
});

describe('the server process: initialize and tools/list per preset', () => {
  let server: Connected | undefined;
  afterEach(async () => {
    await server?.close();
    server = undefined;
  });

  const listed = async (tools: string, args: string[] = []): Promise<{ names: string[]; json: string; model: string }> => {
    server = await connect(tempDir(), { RATCHET_MCP_TOOLS: tools }, args);
    const list = await server.client.listTools();
    await server.close();
    server = undefined;
    // What the model is sent with every request: name, description and input schema (title,
    // annotations and outputSchema are for the client: confirmation prompts, result validation).
    const model = JSON.stringify(list.tools.map((t) => ({ name: t.name, description: t.description, input_schema: t.inputSchema })));
    return { names: list.tools.map((t) => t.name), json: JSON.stringify(list), model };
  };

  test('initialize names the server and offers tools', { timeout: 60_000 }, async () => {
    server = await connect(tempDir());
    expect(server.client.getServerVersion()?.name).toBe('ratchet');
    expect(server.client.getServerCapabilities()?.tools).toBeDefined();
  });

  test('core (the default), standard, all and a comma list', { timeout: 120_000 }, async () => {
    const core = await listed('');
    expect(core.names).toEqual(selectTools('core', TOOLS).map((t) => t.name));
    expect((await listed('standard')).names).toEqual(selectTools('standard', TOOLS).map((t) => t.name));
    expect((await listed('all')).names).toEqual(TOOLS.map((t) => t.name));
    expect((await listed('task_start,run_next')).names).toEqual(['task_start', 'run_next']);
    expect((await listed('all', ['--preset', 'core', '--tools', 'flow_halt'])).names).toEqual(selectTools('core,flow_halt', TOOLS).map((t) => t.name));
    // Tool definitions travel with every request: the default set must stay small (o200k BPE).
    expect(encode(core.model).length).toBeLessThanOrEqual(1100);
    // The whole tools/list, with the CLI's output schemas, is read once per session.
    expect(encode(core.json).length).toBeLessThanOrEqual(5000);
  });

  test('every listed tool has an object JSON Schema input', { timeout: 60_000 }, async () => {
    server = await connect(tempDir(), { RATCHET_MCP_TOOLS: 'all' });
    for (const tool of (await server.client.listTools()).tools) {
      expect(tool.inputSchema.type, tool.name).toBe('object');
      expect(tool.description, tool.name).toBeTruthy();
    }
  });

  test('an unknown preset stops the server at start-up: exit 2 and the reason on stderr, nothing on stdout', { timeout: 60_000 }, () => {
    const r = spawnSync(process.execPath, [serverBin], { cwd: tempDir(), encoding: 'utf8', env: { ...process.env, RATCHET_MCP_TOOLS: 'cor' }, input: '' });
    expect(r.status).toBe(2);
    expect(r.stderr).toContain('RATCHET_MCP_TOOLS=cor: unknown tool cor');
    expect(r.stdout).toBe('');
    const flag = spawnSync(process.execPath, [serverBin, '--preset', 'core', '--tools', 'lessons_aply'], { cwd: tempDir(), encoding: 'utf8', env: { ...process.env, RATCHET_MCP_TOOLS: '' }, input: '' });
    expect(flag.status).toBe(2);
    expect(flag.stderr).toContain('--preset core --tools lessons_aply: unknown tool lessons_aply');
    expect(flag.stdout).toBe('');
  });

  test('a RATCHET_PROJECT that is not a directory stops it at start-up too', { timeout: 60_000 }, () => {
    const missing = `${tempDir()}/absent`;
    const r = spawnSync(process.execPath, [serverBin], { encoding: 'utf8', env: { ...process.env, RATCHET_MCP_TOOLS: '', RATCHET_PROJECT: missing }, input: '' });
    expect(r.status).toBe(2);
    expect(r.stderr).toContain(`RATCHET_PROJECT=${missing}: not a directory`);
    expect(r.stdout).toBe('');
  });
});
