/**
 * Real Claude Code sessions with the Ratchet plugin installed, driven by a scripted model that
 * tries each shortcut Ratchet exists to refuse. Every assertion is on what Claude Code sent back to
 * the model (tool results, the Stop hook's continuation) and on the files on disk.
 */
import { appendFileSync, existsSync, mkdirSync, readFileSync, symlinkSync } from 'node:fs';
import { basename, join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { bin, ratchet } from '../helpers.js';
import { claude, claudeSession, freshHome, pluginDir, repoRoot, type ClaudeRun } from './claude.js';
import { startModelServer, textOf, toolResults, type ModelServer, type Reply } from './model-server.js';
import { addCampaign, initProject, ratchetOnPath, readJson, sha256 } from './project.js';

const SESSION_TIMEOUT = 150_000;

/** The Stop hook's continuations Claude Code sent to the model, in order. */
function stopFeedback(server: ModelServer): string[] {
  const last = server.requests.at(-1);
  return (last?.messages ?? []).filter((m) => m.role === 'user').map((m) => textOf(m.content)).filter((t) => t.startsWith('Stop hook feedback:'));
}

const bash = (command: string): Reply => ({ tools: [{ name: 'Bash', input: { command, description: command } }] });

interface Session {
  run: ClaudeRun;
  server: ModelServer;
}

/**
 * One session in `dir` with the plugin from --plugin-dir (or as installed under `home`), the
 * worktree's ratchet on PATH for the model's Bash commands and, unless `viaPath`, as RATCHET_CLI.
 */
async function session(dir: string, prompt: string, script: Reply[], options: { sessionId: string; home?: string; viaPath?: boolean }): Promise<Session> {
  const server = await startModelServer(script);
  try {
    const installed = options.home !== undefined;
    const run = await claudeSession({
      cwd: dir,
      home: options.home ?? freshHome(),
      baseUrl: server.url,
      prompt,
      sessionId: options.sessionId,
      args: [...(installed ? [] : ['--plugin-dir', pluginDir]), '--allowedTools', 'Bash'],
      env: { PATH: `${ratchetOnPath()}:${process.env.PATH ?? ''}`, ...(options.viaPath ? {} : { RATCHET_CLI: bin }) },
      timeoutMs: SESSION_TIMEOUT - 10_000,
    });
    expect(run.status, `claude exited ${run.status}\n${run.stderr}\n${run.stdout}`).toBe(0);
    return { run, server };
  } finally {
    await server.close();
  }
}

const taskState = (dir: string): string => readJson<{ state: string }>(join(dir, '.ratchet/session.json')).state;

describe('Claude Code with the Ratchet plugin: each shortcut is refused with Ratchet\'s reason', () => {
  test('installed from the marketplace: a Write while the task is PLANNING is denied, and the stop before a plan is blocked once', { timeout: SESSION_TIMEOUT + 60_000 }, async () => {
    const home = freshHome();
    const added = await claude(['plugin', 'marketplace', 'add', repoRoot], { cwd: repoRoot, home });
    expect(added.status, added.stderr).toBe(0);
    const installed = await claude(['plugin', 'install', 'ratchet@ratchet-dev'], { cwd: repoRoot, home });
    expect(installed.status, installed.stderr).toBe(0);
    expect(installed.stdout).toContain('Successfully installed plugin: ratchet@ratchet-dev');

    const dir = initProject({ task: 't1' });
    const target = join(dir, 'src/app.ts');
    const { run, server } = await session(dir, '-b implement the app', [{ text: 'Writing the code.', tools: [{ name: 'Write', input: { file_path: target, content: 'export {};\n' } }] }, { text: 'Refused; stopping.' }, { text: 'Stopping anyway.' }], {
      sessionId: '11111111-aaaa-4bbb-8ccc-000000000001',
      home,
    });

    const [result, ...more] = toolResults(server);
    expect(more).toEqual([]);
    expect(result?.isError).toBe(true);
    expect(result?.text).toMatch(/Ratchet: Write of src\/app\.ts refused: task t1 is PLANNING/);
    expect(result?.text).toContain('ratchet run plan');
    expect(existsSync(target)).toBe(false);

    // The stop is blocked once for the open task; the unchanged retry (stop_hook_active) is let go.
    const feedback = stopFeedback(server);
    expect(feedback).toHaveLength(1);
    expect(feedback[0]).toContain('Ratchet: you cannot stop yet');
    expect(feedback[0]).toContain('task t1 is PLANNING');
    expect(feedback[0]).toContain('`ratchet run plan <plan-file>`');
    expect(run.result?.result).toBe('Stopping anyway.');
    expect(taskState(dir)).toBe('PLANNING');
    // "-b " skipped the reasoning flow.
    expect(existsSync(join(dir, '.ratchet/flows'))).toBe(false);
  });

  test('direct edits of .ratchet/session.json (Edit, through ../, another case, a symlink, Bash) are all denied and the file is untouched', { timeout: SESSION_TIMEOUT }, async () => {
    const dir = initProject({ task: 't1' });
    symlinkSync(join(dir, '.ratchet'), join(dir, 'state-link'));
    const file = join(dir, '.ratchet/session.json');
    const before = sha256(file);
    const viaParent = join(dir, '..', basename(dir), '.ratchet/session.json');
    const { server } = await session(
      dir,
      '-b move the task on',
      [
        // Claude Code refuses to overwrite a file not read first, before any hook runs: read each spelling.
        { tools: [file, viaParent, join(dir, 'state-link/session.json')].map((path) => ({ name: 'Read', input: { file_path: path } })) },
        {
          text: 'Editing the state directly.',
          tools: [
            { name: 'Edit', input: { file_path: file, old_string: '"state": "PLANNING"', new_string: '"state": "EXECUTING"' } },
            { name: 'Write', input: { file_path: viaParent, content: '{"state":"DONE"}\n' } },
            { name: 'Write', input: { file_path: join(dir, '.RATCHET/Session.json'), content: '{"state":"DONE"}\n' } },
            { name: 'Write', input: { file_path: join(dir, 'state-link/session.json'), content: '{"state":"DONE"}\n' } },
          ],
        },
        bash(`printf '{"state":"DONE"}' > .ratchet/session.json`),
        { text: 'Done.' },
        { text: 'Done.' },
      ],
      { sessionId: '11111111-aaaa-4bbb-8ccc-000000000002' },
    );

    const results = toolResults(server);
    expect(results).toHaveLength(8);
    for (const r of results.slice(0, 3)) expect(r.isError, r.text).toBe(false); // reading state is fine
    const [edit, parent, otherCase, link, shell] = results.slice(3);
    for (const r of [edit, parent, otherCase, link, shell]) {
      expect(r?.isError, r?.text).toBe(true);
      expect(r?.text).toMatch(/^Ratchet/m);
      expect(r?.text).toContain('state');
    }
    for (const r of [edit, parent, link, shell]) expect(r?.text).toContain('.ratchet/session.json');
    expect(otherCase?.text.toLowerCase()).toContain('.ratchet/session.json');
    expect(sha256(file)).toBe(before);
    expect(existsSync(join(dir, '.RATCHET'))).toBe(false);
    expect(taskState(dir)).toBe('PLANNING');
  });

  test('stopping after task close but before task submit is blocked, naming ratchet task submit', { timeout: SESSION_TIMEOUT }, async () => {
    const dir = initProject({ task: 't1' });
    mkdirSync(join(dir, 'plans'));
    appendFileSync(join(dir, 'plans/t1.txt'), 'set_plan t1\nplan_step_complete go\nrun_in_bash_session close\n');
    expect(ratchet(['run', 'plan', 'plans/t1.txt'], { cwd: dir }).status).toBe(0);
    for (let i = 0; i < 3; i++) expect(ratchet(['run', 'done'], { cwd: dir }).status).toBe(0);
    expect(ratchet(['task', 'close', '--task-id', 't1'], { cwd: dir }).status).toBe(0);

    const { server } = await session(dir, '-b wrap up', [{ text: 'All done.' }, { text: 'Done, really.' }], { sessionId: '11111111-aaaa-4bbb-8ccc-000000000003' });
    const feedback = stopFeedback(server);
    expect(feedback).toHaveLength(1);
    expect(feedback[0]).toContain('task t1 is POST_MORTEM');
    expect(feedback[0]).toContain('`ratchet task submit --task-id t1`');
    expect(taskState(dir)).toBe('POST_MORTEM');
  });

  test('a campaign claim made through Bash blocks the stop until the task is completed (ratchet found on PATH)', { timeout: SESSION_TIMEOUT }, async () => {
    const dir = initProject();
    addCampaign(dir);
    const { server } = await session(
      dir,
      '-b build the next campaign task',
      [bash('ratchet campaign ready --claim builder-7'), { text: 'Claimed it; stopping.' }, bash('ratchet campaign update-task 001 complete'), { text: 'Task 001 complete.' }],
      { sessionId: '11111111-aaaa-4bbb-8ccc-000000000004', viaPath: true },
    );
    const results = toolResults(server);
    expect(results.map((r) => r.isError)).toEqual([false, false]);
    expect(results[0]?.text).toContain('001');
    const feedback = stopFeedback(server);
    expect(feedback).toHaveLength(1);
    expect(feedback[0]).toContain('builder-7');
    expect(feedback[0]).toContain('ratchet campaign update-task 001');
    const campaign = readJson<{ tasks: { seq: number; status: string }[] }>(join(dir, '.ratchet/campaign.json'));
    expect(campaign.tasks.find((t) => t.seq === 1)?.status).toBe('complete');
    expect(server.remaining()).toBe(0);
  });

  test('a prompt starts the reasoning flow; stopping without it is blocked once, naming ratchet flow advance', { timeout: SESSION_TIMEOUT }, async () => {
    const dir = initProject();
    const { server } = await session(dir, 'add a login page', [{ text: 'Here is a login page.' }, { text: 'Still done.' }], { sessionId: '22222222-aaaa-4bbb-8ccc-000000000005' });
    // The directive reached the model with the prompt.
    expect(textOf(server.requests[0]?.messages[0]?.content)).toContain('ratchet flow advance --session cc-22222222-1');
    const feedback = stopFeedback(server);
    expect(feedback).toHaveLength(1);
    expect(feedback[0]).toContain('flow reasoning session cc-22222222-1 is EXECUTING at step 0');
    expect(feedback[0]).toContain('`ratchet flow advance --session cc-22222222-1`');
    expect(readJson<{ status?: string; state?: string }>(join(dir, '.ratchet/flows/cc-22222222-1.json'))).toBeTruthy();
  });

  test('the loop guard: a model that keeps moving and stopping is let go after hooks.maxStopBlocks', { timeout: SESSION_TIMEOUT }, async () => {
    const dir = initProject({ config: { maxStopBlocks: 2 } });
    const advance = bash('ratchet flow advance --session cc-33333333-1');
    const { run, server } = await session(dir, 'explain the code', [{ text: 'Stop 1.' }, advance, { text: 'Stop 2.' }, advance, { text: 'Stop 3.' }, { text: 'Unused.' }], {
      sessionId: '33333333-aaaa-4bbb-8ccc-000000000006',
    });
    const feedback = stopFeedback(server);
    expect(feedback).toHaveLength(2);
    expect(feedback[0]).toContain('at step 0');
    expect(feedback[1]).toContain('at step 1');
    expect(run.result?.result).toBe('Stop 3.');
    expect(server.remaining()).toBe(1);
    expect(readJson<{ stopBlocks: number }>(join(dir, '.ratchet/hooks/33333333-aaaa-4bbb-8ccc-000000000006.json')).stopBlocks).toBe(2);
  });

  test("the plugin's slash commands expand and its seven agents are offered to the model", { timeout: SESSION_TIMEOUT }, async () => {
    const dir = initProject({ config: { reasoningFlow: false } });
    const { server } = await session(dir, '/ratchet:task-start t9', [{ text: 'Starting.' }], { sessionId: '55555555-aaaa-4bbb-8ccc-000000000008' });
    const first = server.requests[0];
    const prompt = JSON.stringify(first?.messages);
    expect(prompt).toContain('ratchet task start --task-id t9');
    const tools = JSON.stringify(first?.tools);
    for (const agent of ['clarification', 'research', 'analysis', 'synthesis', 'generation', 'validation', 'memory']) expect(tools).toContain(`ratchet:${agent}-agent`);
  });

  test('a session done properly (-b, the ratchet commands through Bash in order) ends with no block', { timeout: SESSION_TIMEOUT }, async () => {
    const dir = initProject();
    const { run, server } = await session(
      dir,
      '-b do task t2',
      [
        bash('ratchet task start --task-id t2 --no-network'),
        { tools: [{ name: 'Write', input: { file_path: join(dir, 'plans/t2.txt'), content: 'set_plan t2\nplan_step_complete go\nrun_in_bash_session close\n' } }] },
        bash('ratchet run plan plans/t2.txt'),
        bash('ratchet run next'),
        bash('ratchet run done'),
        bash('ratchet run done'),
        bash('ratchet run done'),
        bash('ratchet task close --task-id t2'),
        bash(`printf '\\nDone: wrote the plan and ran its three steps.\\n' >> postmortems/t2.md`),
        bash('ratchet task submit --task-id t2'),
        { text: 'Task t2 is submitted.' },
      ],
      { sessionId: '44444444-aaaa-4bbb-8ccc-000000000007' },
    );
    const results = toolResults(server);
    expect(results).toHaveLength(10);
    for (const r of results) expect(r.isError, r.text).toBe(false);
    expect(stopFeedback(server)).toEqual([]);
    expect(run.result?.result).toBe('Task t2 is submitted.');
    expect(server.remaining()).toBe(0);
    expect(taskState(dir)).toBe('DONE');
    // PostToolUse logged the model's tool calls next to the task's own events.
    const log = readFileSync(join(dir, 'logs/activity.log.jsonl'), 'utf8');
    expect(log).toContain('ratchet task submit --task-id t2');
    expect(log).toContain('TASK_END');
  });
});
