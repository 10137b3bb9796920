/**
 * The trust boundary without Claude Code: the built binary, real processes.
 *  - Inside the agent's sandbox (Claude Code marks its commands SANDBOX_RUNTIME=1; a real read-only
 *    mount made with bubblewrap is recognised without it), a command that changes Ratchet's state
 *    is refused naming the MCP tool, a person's command is refused, a read-only one works.
 *  - The agent is the agent on every channel: RATCHET_ACTOR=agent, the MCP channel, the sandbox.
 *  - With no task, nothing but plans and notes is written; a claim or a flow opens the gate.
 *  - Obligations opened through any channel (the MCP tools, `--claim "$VAR"`, `jixo lock --runner R`)
 *    hold the Stop; a Stop replayed by hand never spends the budget.
 *  - Commands write only what they own: `store import` keys, `--out` paths.
 *  - Rule files are pinned when a task starts.
 * The hooks-only attempt table (what is denied, what only detected) is in hooks-only.test.ts.
 */
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import { appendFileSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { bin, ratchet, tempDir } from '../helpers.js';

const SID = 'sess0002-4b1c-9f2e-aaaa-000000000002';

interface HookJson {
  hookSpecificOutput?: { permissionDecision?: string; permissionDecisionReason?: string; additionalContext?: string };
  decision?: string;
  reason?: string;
}

function hook(dir: string, event: string, payload: Record<string, unknown>, env: Record<string, string> = {}): HookJson | undefined {
  const input = JSON.stringify({ session_id: SID, cwd: dir, ...payload });
  const r = ratchet(['hook', event], { cwd: dir, input, env: { CLAUDE_PROJECT_DIR: dir, RATCHET_RUNNER: '', ...env }, timeout: 60_000 });
  expect(r.status, r.stderr).toBe(0);
  return r.stdout.trim() === '' ? undefined : (JSON.parse(r.stdout) as HookJson);
}
const denied = (a: HookJson | undefined): string | undefined => (a?.hookSpecificOutput?.permissionDecision === 'deny' ? a.hookSpecificOutput.permissionDecisionReason : undefined);
const blocked = (a: HookJson | undefined): string | undefined => (a?.decision === 'block' ? a.reason : undefined);
const write = (file_path: string) => ({ hook_event_name: 'PreToolUse', tool_name: 'Write', tool_input: { file_path, content: 'x' } });
const bash = (command: string) => ({ hook_event_name: 'PreToolUse', tool_name: 'Bash', tool_input: { command } });

function run(dir: string, args: string[], env: Record<string, string> = {}): string {
  const r = ratchet(['--cwd', dir, ...args], { timeout: 60_000, env });
  if (r.status !== 0) throw new Error(`ratchet ${args.join(' ')} exited ${r.status}: ${r.stderr}${r.stdout}`);
  return r.stdout;
}

function project(): string {
  const dir = tempDir('ratchet-boundary-');
  run(dir, ['init']);
  mkdirSync(join(dir, 'src'));
  mkdirSync(join(dir, 'plans'));
  return dir;
}

const campaignPlan = JSON.stringify({
  objective: 'Objective',
  tasks: [
    { seq: '001', slug: 'one', type: 'BUILD', delta: ['src/one.ts'], verify: 'true', budget: 3, depends: 'none' },
    { seq: '002', slug: 'two', type: 'BUILD', delta: ['src/two.ts'], verify: 'true', budget: 3, depends: 'none' },
  ],
});

describe("inside the agent's sandbox", () => {
  const sandbox = { SANDBOX_RUNTIME: '1' };

  test('a command that changes state is refused (exit 2) naming the MCP tool; reading works; nothing is written', { timeout: 180_000 }, () => {
    const dir = project();
    run(dir, ['task', 'start', '--task-id', 't1', '--no-network']);
    writeFileSync(join(dir, 'plans/p.txt'), 'set_plan x\nclose\n');
    const session = readFileSync(join(dir, '.ratchet/session.json'), 'utf8');
    for (const [args, tool] of [
      [['task', 'start', '--task-id', 't2', '--no-network'], 'task_start'],
      [['run', 'plan', 'plans/p.txt'], 'run_plan'],
      [['run', 'done'], 'run_done'],
      [['task', 'close', '--task-id', 't1', '--abandon', '--reason', 'x'], 'task_close'],
      [['lessons', 'apply'], 'lessons_apply'],
      [['flow', 'start', 'reasoning', '--session', 's1', '--input', 'query=x'], 'flow_start'],
      [['campaign', 'create', 'Objective'], 'campaign_create'],
      [['campaign', 'ready', '--claim', 'r1'], 'campaign_ready'],
      [['jixo', 'lock', '.jixo/a.log.md', '--runner', 'r1'], 'jixo_lock'],
      [['memory', 'add-failure', '--name', 'x', '--trigger', 'y', '--fix', 'z', '--cost', '1'], 'memory_add_failure'],
      [['goals', 'add', 'Ship it'], 'goals_add'],
    ] as const) {
      const r = ratchet(['--cwd', dir, ...args], { env: sandbox, timeout: 60_000 });
      expect(r.status, `${args.join(' ')}\n${r.stderr}`).toBe(2);
      expect(r.stderr).toContain("read-only inside the agent's sandbox");
      expect(r.stderr).toContain(`\`${tool}\``);
    }
    expect(readFileSync(join(dir, '.ratchet/session.json'), 'utf8')).toBe(session);
    expect(existsSync(join(dir, '.ratchet/campaign.json'))).toBe(false);
    // Looking is fine.
    for (const args of [['run', 'status'], ['run', 'next'], ['lessons', 'list'], ['plan', 'lint', 'plans/p.txt'], ['doctor'], ['fsm', 'check', 'protocols/fdc.fsm.json']]) {
      const r = ratchet(['--cwd', dir, ...args], { env: sandbox, timeout: 60_000 });
      expect([0, 1], `${args.join(' ')}\n${r.stderr}`).toContain(r.status);
      expect(r.stderr).not.toContain('sandbox');
    }
  });

  test("a person's commands are refused for the agent on every channel (sandbox, RATCHET_ACTOR=agent, the MCP channel), and `--as user` with them", { timeout: 180_000 }, () => {
    const dir = project();
    run(dir, ['actions', 'add', 'user_review', 'Approve the release', '--owner', 'user']);
    for (const env of [sandbox, { RATCHET_ACTOR: 'agent' }, { RATCHET_VIA: 'mcp' }, { SANDBOX_RUNTIME: '1', RATCHET_ACTOR: 'user' }]) {
      for (const args of [
        ['actions', 'complete', 'a1', '--as', 'user'],
        ['doctor', '--accept', '.ratchet/goals.json'],
        ['doctor', '--restore', '.ratchet/goals.json'],
        ['lessons', 'resolve', 'l1'],
        ['flow', 'resume', '--session', 's1'],
        ['proposals', 'merge', 'p1'],
        ['proposals', 'review', 'p1', 'approve'],
        ['store', 'import', 'x.jsonl'],
        ['init', '--claude'],
      ]) {
        const r = ratchet(['--cwd', dir, ...args], { env, timeout: 60_000 });
        expect(r.status, `${JSON.stringify(env)} ${args.join(' ')}\n${r.stderr}`).toBe(2);
        expect(r.stderr).toMatch(/is for a person, from their own terminal; refused because/);
      }
    }
    // The action is still open, and the audit trail says nobody completed it.
    expect(run(dir, ['actions', 'list', '--json'])).not.toContain('"completed"');
    // The person, from their own terminal, can.
    expect(ratchet(['--cwd', dir, 'actions', 'complete', 'a1', '--as', 'user'], { timeout: 60_000 }).status).toBe(0);
  });

  test('a real read-only mount (bubblewrap) is recognised as the sandbox without SANDBOX_RUNTIME', { timeout: 120_000 }, () => {
    const bwrap = spawnSync('bwrap', ['--version'], { encoding: 'utf8' });
    if (bwrap.status !== 0) {
      if (process.env.RATCHET_REQUIRE_SANDBOX === '1') throw new Error('bubblewrap is required (RATCHET_REQUIRE_SANDBOX=1) but `bwrap --version` failed');
      console.warn('SKIPPED: bubblewrap is not installed; the read-only mount test did not run');
      return;
    }
    const dir = project();
    run(dir, ['task', 'start', '--task-id', 't1', '--no-network']);
    const before = readFileSync(join(dir, '.ratchet/session.json'), 'utf8');
    const env: NodeJS.ProcessEnv = { ...process.env, NO_COLOR: '1' };
    delete env.SANDBOX_RUNTIME;
    const inBox = (...args: string[]) =>
      spawnSync('bwrap', ['--bind', '/', '/', '--ro-bind', join(dir, '.ratchet'), join(dir, '.ratchet'), '--dev', '/dev', '--proc', '/proc', process.execPath, bin, '--cwd', dir, ...args], { encoding: 'utf8', env, timeout: 60_000 });
    const start = inBox('task', 'close', '--task-id', 't1', '--abandon', '--reason', 'walk away');
    expect(start.status, start.stderr).toBe(2);
    expect(start.stderr).toContain('`task_close`');
    const shell = spawnSync('bwrap', ['--bind', '/', '/', '--ro-bind', join(dir, '.ratchet'), join(dir, '.ratchet'), '--dev', '/dev', 'sh', '-c', `rm -f ${join(dir, '.ratchet/session.json')}`], { encoding: 'utf8' });
    expect(shell.stderr).toContain('Read-only file system');
    expect(inBox('run', 'status').status).toBe(0);
    expect(readFileSync(join(dir, '.ratchet/session.json'), 'utf8')).toBe(before);
  });
});

describe('no task, no writes', () => {
  test('with nothing started only plans and notes are written; a task, a claim or a flow opens the gate; requireTask:false turns it off', { timeout: 180_000 }, () => {
    const dir = project();
    const refused = denied(hook(dir, 'pre-tool-use', write(join(dir, 'src/app.ts'))));
    expect(refused).toContain('no task is active');
    expect(refused).toContain('ratchet task start --task-id <id>');
    expect(refused).toContain('task_start');
    expect(denied(hook(dir, 'pre-tool-use', bash('echo x > src/app.ts')))).toContain('no task is active');
    expect(denied(hook(dir, 'pre-tool-use', bash('python3 gen.py')))).toContain('it may write files');
    expect(denied(hook(dir, 'pre-tool-use', write(join(dir, 'plans/p.txt'))))).toBeUndefined();
    expect(denied(hook(dir, 'pre-tool-use', write(join(dir, 'notes/n.md'))))).toBeUndefined();
    expect(denied(hook(dir, 'pre-tool-use', bash('ls -la && ratchet run status')))).toBeUndefined();

    // A campaign claim made from the agent's shell opens it (and only for this session).
    run(dir, ['campaign', 'create', 'Objective']);
    writeFileSync(join(dir, 'plan.json'), campaignPlan);
    run(dir, ['campaign', 'add-tasks', 'plan.json']);
    run(dir, ['campaign', 'ready', '--claim', 'builder-1'], { CLAUDECODE: '1' });
    hook(dir, 'post-tool-use', { hook_event_name: 'PostToolUse', tool_name: 'Bash', tool_input: { command: 'ratchet campaign ready --claim "$RUNNER"' }, tool_response: { stdout: '' } });
    expect(denied(hook(dir, 'pre-tool-use', write(join(dir, 'src/app.ts'))))).toBeUndefined();
    expect(denied(hook(dir, 'pre-tool-use', write(join(dir, 'src/app.ts')), {}))).toBeUndefined();
    const other = denied(hook(dir, 'pre-tool-use', { ...write(join(dir, 'src/app.ts')), session_id: 'another-session' }));
    expect(other).toContain('no task is active');

    const off = project();
    writeFileSync(join(off, 'ratchet.config.json'), JSON.stringify({ hooks: { requireTask: false } }));
    expect(denied(hook(off, 'pre-tool-use', write(join(off, 'src/app.ts'))))).toBeUndefined();
  });
});

describe('obligations opened through any channel hold the Stop', () => {
  test('a claim through the MCP channel, a claim under "$VAR", a JIXO lock --runner R, and a flow: each one blocks the Stop until it is done', { timeout: 240_000 }, () => {
    const dir = project();
    run(dir, ['campaign', 'create', 'Objective']);
    writeFileSync(join(dir, 'plan.json'), campaignPlan);
    run(dir, ['campaign', 'add-tasks', 'plan.json']);

    // The MCP channel: the server marks its calls with RATCHET_VIA=mcp and the tool-use id.
    run(dir, ['campaign', 'ready', '--claim', 'mcp-builder'], { RATCHET_VIA: 'mcp', RATCHET_ACTOR: 'agent', RATCHET_TOOL_USE_ID: 'toolu_0001' });
    // Before PostToolUse runs, the claim is everyone's: the Stop is held.
    expect(blocked(hook(dir, 'stop', { hook_event_name: 'Stop' }))).toContain('claimed by mcp-builder');
    hook(dir, 'post-tool-use', { hook_event_name: 'PostToolUse', tool_name: 'mcp__ratchet__campaign_ready', tool_use_id: 'toolu_0001', tool_input: { claim: 'mcp-builder' }, tool_response: [] });
    expect(blocked(hook(dir, 'stop', { hook_event_name: 'Stop' }))).toContain('claimed by mcp-builder');
    // Another session is not held by this one's attributed claim.
    expect(blocked(hook(dir, 'stop', { hook_event_name: 'Stop', session_id: 'someone-else' }))).toBeUndefined();
    run(dir, ['campaign', 'update-task', '1', 'complete', '--runner', 'mcp-builder']);
    expect(blocked(hook(dir, 'stop', { hook_event_name: 'Stop' }))).toBeUndefined();

    // A claim whose runner the command line hides in a variable.
    execFileSync('bash', ['-c', `R=hidden-builder; node ${JSON.stringify(bin)} --cwd ${JSON.stringify(dir)} campaign ready --claim "$R"`], { env: { ...process.env, CLAUDECODE: '1' }, encoding: 'utf8' });
    hook(dir, 'post-tool-use', { hook_event_name: 'PostToolUse', tool_name: 'Bash', tool_input: { command: 'R=hidden-builder; ratchet campaign ready --claim "$R"' }, tool_response: { stdout: '' } });
    expect(blocked(hook(dir, 'stop', { hook_event_name: 'Stop' }))).toContain('claimed by hidden-builder');
    run(dir, ['campaign', 'update-task', '2', 'complete', '--runner', 'hidden-builder']);

    // A JIXO log lock taken with --runner before the log path.
    mkdirSync(join(dir, '.jixo'));
    writeFileSync(join(dir, '.jixo/job.log.md'), '---\ntitle: "job"\nprogress: "0%"\n---\n\n## Roadmap\n\n- [ ] 1. Write it\n  - status: Pending\n\n## Work Log\n');
    run(dir, ['jixo', 'lock', '--runner', 'r7', '.jixo/job.log.md'], { CLAUDECODE: '1' });
    hook(dir, 'post-tool-use', { hook_event_name: 'PostToolUse', tool_name: 'Bash', tool_input: { command: 'ratchet jixo lock --runner r7 .jixo/job.log.md' }, tool_response: { stdout: '' } });
    expect(blocked(hook(dir, 'stop', { hook_event_name: 'Stop' }))).toContain('r7 holds the JIXO log lock');
    run(dir, ['jixo', 'unlock', '.jixo/job.log.md', '--runner', 'r7']);
    expect(blocked(hook(dir, 'stop', { hook_event_name: 'Stop' }))).toBeUndefined();

  });

  test('Stops replayed by hand never spend the Stop budget; real Stops do', { timeout: 180_000 }, () => {
    const dir = project();
    writeFileSync(join(dir, 'ratchet.config.json'), JSON.stringify({ hooks: { maxStopBlocks: 2 } }));
    run(dir, ['task', 'start', '--task-id', 't1', '--no-network']);
    // From the agent's shell (CLAUDECODE=1): answered, not counted.
    for (let i = 0; i < 8; i++) expect(blocked(hook(dir, 'stop', { hook_event_name: 'Stop' }, { CLAUDECODE: '1' }))).toContain('task t1 is PLANNING');
    // With a transcript whose last turn calls a tool (the replay runs inside that tool call): not counted.
    const transcript = join(dir, 'transcript.jsonl');
    writeFileSync(transcript, `${JSON.stringify({ type: 'user', message: { content: 'go' } })}\n${JSON.stringify({ type: 'assistant', message: { content: [{ type: 'tool_use', id: 't', name: 'Bash', input: {} }] } })}\n`);
    for (let i = 0; i < 8; i++) expect(blocked(hook(dir, 'stop', { hook_event_name: 'Stop', transcript_path: transcript }))).toContain('task t1 is PLANNING');
    const memoryFile = join(dir, `.ratchet/hooks/${SID}.json`);
    expect(existsSync(memoryFile) ? (JSON.parse(readFileSync(memoryFile, 'utf8')) as { stopBlocks: number }).stopBlocks : 0).toBe(0);
    // Real Stops (the last turn answered without a tool) are counted, up to maxStopBlocks.
    writeFileSync(transcript, `${JSON.stringify({ type: 'assistant', message: { content: [{ type: 'text', text: 'done' }] } })}\n`);
    expect(blocked(hook(dir, 'stop', { hook_event_name: 'Stop', transcript_path: transcript }))).toContain('task t1');
    expect(blocked(hook(dir, 'stop', { hook_event_name: 'Stop', transcript_path: transcript, stop_hook_active: false }))).toContain('task t1');
    expect(blocked(hook(dir, 'stop', { hook_event_name: 'Stop', transcript_path: transcript }))).toBeUndefined();
    // And the hook itself is not the agent's to call.
    expect(denied(hook(dir, 'pre-tool-use', bash(`echo '{"hook_event_name":"Stop"}' | ratchet hook stop`)))).toContain('`ratchet hook` answers the harness');
    expect(denied(hook(dir, 'pre-tool-use', bash('RATCHET_ACTOR=user ratchet actions complete a2 --as user')))).toContain('who is acting is set by the harness');
    expect(denied(hook(dir, 'pre-tool-use', bash('env -u RATCHET_ACTOR ratchet lessons resolve l1')))).toContain('who is acting');
    expect(denied(hook(dir, 'pre-tool-use', bash('ratchet doctor --accept .ratchet/session.json')))).toContain("is a person's decision");
    expect(denied(hook(dir, 'pre-tool-use', bash('npx ratchet proposals merge p1')))).toContain("is a person's decision");
  });
});

describe('a real Stop read as a replay (its transcript not flushed yet)', () => {
  test('is blocked once, and the harness retry (stop_hook_active) is let go, as for any block', { timeout: 120_000 }, () => {
    const dir = project();
    run(dir, ['task', 'start', '--task-id', 't1', '--no-network']);
    const transcript = join(dir, 'transcript.jsonl');
    // Claude Code has not yet written the turn's final answer: the last entry is still the tool call.
    writeFileSync(transcript, `${JSON.stringify({ type: 'assistant', message: { content: [{ type: 'tool_use', id: 't', name: 'Write', input: {} }] } })}\n`);
    expect(blocked(hook(dir, 'stop', { hook_event_name: 'Stop', transcript_path: transcript }))).toContain('task t1 is PLANNING');
    // The retry Claude Code makes after a block: nothing moved, so it is let go instead of looping.
    expect(blocked(hook(dir, 'stop', { hook_event_name: 'Stop', transcript_path: transcript, stop_hook_active: true }))).toBeUndefined();
  });
});

describe('a real Stop whose answer Claude Code writes late', () => {
  test('is counted: the transcript sign of a replay must hold through the settle wait', { timeout: 120_000 }, async () => {
    const dir = project();
    run(dir, ['task', 'start', '--task-id', 't1', '--no-network']);
    const transcript = join(dir, 'transcript.jsonl');
    // As Claude Code has it when the Stop hook starts: its timer has not yet written the tool result
    // and the answer that came after the tool call.
    writeFileSync(transcript, `${JSON.stringify({ type: 'assistant', message: { content: [{ type: 'tool_use', id: 't', name: 'Bash', input: {} }] } })}\n`);
    const child = spawn(process.execPath, [bin, 'hook', 'stop'], { cwd: dir, env: { ...process.env, NO_COLOR: '1', CLAUDE_PROJECT_DIR: dir, RATCHET_RUNNER: '', CLAUDECODE: '' } });
    let stdout = '';
    child.stdout.on('data', (b: Buffer) => (stdout += b.toString()));
    const exited = new Promise<number | null>((resolve) => child.on('close', resolve));
    child.stdin.end(JSON.stringify({ session_id: SID, cwd: dir, hook_event_name: 'Stop', transcript_path: transcript }));
    // The harness's next flush, while the hook runs (it starts in well under this on a quiet machine).
    await new Promise((resolve) => setTimeout(resolve, 300));
    appendFileSync(transcript, `${JSON.stringify({ type: 'user', message: { content: [{ type: 'tool_result', tool_use_id: 't', content: 'ok' }] } })}\n${JSON.stringify({ type: 'assistant', message: { content: [{ type: 'text', text: 'Done.' }] } })}\n`);
    expect(await exited).toBe(0);
    expect(blocked(JSON.parse(stdout) as HookJson)).toContain('task t1 is PLANNING');
    expect((JSON.parse(readFileSync(join(dir, `.ratchet/hooks/${SID}.json`), 'utf8')) as { stopBlocks: number }).stopBlocks).toBe(1);
  });
});

describe('commands write only what they own', () => {
  test('store import refuses keys that are not state (config, hook settings, sources); --out refuses protected, foreign and wrong-kind files', { timeout: 180_000 }, () => {
    const dir = project();
    writeFileSync(join(dir, 'ratchet.config.json'), '{}\n');
    const header = JSON.stringify({ type: 'header', format: 'ratchet-store-export', version: 1, from: { kind: 'file', location: dir }, exportedAt: '2026-01-01T00:00:00.000Z' });
    for (const key of ['ratchet.config.json', '.claude/settings.local.json', 'protocols/fdc.dialect.json', 'src/app.json']) {
      const file = join(dir, 'plans/x.jsonl');
      writeFileSync(file, `${header}\n${JSON.stringify({ type: 'document', key, revision: 1, value: { hooks: { maxStopBlocks: 0 }, disableAllHooks: true } })}\n${JSON.stringify({ type: 'end', documents: 1, logEntries: 0, queueItems: 0 })}\n`);
      const r = ratchet(['--cwd', dir, 'store', 'import', 'plans/x.jsonl'], { timeout: 60_000 });
      expect(r.status, `${key}: ${r.stderr}`).toBe(2);
      expect(r.stderr).toContain(`plans/x.jsonl:2: key ${JSON.stringify(key)}`);
      expect(r.stderr).toContain('nothing was imported');
    }
    expect(readFileSync(join(dir, 'ratchet.config.json'), 'utf8')).toBe('{}\n');
    expect(existsSync(join(dir, '.claude/settings.local.json'))).toBe(false);

    mkdirSync(join(dir, '.claude'), { recursive: true });
    writeFileSync(join(dir, '.claude/settings.json'), '{"hooks":{}}\n');
    writeFileSync(join(dir, 'src/app.ts'), 'export {};\n');
    writeFileSync(join(dir, 'notes.jsonl'), '{"mine":true}\n');
    for (const [args, why] of [
      [['store', 'export', '--out', '.claude/settings.json'], 'configuration files'],
      [['store', 'export', '--out', 'ratchet.config.json'], 'configuration files'],
      [['store', 'export', '--out', 'src/app.ts'], 'not a .ts file'],
      [['store', 'export', '--out', 'notes.jsonl'], 'not a store export (JSON Lines) this command wrote'],
      [['protocol', 'compile', '--out', '.claude/settings.json'], 'configuration files'],
      [['protocol', 'compile', '--out', 'src/app.ts'], 'not a .ts file'],
      [['protocol', 'compile', '--out', '.ratchet/session.json'], 'state files'],
    ] as const) {
      const r = ratchet(['--cwd', dir, ...args], { timeout: 60_000 });
      expect(r.status, `${args.join(' ')}: ${r.stderr}`).toBe(2);
      expect(r.stderr).toContain(why);
    }
    expect(readFileSync(join(dir, '.claude/settings.json'), 'utf8')).toBe('{"hooks":{}}\n');
    expect(readFileSync(join(dir, 'src/app.ts'), 'utf8')).toBe('export {};\n');
    expect(readFileSync(join(dir, 'notes.jsonl'), 'utf8')).toBe('{"mine":true}\n');
    // What they own they write: a new export, then that export again; a Markdown target.
    run(dir, ['store', 'export', '--out', 'state.jsonl']);
    run(dir, ['store', 'export', '--out', 'state.jsonl']);
    run(dir, ['protocol', 'compile', '--out', 'CLAUDE.md']);
    expect(readFileSync(join(dir, 'CLAUDE.md'), 'utf8')).toContain('ratchet');
  });
});

describe('rule files are pinned when a task starts', () => {
  test('editing the dialect mid-task changes nothing for the running task; doctor names the change; a tampered pinned copy is refused', { timeout: 240_000 }, () => {
    const dir = project();
    run(dir, ['task', 'start', '--task-id', 't1', '--no-network']);
    const dialectPath = join(dir, 'protocols/fdc.dialect.json');
    const dialect = JSON.parse(readFileSync(dialectPath, 'utf8')) as { commands: Record<string, { symbol: string }> };
    // The walk-around: map read_file to close_op, so a plan with no close would pass.
    dialect.commands.read_file = { ...dialect.commands.read_file!, symbol: 'close_op' };
    writeFileSync(dialectPath, `${JSON.stringify(dialect, null, 2)}\n`);
    writeFileSync(join(dir, 'plans/no-close.txt'), 'set_plan read the readme\nread_file README.md\n');
    writeFileSync(join(dir, 'README.md'), '# x\n');
    const r = ratchet(['--cwd', dir, 'run', 'plan', 'plans/no-close.txt'], { timeout: 60_000 });
    expect(r.status, r.stdout + r.stderr).toBe(1);
    expect((JSON.parse(readFileSync(join(dir, '.ratchet/session.json'), 'utf8')) as { state: string }).state).toBe('PLANNING');
    const doctor = ratchet(['--cwd', dir, 'doctor'], { timeout: 60_000 });
    expect(doctor.status).toBe(1);
    expect(doctor.stdout).toContain('protocols/fdc.dialect.json: rule-changed: changed since task session');
    // A pinned copy edited by hand is refused.
    const pins = JSON.parse(readFileSync(join(dir, '.ratchet/pins.json'), 'utf8')) as { task: { sessionId: string } };
    const copy = join(dir, '.ratchet/pins', `task-${pins.task.sessionId}`, 'protocols/fdc.dialect.json');
    writeFileSync(copy, readFileSync(dialectPath, 'utf8'));
    const tampered = ratchet(['--cwd', dir, 'run', 'plan', 'plans/no-close.txt'], { timeout: 60_000 });
    expect(tampered.status).toBe(2);
    expect(tampered.stderr).toContain('pinned copy was changed outside Ratchet');

  });

  test('the config a task starts with is the one its hooks use: strictness enforce set before the start denies off-step writes', { timeout: 120_000 }, () => {
    const dir = project();
    writeFileSync(join(dir, 'ratchet.config.json'), JSON.stringify({ hooks: { strictness: 'enforce' } }));
    run(dir, ['task', 'start', '--task-id', 't2', '--no-network']);
    writeFileSync(join(dir, 'plans/p.txt'), 'set_plan write a file\nplan_step_complete\ncreate_file_with_block src/a.ts\nrun_in_bash_session close\n');
    run(dir, ['run', 'plan', 'plans/p.txt']);
    run(dir, ['run', 'done']);
    run(dir, ['run', 'done']);
    expect(denied(hook(dir, 'pre-tool-use', write(join(dir, 'src/elsewhere.ts'))))).toContain('does not belong to it');
    expect(denied(hook(dir, 'pre-tool-use', write(join(dir, 'src/a.ts'))))).toBeUndefined();
    // Loosening it mid-task changes nothing for this task.
    writeFileSync(join(dir, 'ratchet.config.json'), JSON.stringify({ hooks: { strictness: 'off', requireTask: false } }));
    expect(denied(hook(dir, 'pre-tool-use', write(join(dir, 'src/elsewhere.ts'))))).toContain('does not belong to it');
  });
});
