/**
 * `ratchet hook <event>` as Claude Code runs it: the built binary, one real process per event, real
 * payload shapes on stdin. A scripted session tries every shortcut an agent would take (write while
 * PLANNING, edit a state file by any spelling, stop before submit, stop holding a claim, skip the
 * reasoning flow) and each is refused with the command to run; the same work done properly ends
 * with no block.
 */
import { mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, test } from 'vitest';
import { ratchet, repoRoot, selfCorrect, tempDir } from '../helpers.js';

const SID = 'sess0001-4b1c-9f2e-aaaa-000000000001';
const RUNNER = 'claude-sess0001';

interface Answer {
  status: number | null;
  stdout: string;
  stderr: string;
  json: HookJson | undefined;
}

interface HookJson {
  hookSpecificOutput?: { hookEventName?: string; permissionDecision?: string; permissionDecisionReason?: string; additionalContext?: string };
  decision?: string;
  reason?: string;
}

interface Settings {
  permissions: { allow?: string[]; deny?: string[] };
  hooks: Record<string, { matcher?: string; hooks: { type: string; command: string; timeout?: number }[] }[]>;
}

function hook(dir: string, event: string, payload: Record<string, unknown> | string, env: Record<string, string> = {}): Answer {
  const input = typeof payload === 'string' ? payload : JSON.stringify({ session_id: SID, transcript_path: join(dir, 't.jsonl'), cwd: dir, ...payload });
  const r = ratchet(['hook', event], { cwd: dir, input, env: { CLAUDE_PROJECT_DIR: dir, RATCHET_RUNNER: '', ...env }, timeout: 60_000 });
  return { ...r, json: r.stdout.trim() === '' ? undefined : (JSON.parse(r.stdout) as HookJson) };
}

const denied = (a: Answer): string | undefined => (a.json?.hookSpecificOutput?.permissionDecision === 'deny' ? a.json.hookSpecificOutput.permissionDecisionReason : undefined);
const blocked = (a: Answer): string | undefined => (a.json?.decision === 'block' ? a.json.reason : undefined);
const initClaude = (d: string): { claude: { added: string[]; boundary: string[] } } => JSON.parse(ratchet(['--cwd', d, '--json', 'init', '--claude'], { timeout: 60_000 }).stdout) as { claude: { added: string[]; boundary: string[] } };
const settingsOf = (d: string): Settings => JSON.parse(readFileSync(join(d, '.claude/settings.json'), 'utf8')) as Settings;
const context = (a: Answer): string | undefined => a.json?.hookSpecificOutput?.additionalContext;
const write = (file_path: string) => ({ hook_event_name: 'PreToolUse', tool_name: 'Write', tool_input: { file_path, content: 'x' } });
const bash = (command: string) => ({ hook_event_name: 'PreToolUse', tool_name: 'Bash', tool_input: { command } });

function run(dir: string, args: string[]): string {
  const r = ratchet(['--cwd', dir, ...args], { timeout: 60_000 });
  if (r.status !== 0) throw new Error(`ratchet ${args.join(' ')} exited ${r.status}: ${r.stderr}${r.stdout}`);
  return r.stdout;
}

describe('ratchet hook: a scripted Claude Code session', () => {
  let dir: string;
  beforeAll(() => {
    dir = tempDir('ratchet-hook-');
    // The seed's behaviour, a project's choice: every prompt runs the reasoning flow.
    run(dir, ['init', '--reasoning-flow']);
    mkdirSync(join(dir, 'src'));
    mkdirSync(join(dir, 'plans'));
  });

  test('every shortcut is refused with the command to run; done properly, nothing blocks', { timeout: 300_000 }, () => {
    // 1. SessionStart: no task yet; the runner name is the session's.
    const start = hook(dir, 'session-start', { hook_event_name: 'SessionStart', source: 'startup' });
    expect(start.status).toBe(0);
    expect(context(start)).toContain('ratchet task start --task-id');
    expect(context(start)).toContain(`Your runner name: ${RUNNER}`);
    expect(context(start)!.length).toBeLessThanOrEqual(1500);

    // 2. A prompt (multi-line, non-ASCII) starts the reasoning flow; its directive comes back.
    const prompt = hook(dir, 'user-prompt-submit', { hook_event_name: 'UserPromptSubmit', prompt: 'Füge eine Login-Seite hinzu\nmit Passwort-Reset ✓' });
    expect(context(prompt)).toContain('flow session cc-sess0001-1');
    expect(context(prompt)).toMatch(/ratchet flow (advance|complete-branch)/);
    const flowFile = JSON.parse(readFileSync(join(dir, '.ratchet/flows/cc-sess0001-1.json'), 'utf8')) as { vars: Record<string, string> };
    expect(flowFile.vars.query).toBe('Füge eine Login-Seite hinzu mit Passwort-Reset ✓');

    // 3. Shortcut: skip the reasoning flow and stop.
    const skip = hook(dir, 'stop', { hook_event_name: 'Stop', stop_hook_active: false });
    expect(blocked(skip)).toContain('flow reasoning session cc-sess0001-1');
    expect(blocked(skip)).toMatch(/ratchet flow (advance|complete-branch) .*--session cc-sess0001-1/);

    // 4. The loop guard: Claude Code already continued once and nothing changed: let it stop.
    expect(hook(dir, 'stop', { hook_event_name: 'Stop', stop_hook_active: true }).json).toBeUndefined();

    // 5. A second prompt continues the open flow rather than starting another; `-b ` bypasses it.
    expect(context(hook(dir, 'user-prompt-submit', { prompt: 'and a logout button' }))).toContain('cc-sess0001-1 is still open');
    expect(hook(dir, 'user-prompt-submit', { prompt: '-b just show me the status' }).stdout).toBe('');

    // Halting the reasoning is no way out: writes wait for it (see reasoning-gate.test.ts). It is done
    // properly, and the user declines the flow it routes to: this work goes through a task instead.
    const reasoning = JSON.parse(readFileSync(join(repoRoot, 'protocols/flows/reasoning.flow.json'), 'utf8')) as { steps: { id: string; output: { headings: string[] } }[] };
    for (let i = 0; i < 20; i++) {
      const state = JSON.parse(readFileSync(join(dir, '.ratchet/flows/cc-sess0001-1.json'), 'utf8')) as { status: string; current: string };
      if (state.status === 'COMPLETED') break;
      const step = reasoning.steps.find((s) => s.id === state.current)!;
      writeFileSync(join(dir, `plans/reasoning-${i}.md`), step.output.headings.map((h) => `${h}\n\n${'What this step worked out for the login page. '.repeat(4)}(${i})\n`).join('\n'));
      run(dir, ['flow', 'advance', '--session', 'cc-sess0001-1', '--output', `plans/reasoning-${i}.md`, ...(step.id === '4' ? ['--set', 'route=develop-feature', '--set', 'confidence=HIGH'] : [])]);
    }
    run(dir, ['flow', 'decline', '--session', 'cc-sess0001-1', '--reason', 'planned through a Ratchet task instead']);
    run(dir, ['task', 'start', '--task-id', 'login', '--no-network']);

    // 6. Shortcut: write code while PLANNING.
    const early = hook(dir, 'pre-tool-use', write(join(dir, 'src/login.js')));
    expect(denied(early)).toContain('PLANNING');
    expect(denied(early)).toContain('ratchet run plan');
    // ... but the plan itself may be written.
    expect(hook(dir, 'pre-tool-use', write(join(dir, 'plans/login.txt'))).stdout).toBe('');

    // 7. Shortcut: edit the session file, spelled every way.
    for (const path of ['.ratchet/session.json', join(dir, '.ratchet/session.json'), 'src/../.ratchet/session.json', '.RATCHET/Session.JSON']) {
      expect(denied(hook(dir, 'pre-tool-use', { tool_name: 'Edit', tool_input: { file_path: path, old_string: 'PLANNING', new_string: 'DONE' } }))).toContain('is Ratchet state');
    }
    symlinkSync(join(dir, '.ratchet'), join(dir, 'src/state-link'));
    expect(denied(hook(dir, 'pre-tool-use', write('src/state-link/session.json')))).toContain('.ratchet/session.json is Ratchet state');
    expect(denied(hook(dir, 'pre-tool-use', { ...write('../.ratchet/session.json'), cwd: join(dir, 'src') }))).toContain('Ratchet state');
    for (const command of [
      `echo '{"state":"DONE"}' > .ratchet/session.json`,
      'sed -i s/PLANNING/DONE/ .ratchet/session.json',
      'ratchet run status && cp /tmp/forged.json .ratchet/session.json',
      `python3 -c "open('.ratchet/session.json','w').write('{}')"`,
      `bash -c 'tee logs/activity.log.jsonl < /dev/null'`,
      'mv knowledge_core/lessons.jsonl /tmp/x',
    ]) {
      expect(denied(hook(dir, 'pre-tool-use', bash(command))), command).toContain('Ratchet state');
    }
    // Reading state, and ratchet itself, are fine.
    expect(hook(dir, 'pre-tool-use', bash('cat .ratchet/session.json && ratchet run status')).stdout).toBe('');
    expect(hook(dir, 'pre-tool-use', { tool_name: 'Read', tool_input: { file_path: '.ratchet/session.json' } }).stdout).toBe('');

    // 8. Shortcut: stop before the task is submitted.
    const early_stop = hook(dir, 'stop', { stop_hook_active: false });
    expect(blocked(early_stop)).toContain('task login is PLANNING');
    expect(blocked(early_stop)).toContain('`ratchet run plan <plan-file>`');

    // The plan is accepted; tools outside its step are noted (warn, the default) or denied (enforce).
    writeFileSync(join(dir, 'plans/login.txt'), 'set_plan add a login page\nplan_step_complete\ncreate_file_with_block src/login.js\nrun_in_bash_session close\n');
    run(dir, ['run', 'plan', 'plans/login.txt']);
    const next = run(dir, ['--json', 'run', 'next']);
    expect(next).toContain('set_plan add a login page');
    run(dir, ['run', 'done']);
    run(dir, ['run', 'done']);
    expect(context(hook(dir, 'pre-tool-use', write('src/other.js')))).toContain('does not belong to it');
    // The config is pinned when the task starts: a change made now (by a person) applies to the next task.
    writeFileSync(join(dir, 'ratchet.config.json'), JSON.stringify({ hooks: { strictness: 'enforce', maxStopBlocks: 20 } }));
    expect(context(hook(dir, 'pre-tool-use', write('src/other.js')))).toContain('does not belong to it');
    expect(ratchet(['--cwd', dir, 'doctor'], { timeout: 60_000 }).stdout).toContain('ratchet.config.json: rule-changed');
    expect(hook(dir, 'pre-tool-use', write(join(dir, 'src/login.js'))).stdout).toBe('');
    // The config is state too: an agent cannot lower the bar.
    expect(denied(hook(dir, 'pre-tool-use', write('ratchet.config.json')))).toContain("ratchet.config.json is the configuration that holds Ratchet's rails");

    // 9. PostToolUse logs the call.
    writeFileSync(join(dir, 'src/login.js'), 'export {};\n');
    expect(hook(dir, 'post-tool-use', { hook_event_name: 'PostToolUse', tool_name: 'Write', tool_input: { file_path: join(dir, 'src/login.js'), content: 'export {};\n' }, tool_response: { success: true } }).stdout).toBe('');
    const log = readFileSync(join(dir, 'logs/activity.log.jsonl'), 'utf8').trim().split('\n').map((l) => JSON.parse(l) as unknown);
    expect(log.at(-1)).toMatchObject({ phase: 'EXECUTING', task: { id: 'login', plan_step: 2 }, action: { type: 'TOOL_CALL', details: { tool: 'Write', claude_session: SID } }, outcome: { status: 'SUCCESS' } });
    expect(JSON.stringify(log.at(-1))).not.toContain('export {}');

    // 10. Shortcut: stop holding a campaign claim.
    run(dir, ['campaign', 'create', 'login feature']);
    writeFileSync(join(dir, 'plans/campaign.json'), JSON.stringify({ objective: 'login feature', tasks: [{ seq: '001', slug: 'login-page', type: 'BUILD', delta: ['src/login.js'], verify: 'true', depends: 'none' }] }));
    run(dir, ['campaign', 'add-tasks', 'plans/campaign.json']);
    run(dir, ['campaign', 'ready', '--claim', RUNNER]);
    hook(dir, 'post-tool-use', { tool_name: 'Bash', tool_input: { command: `ratchet campaign ready --claim ${RUNNER}` }, tool_response: { stdout: '', exitCode: 0 } });
    const claimStop = hook(dir, 'stop', { stop_hook_active: false });
    expect(blocked(claimStop)).toContain(`campaign task 001 (login-page) is claimed by ${RUNNER}`);
    expect(blocked(claimStop)).toContain(`ratchet campaign update-task 001 complete --runner ${RUNNER}`);
    expect(blocked(claimStop)).toContain('task login is EXECUTING');

    // Done properly: finish the plan, close, fill in the post-mortem, submit, complete the claim.
    run(dir, ['run', 'done']);
    run(dir, ['run', 'done']);
    run(dir, ['task', 'close', '--task-id', 'login']);
    const pmWrite = hook(dir, 'pre-tool-use', write('postmortems/login.md'));
    expect(pmWrite.stdout).toBe('');
    expect(denied(hook(dir, 'pre-tool-use', write('src/late-fix.js')))).toContain('POST_MORTEM');
    selfCorrect(dir, 'login');
    run(dir, ['task', 'submit', '--task-id', 'login']);
    run(dir, ['campaign', 'update-task', '001', 'complete', '--runner', RUNNER]);
    const done = hook(dir, 'stop', { stop_hook_active: false });
    expect(done.json).toBeUndefined();
    expect(done.status).toBe(0);
  });

  test('a corrupt state file blocks, naming the file and place', { timeout: 120_000 }, () => {
    const d = tempDir('ratchet-hook-corrupt-');
    run(d, ['init']);
    run(d, ['task', 'start', '--task-id', 'x', '--no-network']);
    writeFileSync(join(d, '.ratchet/session.json'), '{\n  "taskId": "x",\n  "state": \n}\n');
    const w = hook(d, 'pre-tool-use', write('src/a.js'));
    expect(denied(w)).toMatch(/\.ratchet\/session\.json:4:\d+ cannot be read/);
    expect(blocked(hook(d, 'stop', {}))).toMatch(/\.ratchet\/session\.json:4:\d+ cannot be read/);
    // Reading is still allowed, so the agent can look.
    expect(hook(d, 'pre-tool-use', { tool_name: 'Read', tool_input: { file_path: '.ratchet/session.json' } }).stdout).toBe('');
  });

  test('a session edited by hand (valid JSON, wrong digest) blocks too, pointing at ratchet doctor', { timeout: 120_000 }, () => {
    const d = tempDir('ratchet-hook-tampered-');
    run(d, ['init']);
    run(d, ['task', 'start', '--task-id', 'x', '--no-network']);
    const path = join(d, '.ratchet/session.json');
    writeFileSync(path, readFileSync(path, 'utf8').replace('"state": "PLANNING"', '"state": "EXECUTING"'));
    const stop = blocked(hook(d, 'stop', {}));
    expect(stop).toContain('.ratchet/session.json');
    expect(stop).toContain('ratchet doctor --restore .ratchet/session.json');
    expect(denied(hook(d, 'pre-tool-use', write('src/a.js')))).toContain('.ratchet/session.json');
  });

  test('Stop blocks at most maxStopBlocks times, then lets the agent stop with a note', { timeout: 120_000 }, () => {
    const d = tempDir('ratchet-hook-max-');
    run(d, ['init']);
    writeFileSync(join(d, 'ratchet.config.json'), JSON.stringify({ hooks: { maxStopBlocks: 2 } }));
    run(d, ['task', 'start', '--task-id', 'x', '--no-network']);
    expect(blocked(hook(d, 'stop', { stop_hook_active: false }))).toBeDefined();
    expect(blocked(hook(d, 'stop', { stop_hook_active: false }))).toBeDefined();
    const third = hook(d, 'stop', { stop_hook_active: false });
    expect(third.json).toBeUndefined();
    expect(third.stderr).toContain('after 2 blocks');
  });

  test('bad payloads fail closed: the call is denied and the stop held, saying why; outside Ratchet projects nothing is said', { timeout: 120_000 }, () => {
    const d = tempDir('ratchet-hook-bad-');
    run(d, ['init']);
    run(d, ['task', 'start', '--task-id', 'x', '--no-network']);
    // (A payload over 1 MiB is refused instead: tests/cli/hook-input-limits.test.ts.)
    for (const input of ['not json', '', '[1,2]', '{"tool_name":', `{"tool_input":${'['.repeat(5000)}`]) {
      const r = hook(d, 'pre-tool-use', input);
      expect(r.status, input.slice(0, 20)).toBe(0);
      expect(denied(r), input.slice(0, 20)).toContain('Ratchet could not decide');
      const stop = hook(d, 'stop', input);
      expect(JSON.parse(stop.stdout) as { decision: string }, input.slice(0, 20)).toMatchObject({ decision: 'block' });
    }
    expect(denied(hook(d, 'pre-tool-use', `{"x":"${'a'.repeat(1024 * 1024 + 10)}"}`))).toContain('over 1 MiB');
    const elsewhere = tempDir('ratchet-hook-bad-none-');
    const quiet = hook(elsewhere, 'pre-tool-use', 'not json');
    expect(quiet.stdout).toBe('');
    // Missing fields are not an error: nothing to judge, nothing denied.
    const bare = hook(d, 'pre-tool-use', '{}');
    expect(bare.status).toBe(0);
    expect(bare.stderr).toBe('');
    // A hostile __proto__ in tool_input is just data.
    const proto = hook(d, 'pre-tool-use', '{"tool_name":"Write","tool_input":{"__proto__":{"file_path":"src/x.js"},"file_path":".ratchet/session.json"}}');
    expect(denied(proto)).toContain('Ratchet state');
  });

  test('a project without Ratchet gets no answer at all', { timeout: 60_000 }, () => {
    const d = tempDir('ratchet-hook-none-');
    const r = hook(d, 'pre-tool-use', write('src/a.js'));
    expect(r.status).toBe(0);
    expect(r.stdout).toBe('');
    expect(hook(d, 'stop', {}).stdout).toBe('');
  });

  test('init --claude merges the hooks into .claude/settings.json, idempotently, and never overwrites a broken file', { timeout: 120_000 }, () => {
    const d = tempDir('ratchet-hook-init-');
    mkdirSync(join(d, '.claude'));
    const mine = { permissions: { allow: ['Bash(npm test)'] }, hooks: { PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command: 'my-guard.sh' }] }] } };
    writeFileSync(join(d, '.claude/settings.json'), JSON.stringify(mine));
    const first = initClaude(d);
    expect(first.claude.added).toEqual(['SessionStart', 'UserPromptSubmit', 'PreToolUse', 'PostToolUse', 'Stop', 'SubagentStop']);
    const settings = settingsOf(d) as ReturnType<typeof settingsOf> & { sandbox: Record<string, unknown> & { filesystem: { denyWrite: string[] } }; env: Record<string, string>; enabledMcpjsonServers: string[] };
    // Yours is kept; Ratchet's is added beside it.
    expect(settings.permissions.allow).toEqual(['Bash(npm test)', 'mcp__ratchet', 'mcp__plugin_ratchet_ratchet']);
    expect(settings.permissions.deny).toEqual(expect.arrayContaining(['Write(./.ratchet/**)', 'Edit(./protocols/**)', 'MultiEdit(./ratchet.config.json)', 'NotebookEdit(./knowledge_core/**)']));
    expect(settings.hooks.PreToolUse![0]).toEqual(mine.hooks.PreToolUse[0]);
    expect(settings.hooks.PreToolUse![1]).toEqual({ matcher: '*', hooks: [{ type: 'command', command: 'ratchet hook pre-tool-use', timeout: 30 }] });
    expect(settings.hooks.Stop![0]!.hooks[0]!.command).toBe('ratchet hook stop');
    // The sandbox: on, no way out, Ratchet's files read-only to the agent's shell.
    expect(settings.sandbox).toMatchObject({ enabled: true, failIfUnavailable: true, allowUnsandboxedCommands: false });
    expect(settings.sandbox.filesystem.denyWrite).toEqual(expect.arrayContaining(['./.ratchet', './protocols', './knowledge_core', './ratchet.config.json', './.mcp.json', './logs/activity.log.jsonl', './.jixo']));
    expect(settings.env.RATCHET_ACTOR).toBe('agent');
    expect(settings.enabledMcpjsonServers).toEqual(['ratchet']);
    expect(JSON.parse(readFileSync(join(d, '.mcp.json'), 'utf8'))).toEqual({ mcpServers: { ratchet: { type: 'stdio', command: 'ratchet-mcp', args: [] } } });
    const before = readFileSync(join(d, '.claude/settings.json'), 'utf8');
    const again = initClaude(d);
    expect(again.claude.added).toEqual([]);
    expect(again.claude.boundary).toEqual([]);
    expect(readFileSync(join(d, '.claude/settings.json'), 'utf8')).toBe(before);
    // The agent cannot switch the rails off by editing the settings.
    expect(denied(hook(d, 'pre-tool-use', { tool_name: 'Edit', tool_input: { file_path: '.claude/settings.json' } }))).toContain("the configuration that holds Ratchet's rails");

    // A value you set is never overwritten, only reported.
    const off = tempDir('ratchet-hook-init-off-');
    mkdirSync(join(off, '.claude'));
    writeFileSync(join(off, '.claude/settings.json'), JSON.stringify({ sandbox: { enabled: false }, env: { RATCHET_ACTOR: 'user' } }));
    const warned = ratchet(['--cwd', off, 'init', '--claude'], { timeout: 60_000 });
    expect(warned.status, warned.stderr).toBe(0);
    expect(warned.stderr).toContain('sandbox.enabled is false');
    expect(warned.stderr).toContain('env.RATCHET_ACTOR is "user"');
    expect(settingsOf(off)).toMatchObject({ sandbox: { enabled: false }, env: { RATCHET_ACTOR: 'user' } });

    const broken = tempDir('ratchet-hook-init-broken-');
    mkdirSync(join(broken, '.claude'));
    writeFileSync(join(broken, '.claude/settings.json'), '{\n  "hooks": {,\n}');
    const r = ratchet(['--cwd', broken, 'init', '--claude'], { timeout: 60_000 });
    expect(r.status).toBe(2);
    expect(r.stderr).toContain('.claude/settings.json:2:');
    expect(readFileSync(join(broken, '.claude/settings.json'), 'utf8')).toBe('{\n  "hooks": {,\n}');
  });

  test('SessionStart shows the top of turn assess and the pending lessons, within 1,500 characters', { timeout: 120_000 }, () => {
    const d = tempDir('ratchet-hook-context-');
    run(d, ['init']);
    run(d, ['goals', 'add', 'Ship the beta', '--priority', '5']);
    run(d, ['actions', 'add', 'agent_task', 'Write the migration', '--priority', '3', '--goal', 'g1']);
    mkdirSync(join(d, 'postmortems'), { recursive: true });
    writeFileSync(
      join(d, 'postmortems/pm.md'),
      "# Post-Mortem\n\n## 3. Corrective Actions & Lessons Learned\n\n**Lesson:** Plans should be analysed before they run.\n**Action:** add tool 'ratchet plan analyze' to protocol 'greeting'\n",
    );
    ratchet(['--cwd', d, 'lessons', 'extract', 'postmortems/pm.md'], { timeout: 60_000 });
    expect(ratchet(['--cwd', d, 'lessons', 'list', '--status', 'pending'], { timeout: 60_000 }).stdout).toContain('add-tool');
    const text = context(hook(d, 'session-start', { hook_event_name: 'SessionStart', source: 'resume' }))!;
    expect(text).toContain('Top of `ratchet turn assess`');
    expect(text).toContain('Write the migration');
    expect(text).toContain('1 pending lesson(s)');
    expect(text.length).toBeLessThanOrEqual(1500);
  });

  test('SessionStart counts pending lessons from the lessons themselves, not from printed lines (an insight over two lines is one lesson)', { timeout: 120_000 }, () => {
    const d = tempDir('ratchet-hook-lessons-');
    run(d, ['init']);
    // A lessons file as the original systems write it (not yet tracked by Ratchet): one pending lesson whose insight spans two lines.
    const lesson = (id: string, insight: string, status: string) => ({ lesson_id: id, task_id: 'T-1', date: '2026-01-02', insight, action: { type: 'MANUAL', command: 'manual', parameters: { text: 'talk it over' } }, status, history: [{ status, time: '2026-01-02T00:00:00.000Z', reason: 'written by hand' }] });
    writeFileSync(join(d, 'knowledge_core/lessons.jsonl'), [lesson('lesson-a', 'Check the plan first.\nThen run it.', 'pending'), lesson('lesson-b', 'Already done.', 'applied')].map((l) => JSON.stringify(l)).join('\n') + '\n');
    const text = context(hook(d, 'session-start', { hook_event_name: 'SessionStart', source: 'startup' }))!;
    expect(text).toContain('1 pending lesson(s)');
    expect(text).toContain('lesson-a');
    expect(text).not.toContain('lesson-b');
  });

  test('ratchet hook --help explains the events; the full program answers like the fast path', { timeout: 60_000 }, () => {
    const help = ratchet(['hook', '--help'], { timeout: 60_000 });
    expect(help.status).toBe(0);
    for (const event of ['session-start', 'user-prompt-submit', 'pre-tool-use', 'post-tool-use', 'stop', 'subagent-stop']) expect(help.stdout).toContain(event);
    const d = tempDir('ratchet-hook-slow-');
    run(d, ['init']);
    run(d, ['task', 'start', '--task-id', 'x', '--no-network']);
    const input = JSON.stringify({ session_id: SID, tool_name: 'Write', tool_input: { file_path: 'src/a.js' } });
    const viaProgram = ratchet(['--cwd', d, 'hook', 'pre-tool-use'], { input, timeout: 60_000, env: { CLAUDE_PROJECT_DIR: '' } });
    const fast = ratchet(['hook', 'pre-tool-use'], { input, cwd: d, timeout: 60_000, env: { CLAUDE_PROJECT_DIR: d } });
    expect(viaProgram.stdout).toContain('"permissionDecision":"deny"');
    expect(viaProgram.stdout).toBe(fast.stdout);
    expect(ratchet(['hook', 'no-such-event'], { input, cwd: d, timeout: 60_000 }).status).toBe(2);
  });
});
