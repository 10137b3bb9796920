/**
 * `ratchet hook` against inputs built to break it: a payload over the 1 MiB limit, and Bash commands
 * of hundreds of KB shaped to hit the analyser's worst cases. Each runs the built binary as Claude
 * Code does, within Claude Code's hook timeout (the plugin's hooks.json gives 30 s): a hook killed
 * at its timeout, or one that throws, lets the tool call through, so both must be answered in time
 * and refused when they write Ratchet state.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, test } from 'vitest';
import { ratchet, tempDir } from '../helpers.js';

/** The `timeout` of every hook in apps/claude-plugin/hooks/hooks.json, in ms. */
const HOOK_TIMEOUT_MS = 30_000;
const MIB = 1024 * 1024;

interface Answer {
  status: number | null;
  signal: string | null;
  stdout: string;
  stderr: string;
}

function hook(dir: string, event: string, input: string): Answer {
  const r = ratchet(['hook', event], { cwd: dir, input, env: { CLAUDE_PROJECT_DIR: dir }, timeout: HOOK_TIMEOUT_MS, maxBuffer: 64 * MIB });
  return { ...r, signal: (r as { signal?: string | null }).signal ?? null };
}

const payload = (dir: string, fields: Record<string, unknown>): string => JSON.stringify({ session_id: 'sess-limits-0001', transcript_path: join(dir, 't.jsonl'), cwd: dir, ...fields });
const bash = (dir: string, command: string): string => payload(dir, { hook_event_name: 'PreToolUse', tool_name: 'Bash', tool_input: { command } });
const denial = (a: Answer): string | undefined => {
  if (a.stdout.trim() === '') return undefined;
  const out = JSON.parse(a.stdout) as { hookSpecificOutput?: { permissionDecision?: string; permissionDecisionReason?: string } };
  return out.hookSpecificOutput?.permissionDecision === 'deny' ? out.hookSpecificOutput.permissionDecisionReason : undefined;
};

describe('ratchet hook: a payload over the 1 MiB limit is refused, not let through', () => {
  let dir: string;
  beforeAll(() => {
    dir = tempDir('ratchet-hook-limits-');
    expect(ratchet(['--cwd', dir, 'init', '--quiet']).status).toBe(0);
  });

  test('pre-tool-use: a deny naming the limit and what to do', () => {
    const a = hook(dir, 'pre-tool-use', bash(dir, `echo ${'a'.repeat(MIB + 10)}`));
    expect(a.status, a.stderr).toBe(0);
    const reason = denial(a);
    expect(reason).toContain('1 MiB');
    expect(reason).toMatch(/cannot be checked/);
  });

  test('stop and subagent-stop: a block naming the limit', () => {
    for (const event of ['stop', 'subagent-stop']) {
      const a = hook(dir, event, payload(dir, { hook_event_name: event === 'stop' ? 'Stop' : 'SubagentStop', stop_hook_active: false, padding: 'x'.repeat(MIB + 10) }));
      expect(a.status, a.stderr).toBe(0);
      const out = JSON.parse(a.stdout) as { decision?: string; reason?: string };
      expect(out.decision, event).toBe('block');
      expect(out.reason).toContain('1 MiB');
    }
  });

  test('just under the limit is read and answered as usual', () => {
    const a = hook(dir, 'pre-tool-use', bash(dir, `echo ${'a'.repeat(MIB - 4096)}`));
    expect(a.status, a.stderr).toBe(0);
    expect(a.stdout).toBe('');
  });

  test('a project that does not use Ratchet gets no answer, even to a huge payload', () => {
    const other = tempDir('ratchet-hook-limits-none-');
    const a = hook(other, 'pre-tool-use', bash(other, `echo ${'a'.repeat(MIB + 10)}`));
    expect(a.status).toBe(0);
    expect(a.stdout).toBe('');
  });
});

describe('ratchet hook pre-tool-use: 300 KB commands are answered in time, state writes refused', () => {
  let dir: string;
  beforeAll(() => {
    dir = tempDir('ratchet-hook-long-');
    expect(ratchet(['--cwd', dir, 'init', '--quiet']).status).toBe(0);
    mkdirSync(join(dir, 'src'));
    // The analyser's answer alone: code outside a task is not what these commands test (requireTask).
    writeFileSync(join(dir, 'ratchet.config.json'), JSON.stringify({ hooks: { requireTask: false } }));
  });

  const KB300 = 300 * 1024;
  const fill = (unit: string): string => unit.repeat(Math.ceil(KB300 / unit.length));
  const shapes: [string, string][] = [
    // Wrapper options were dropped one `slice(1)` at a time: quadratic (160 KB took 20 s).
    ['a wrapper with 100k options', `sudo ${fill('-a ')} rm .ratchet/session.json`],
    ['100k assignments', `${fill('A=1 ')} rm .ratchet/session.json`],
    ['100k wrappers', `${fill('env ')} rm .ratchet/session.json`],
    // `push(...operands)` of 100k+ words overflowed the stack: the hook threw and let it through.
    ['rm of 100k files', `rm ${fill('f ')} .ratchet/session.json`],
    ['rm of 50k distinct files', `rm ${Array.from({ length: 50_000 }, (_, i) => `src/f${i}`).join(' ')} .ratchet/session.json`],
    // A run of `~` in inline code backtracked at every start (quadratic); a word over PATH_MAX made the path check throw.
    ['inline code with a long run of ~', `python3 -c "open('.ratchet/session.json','w') #${fill('~')}"`],
    ['inline code with one long word', `python3 -c "open('.ratchet/session.json','w') #${fill('a')}"`],
    ['a redirect after a long word', `echo ${fill('a')} > .ratchet/session.json`],
    ['a redirect to a 300 KB path', `echo x > ${fill('a/')}../.ratchet/session.json; echo x > .ratchet/session.json`],
  ];

  test.each(shapes)('%s: denied', (_name, command) => {
    const a = hook(dir, 'pre-tool-use', bash(dir, command));
    expect(a.signal, 'killed at the hook timeout').toBeNull();
    expect(a.status, a.stderr).toBe(0);
    expect(denial(a), a.stderr).toContain('.ratchet/session.json');
  });

  test('a 300 KB command that writes no state is let through', () => {
    const a = hook(dir, 'pre-tool-use', bash(dir, `sudo ${fill('-a ')} echo ${fill('~')} > src/out.txt`));
    expect(a.signal).toBeNull();
    expect(a.status, a.stderr).toBe(0);
    expect(a.stdout).toBe('');
    expect(a.stderr).toBe('');
  });
});
