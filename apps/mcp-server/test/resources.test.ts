import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { connect, ok, ratchet, taskProject, tempDir, type Connected } from './helpers.js';

/**
 * Issue 32: resources (what the agent reads) and prompts (templates naming the tools to call),
 * through the real server process and the SDK's client, as any MCP client would use them.
 */
let dir: string;
let server: Connected;

beforeAll(async () => {
  dir = taskProject();
  server = await connect(dir);
}, 60_000);
afterAll(async () => {
  await server.close();
});

const text = (r: { contents: unknown[] }): string => (r.contents[0] as { text: string }).text;

describe('resources', () => {
  test('resources/list: one per protocol of the project, the task, the campaign; templates for protocols and flows', { timeout: 60_000 }, async () => {
    const { resources } = await server.client.listResources();
    const uris = resources.map((r) => r.uri);
    const ids = readdirSync(join(dir, 'protocols'))
      .filter((f) => f.endsWith('.protocol.json'))
      .map((f) => (JSON.parse(readFileSync(join(dir, 'protocols', f), 'utf8')) as { protocol_id: string }).protocol_id);
    expect(ids.length).toBeGreaterThan(3);
    for (const id of ids) expect(uris).toContain(`ratchet://protocols/${id}`);
    expect(uris).toContain('ratchet://task');
    expect(uris).toContain('ratchet://campaign/ready');
    const fdc = resources.find((r) => r.uri === 'ratchet://protocols/fdc')!;
    expect(fdc).toMatchObject({ name: 'fdc', mimeType: 'text/markdown' });
    expect(fdc.description).toBeTruthy();
    const { resourceTemplates } = await server.client.listResourceTemplates();
    expect(resourceTemplates.map((t) => t.uriTemplate).sort()).toEqual(['ratchet://flows/{session}', 'ratchet://protocols/{id}']);
  });

  test('resources/read of a protocol is its full text: every rule, and its JSON definition', { timeout: 60_000 }, async () => {
    const protocol = JSON.parse(readFileSync(join(dir, 'protocols/02-decidability.protocol.json'), 'utf8')) as { protocol_id: string; rules: { rule_id: string; description: string }[] };
    const read = await server.client.readResource({ uri: `ratchet://protocols/${protocol.protocol_id}` });
    expect(read.contents[0]).toMatchObject({ uri: `ratchet://protocols/${protocol.protocol_id}`, mimeType: 'text/markdown' });
    for (const rule of protocol.rules) expect(text(read)).toContain(rule.rule_id);
    expect(text(read)).toContain('```json');
    // Only that protocol: another one's id is not in it.
    expect(text(read)).not.toContain('"protocol_id": "fdc"');
  });

  test('an unknown protocol, or a path in its place, is an error naming the known ones; nothing outside protocols/ is read', { timeout: 60_000 }, async () => {
    await expect(server.client.readResource({ uri: 'ratchet://protocols/nope' })).rejects.toThrow(/no protocol nope.*fdc/);
    await expect(server.client.readResource({ uri: 'ratchet://protocols/..%2F..%2Fetc%2Fpasswd' })).rejects.toThrow(/no protocol \.\.\/\.\.\/etc\/passwd/);
    await expect(server.client.readResource({ uri: 'ratchet://elsewhere' })).rejects.toThrow();
  });

  test('ratchet://task follows the task: START before it, then the state and the step to execute', { timeout: 60_000 }, async () => {
    const before = JSON.parse(text(await server.client.readResource({ uri: 'ratchet://task' }))) as { status: { state: string } };
    expect(before.status.state).toBe('START');
    await ok(server, 'task_start', { task_id: 'T-9', network: false });
    await ok(server, 'run_plan', { plan: 'plans/main.txt' });
    const during = JSON.parse(text(await server.client.readResource({ uri: 'ratchet://task' }))) as { status: { session: { state: string; taskId: string } }; next: { step: { line: string }; commands: string[] } };
    expect(during.status.session).toMatchObject({ taskId: 'T-9', state: 'EXECUTING' });
    expect(during.next.step.line).toBe('set_plan main');
    // Reading is not doing: the step is still the first one.
    expect((await ok(server, 'run_next')).state).toBe('EXECUTING');
    expect((JSON.parse(text(await server.client.readResource({ uri: 'ratchet://task' }))) as { next: { step: { line: string } } }).next.step.line).toBe('set_plan main');
  });

  test('ratchet://campaign/ready lists ready tasks and claims nothing', { timeout: 60_000 }, async () => {
    ratchet(['campaign', 'create', 'ship the docs', '--framework', 'none'], dir);
    writeFileSync(join(dir, 'plan.json'), JSON.stringify({ objective: 'ship the docs', tasks: [{ seq: '001', slug: 'outline', delta: ['docs/a.md'], verify: 'true' }] }));
    ratchet(['campaign', 'add-tasks', 'plan.json'], dir);
    const ready = JSON.parse(text(await server.client.readResource({ uri: 'ratchet://campaign/ready' }))) as { ready: { seq: number; status: string }[] };
    expect(ready.ready.map((t) => t.seq)).toEqual([1]);
    const again = JSON.parse(text(await server.client.readResource({ uri: 'ratchet://campaign/ready' }))) as { ready: { seq: number; status: string }[]; claimed?: unknown };
    expect(again.ready[0]!.status).toBe('pending');
  });

  test('ratchet://flows/{session}: listed while open, read as the current step directive', { timeout: 60_000 }, async () => {
    ratchet(['flow', 'start', 'reasoning', '--session', 'r1', '--input', 'query=explain the build'], dir);
    const { resources } = await server.client.listResources();
    const flow = resources.find((r) => r.uri === 'ratchet://flows/r1')!;
    expect(flow.title).toBe('Flow reasoning, step 0');
    const read = text(await server.client.readResource({ uri: 'ratchet://flows/r1' }));
    expect(read).toContain('Session r1: flow reasoning, EXECUTING at step 0');
    expect(read).toContain('ratchet flow advance');
    await expect(server.client.readResource({ uri: 'ratchet://flows/none' })).rejects.toThrow(/none/);
  });

  test('a project without protocols/ lists no protocol resources and still serves the rest', { timeout: 60_000 }, async () => {
    const bare = await connect(tempDir());
    try {
      const uris = (await bare.client.listResources()).resources.map((r) => r.uri);
      expect(uris.filter((u) => u.startsWith('ratchet://protocols/'))).toEqual([]);
      expect(uris).toContain('ratchet://task');
    } finally {
      await bare.close();
    }
  });
});

describe('prompts', () => {
  test('prompts/list: start_task, plan, next_step, post_mortem with their arguments', { timeout: 60_000 }, async () => {
    const { prompts } = await server.client.listPrompts();
    expect(prompts.map((p) => p.name)).toEqual(['start_task', 'plan', 'next_step', 'post_mortem']);
    expect(prompts.find((p) => p.name === 'start_task')!.arguments).toEqual([
      { name: 'task_id', description: 'the task id, e.g. an issue number', required: true },
      { name: 'goal', description: 'what the task is for', required: false },
    ]);
    expect(prompts.find((p) => p.name === 'next_step')!.arguments ?? []).toEqual([]);
  });

  test('prompts/get fills the template and names the tools, each one the server offers', { timeout: 60_000 }, async () => {
    const tools = new Set((await server.client.listTools()).tools.map((t) => t.name));
    const start = await server.client.getPrompt({ name: 'start_task', arguments: { task_id: 'T-42' } });
    expect(start.messages).toHaveLength(1);
    expect(start.messages[0]).toMatchObject({ role: 'user', content: { type: 'text' } });
    const startText = (start.messages[0]!.content as { text: string }).text;
    expect(startText).toContain('task_start with task_id "T-42"');
    for (const name of ['plan', 'next_step', 'post_mortem']) {
      const got = await server.client.getPrompt({ name, arguments: name === 'post_mortem' ? { task_id: 'T-42' } : {} });
      const body = (got.messages[0]!.content as { text: string }).text;
      // Every snake_case word that names a tool names one the default server has.
      for (const word of body.match(/\b[a-z]+_[a-z_]+\b/g) ?? []) if (word.includes('_') && !['set_plan', 'task_id', 'next_step', 'post_mortem'].includes(word)) expect(tools, `${name}: ${word}`).toContain(word);
    }
    expect((await server.client.getPrompt({ name: 'post_mortem', arguments: { task_id: 'T-42' } })).messages[0]!.content).toMatchObject({ text: expect.stringContaining('postmortems/T-42.md') as string });
  });

  test('a missing required argument or an unknown prompt is an error', { timeout: 60_000 }, async () => {
    await expect(server.client.getPrompt({ name: 'start_task', arguments: {} })).rejects.toThrow(/task_id/);
    await expect(server.client.getPrompt({ name: 'nope', arguments: {} })).rejects.toThrow(/nope/);
  });
});
