/**
 * Real Claude Code sessions with the Ratchet plugin installed: the tool calls Ratchet refuses (a
 * write while PLANNING, direct edits of its state), the plugin's commands and agents, and a session
 * done properly. Asserted from what Claude Code sent back to the model and from the files on disk.
 */
import { existsSync, readFileSync, symlinkSync } from 'node:fs';
import { basename, join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { claude, freshHome, repoRoot } from './claude.js';
import { toolResults } from './model-server.js';
import { initProject, sha256 } from './project.js';
import { bash, SESSION_TIMEOUT, session, stopFeedback, taskState } from './sessions.js';

describe('Claude Code with the Ratchet plugin: refused tool calls, and a session done properly', () => {
  test('installed from the marketplace: a Write while the task is PLANNING is denied, and the stop before a plan is blocked once', { timeout: SESSION_TIMEOUT + 60_000 }, async () => {
    const home = freshHome();
    const added = await claude(['plugin', 'marketplace', 'add', repoRoot], { cwd: repoRoot, home });
    expect(added.status, added.stderr).toBe(0);
    const installed = await claude(['plugin', 'install', 'ratchet@ratchet'], { cwd: repoRoot, home });
    expect(installed.status, installed.stderr).toBe(0);
    expect(installed.stdout).toContain('Successfully installed plugin: ratchet@ratchet');

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
        // Self-correction: every section of the post-mortem filled in, then its lessons extracted.
        bash(FILL_POST_MORTEM('postmortems/t2.md')),
        bash('ratchet lessons extract postmortems/t2.md'),
        bash('ratchet task submit --task-id t2'),
        { text: 'Task t2 is submitted.' },
      ],
      { sessionId: '44444444-aaaa-4bbb-8ccc-000000000007' },
    );
    const results = toolResults(server);
    expect(results).toHaveLength(11);
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

/** A shell command that fills in every section of a post-mortem template, as an agent would. */
function FILL_POST_MORTEM(path: string): string {
  const js = [
    `const fs = require('fs'); const p = ${JSON.stringify(path)};`,
    "let t = fs.readFileSync(p, 'utf8');",
    "t = t.replace('<!-- What was the task?', 'The task was delivered.\\n<!--').replace('<!-- Facts first', 'It went to plan.\\n<!--');",
    "t = t.replace('<!--\\nWrite each lesson', '**Lesson:** Nothing surprised us.\\n**Action:** tell the team the plan held\\n\\n<!--\\nWrite each lesson').replace('<!-- Open questions', 'None.\\n<!--');",
    'fs.writeFileSync(p, t);',
  ].join(' ');
  return `node -e ${JSON.stringify(js)}`;
}
