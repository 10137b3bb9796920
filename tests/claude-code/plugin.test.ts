/**
 * The plugin as files: Claude Code's own validator accepts it and the marketplace, and every
 * command hooks.json declares runs (as Claude Code would run it, through a shell with
 * CLAUDE_PLUGIN_ROOT set) and answers a real payload through the real `ratchet hook`.
 */
import { spawnSync } from 'node:child_process';
import { cpSync, mkdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { bin, tempDir } from '../helpers.js';
import { claude, freshHome, pluginDir, repoRoot } from './claude.js';
import { initProject, ratchetOnPath } from './project.js';

interface HooksFile {
  hooks: Record<string, { matcher?: string; hooks: { type: string; command: string; timeout?: number }[] }[]>;
}
const hooksFile = JSON.parse(readFileSync(join(pluginDir, 'hooks/hooks.json'), 'utf8')) as HooksFile;

/** Run one hooks.json command line the way Claude Code does: `sh -c`, payload on stdin. */
function runHookCommand(command: string, payload: unknown, env: Record<string, string>, cwd: string): { status: number | null; stdout: string; stderr: string } {
  const r = spawnSync('/bin/sh', ['-c', command], {
    cwd,
    input: JSON.stringify(payload),
    encoding: 'utf8',
    // A PATH with node but without any `ratchet`, unless the test adds one.
    env: { PATH: `${join(process.execPath, '..')}:/usr/bin:/bin`, CLAUDE_PLUGIN_ROOT: pluginDir, ...env },
    timeout: 30_000,
  });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

const SESSION = '0badc0de-1111-4222-8333-444455556666';

describe('claude plugin validate (the pinned Claude Code)', () => {
  test('accepts apps/claude-plugin and the marketplace at the repository root', { timeout: 120_000 }, async () => {
    const home = freshHome();
    const plugin = await claude(['plugin', 'validate', pluginDir], { cwd: repoRoot, home });
    expect(plugin.stdout + plugin.stderr).toContain('Validation passed');
    expect(plugin.status).toBe(0);
    const marketplace = await claude(['plugin', 'validate', repoRoot], { cwd: repoRoot, home });
    expect(marketplace.stdout).toContain('Validating marketplace manifest');
    expect(marketplace.stdout + marketplace.stderr).toContain('Validation passed');
    expect(marketplace.status).toBe(0);
  });
});

describe('every hooks.json command answers a real payload through ratchet hook', () => {
  const command = (event: string): string => {
    const entries = hooksFile.hooks[event];
    expect(entries, `hooks.json declares ${event}`).toHaveLength(1);
    return entries![0]!.hooks[0]!.command;
  };

  test('the six events are declared, each calling the shim with its ratchet hook event; tool events match every tool', () => {
    expect(Object.keys(hooksFile.hooks).sort()).toEqual(['PostToolUse', 'PreToolUse', 'SessionStart', 'Stop', 'SubagentStop', 'UserPromptSubmit']);
    expect(command('PreToolUse')).toBe('node "${CLAUDE_PLUGIN_ROOT}/scripts/ratchet-hook.mjs" pre-tool-use');
    expect(hooksFile.hooks.PreToolUse![0]!.matcher).toBe('*');
    expect(hooksFile.hooks.PostToolUse![0]!.matcher).toBe('*');
  });

  test('with a task in PLANNING: context at start and on a prompt, a write denied, the call logged, the stop blocked', { timeout: 120_000 }, () => {
    // The per-prompt reasoning flow is the project's choice (`ratchet init --reasoning-flow`).
    const dir = initProject({ task: 't1', config: { reasoningFlow: 'reasoning' } });
    const env = { RATCHET_CLI: bin, CLAUDE_PROJECT_DIR: dir };
    const base = { session_id: SESSION, cwd: dir, transcript_path: join(dir, 'transcript.jsonl') };

    const start = runHookCommand(command('SessionStart'), { ...base, hook_event_name: 'SessionStart', source: 'startup' }, env, dir);
    expect(start.status).toBe(0);
    const startAnswer = JSON.parse(start.stdout) as { hookSpecificOutput: { hookEventName: string; additionalContext: string } };
    expect(startAnswer.hookSpecificOutput.hookEventName).toBe('SessionStart');
    expect(startAnswer.hookSpecificOutput.additionalContext).toContain('task t1 is PLANNING');
    expect(startAnswer.hookSpecificOutput.additionalContext).toContain('claude-0badc0de');

    const prompt = runHookCommand(command('UserPromptSubmit'), { ...base, hook_event_name: 'UserPromptSubmit', prompt: 'add a login page' }, env, dir);
    expect(prompt.status).toBe(0);
    const promptAnswer = JSON.parse(prompt.stdout) as { hookSpecificOutput: { additionalContext: string } };
    expect(promptAnswer.hookSpecificOutput.additionalContext).toContain('ratchet flow advance --session cc-0badc0de-1');

    const write = { ...base, hook_event_name: 'PreToolUse', tool_name: 'Write', tool_input: { file_path: join(dir, 'src/app.ts'), content: 'x' } };
    const pre = runHookCommand(command('PreToolUse'), write, env, dir);
    expect(pre.status).toBe(0);
    expect(JSON.parse(pre.stdout)).toMatchObject({ hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'deny' } });
    expect(pre.stdout).toContain('PLANNING');
    expect(pre.stdout).toContain('ratchet run plan');

    const read = { ...base, hook_event_name: 'PostToolUse', tool_name: 'Read', tool_input: { file_path: join(dir, 'README.md') }, tool_response: { ok: true } };
    const post = runHookCommand(command('PostToolUse'), read, env, dir);
    expect(post.status).toBe(0);
    expect(readFileSync(join(dir, 'logs/activity.log.jsonl'), 'utf8')).toContain('"Read"');

    for (const event of ['Stop', 'SubagentStop']) {
      const stop = runHookCommand(command(event), { ...base, hook_event_name: event, stop_hook_active: false }, env, dir);
      expect(stop.status).toBe(0);
      const answer = JSON.parse(stop.stdout) as { decision: string; reason: string };
      expect(answer.decision).toBe('block');
      expect(answer.reason).toMatch(/^Ratchet/);
      expect(answer.reason).toContain('task t1 is PLANNING');
    }
  });
});

describe('the shim finds ratchet, or fails closed in a Ratchet project', () => {
  const payload = (dir: string): unknown => ({
    session_id: SESSION,
    cwd: dir,
    hook_event_name: 'PreToolUse',
    tool_name: 'Write',
    tool_input: { file_path: join(dir, '.ratchet/session.json'), content: '{}' },
  });
  const deniedStateWrite = (r: { status: number | null; stdout: string }): void => {
    expect(r.status).toBe(0);
    expect(r.stdout).toContain('"permissionDecision":"deny"');
    expect(r.stdout).toContain('.ratchet/session.json');
  };

  test('from ratchet on PATH (an npm -g style symlink), without RATCHET_CLI', { timeout: 60_000 }, () => {
    const dir = initProject();
    deniedStateWrite(runHookCommand(command('PreToolUse'), payload(dir), { CLAUDE_PROJECT_DIR: dir, PATH: `${ratchetOnPath()}:${join(process.execPath, '..')}:/usr/bin:/bin` }, dir));
  });

  test("from the project's node_modules/@ratchet/cli", { timeout: 60_000 }, () => {
    const dir = initProject();
    mkdirSync(join(dir, 'node_modules/@ratchet'), { recursive: true });
    symlinkSync(join(repoRoot, 'apps/cli'), join(dir, 'node_modules/@ratchet/cli'));
    deniedStateWrite(runHookCommand(command('PreToolUse'), payload(dir), { CLAUDE_PROJECT_DIR: dir }, dir));
  });

  test('nowhere, outside a Ratchet project: nothing on stdout, exit 0 (the plugin stays out of the way)', { timeout: 60_000 }, () => {
    const dir = tempDir('ratchet-cc-noratchet-');
    const r = runHookCommand(command('PreToolUse'), payload(dir), { CLAUDE_PROJECT_DIR: dir }, dir);
    expect(r).toMatchObject({ status: 0, stdout: '' });
  });

  test('nowhere, in a Ratchet project: a write is denied and the stop held, naming how to install the CLI; reading goes ahead; cliMissing "allow" lets it through', { timeout: 60_000 }, () => {
    const dir = initProject();
    const write = runHookCommand(command('PreToolUse'), { ...(payload(dir) as object), tool_input: { file_path: join(dir, 'src/app.ts'), content: 'x' } }, { CLAUDE_PROJECT_DIR: dir }, dir);
    expect(write.status).toBe(0);
    const reason = (JSON.parse(write.stdout) as { hookSpecificOutput: { permissionDecision: string; permissionDecisionReason: string } }).hookSpecificOutput;
    expect(reason.permissionDecision).toBe('deny');
    expect(reason.permissionDecisionReason).toContain('@ratchet/cli was not found');
    expect(reason.permissionDecisionReason).toContain('npm install -D @ratchet/cli');
    expect(reason.permissionDecisionReason).toContain('RATCHET_CLI');
    const read = runHookCommand(command('PreToolUse'), { ...(payload(dir) as object), tool_name: 'Read', tool_input: { file_path: join(dir, 'README.md') } }, { CLAUDE_PROJECT_DIR: dir }, dir);
    expect(read).toMatchObject({ status: 0, stdout: '' });
    const stop = runHookCommand(command('Stop'), { session_id: SESSION, cwd: dir, hook_event_name: 'Stop', stop_hook_active: false }, { CLAUDE_PROJECT_DIR: dir }, dir);
    expect(JSON.parse(stop.stdout)).toMatchObject({ decision: 'block' });
    // Once per stop: the continuation's Stop goes through, so a missing CLI never loops.
    const again = runHookCommand(command('Stop'), { session_id: SESSION, cwd: dir, hook_event_name: 'Stop', stop_hook_active: true }, { CLAUDE_PROJECT_DIR: dir }, dir);
    expect(again.stdout).toBe('');
    writeFileSync(join(dir, 'ratchet.config.json'), JSON.stringify({ hooks: { cliMissing: 'allow' } }));
    const allowed = runHookCommand(command('PreToolUse'), payload(dir), { CLAUDE_PROJECT_DIR: dir }, dir);
    expect(allowed).toMatchObject({ status: 0, stdout: '' });
    expect(allowed.stderr).toContain('hooks.cliMissing is "allow"');
  });

  test('behind a wrapper script around a clone (RATCHET_CLI or on PATH), and behind a pnpm shim', { timeout: 60_000 }, () => {
    const dir = initProject();
    const bins = tempDir('ratchet-cc-wrapper-');
    const wrapper = join(bins, 'ratchet');
    writeFileSync(wrapper, `#!/bin/sh\n# my own wrapper\nexec node ${join(repoRoot, 'apps/cli/bin/ratchet.js')} "$@"\n`, { mode: 0o755 });
    const path = `${bins}:${join(process.execPath, '..')}:/usr/bin:/bin`;
    deniedStateWrite(runHookCommand(command('PreToolUse'), payload(dir), { CLAUDE_PROJECT_DIR: dir, PATH: path }, dir));
    deniedStateWrite(runHookCommand(command('PreToolUse'), payload(dir), { CLAUDE_PROJECT_DIR: dir, RATCHET_CLI: wrapper }, dir));
    // pnpm's shim names the bin relative to its own directory through $basedir.
    const shimDir = join(tempDir('ratchet-cc-shim-'), 'node_modules');
    mkdirSync(join(shimDir, '.bin'), { recursive: true });
    mkdirSync(join(shimDir, '@ratchet'), { recursive: true });
    symlinkSync(join(repoRoot, 'apps/cli'), join(shimDir, '@ratchet/cli'));
    writeFileSync(join(shimDir, '.bin/ratchet'), '#!/bin/sh\nbasedir=$(dirname "$(echo "$0" | sed -e \'s,\\\\,/,g\')")\nexec node  "$basedir/../@ratchet/cli/bin/ratchet.js" "$@"\n', { mode: 0o755 });
    deniedStateWrite(runHookCommand(command('PreToolUse'), payload(dir), { CLAUDE_PROJECT_DIR: dir, PATH: `${join(shimDir, '.bin')}:${join(process.execPath, '..')}:/usr/bin:/bin` }, dir));
  });

  test('RATCHET_CLI pointing at something else: said so, then found elsewhere', { timeout: 60_000 }, () => {
    const dir = initProject();
    const r = runHookCommand(command('PreToolUse'), payload(dir), { CLAUDE_PROJECT_DIR: dir, RATCHET_CLI: dir, PATH: `${ratchetOnPath()}:${join(process.execPath, '..')}:/usr/bin:/bin` }, dir);
    deniedStateWrite(r);
    expect(r.stderr).toContain(`RATCHET_CLI=${dir} is not @ratchet/cli`);
  });

  test("takes the bin's per-event start-up file, not the full program (a copy without dist/main.js still answers)", { timeout: 60_000 }, () => {
    const dir = initProject();
    const copy = tempDir('ratchet-cc-fastonly-');
    for (const part of ['package.json', 'bin', 'dist']) cpSync(join(repoRoot, 'apps/cli', part), join(copy, part), { recursive: true });
    rmSync(join(copy, 'dist/main.js'));
    deniedStateWrite(runHookCommand(command('PreToolUse'), payload(dir), { CLAUDE_PROJECT_DIR: dir, RATCHET_CLI: copy }, dir));
    // A hook without a start-up file of its own goes through the full program, which is gone here.
    const r = runHookCommand('node "${CLAUDE_PLUGIN_ROOT}/scripts/ratchet-hook.mjs" no-such-event', payload(dir), { CLAUDE_PROJECT_DIR: dir, RATCHET_CLI: copy }, dir);
    expect(r).toMatchObject({ status: 0, stdout: '' });
    expect(r.stderr).toContain('failed to run');
  });

  function command(event: string): string {
    return hooksFile.hooks[event]![0]!.hooks[0]!.command;
  }
});
