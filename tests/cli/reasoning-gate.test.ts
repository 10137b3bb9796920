/**
 * The reasoning gate through `ratchet hook` as Claude Code runs it (the built binary, one process per
 * event): while this session's reasoning flow is open, writes wait for it as they wait for PLANNING;
 * once it completed, writes and the stop wait until the flow it routed to is started or the user
 * declines it. Each shortcut an agent would take is performed and shown refused: code written at
 * step 0, a halt to get out of the reasoning, stopping after it without starting the route, the
 * agent declining the route itself, a session file edited by hand.
 */
import { readFileSync, writeFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { protocols, ratchet, tempDir } from '../helpers.js';

const SID = 'gate0001-4b1c-9f2e-aaaa-000000000001';

interface HookJson {
  hookSpecificOutput?: { permissionDecision?: string; permissionDecisionReason?: string };
  decision?: string;
  reason?: string;
}

function hook(dir: string, event: string, payload: Record<string, unknown>): HookJson | undefined {
  const input = JSON.stringify({ session_id: SID, transcript_path: join(dir, 't.jsonl'), cwd: dir, ...payload });
  const r = ratchet(['hook', event], { cwd: dir, input, env: { CLAUDE_PROJECT_DIR: dir, RATCHET_RUNNER: '' }, timeout: 60_000 });
  expect(r.status, r.stderr).toBe(0);
  return r.stdout.trim() === '' ? undefined : (JSON.parse(r.stdout) as HookJson);
}

const write = (dir: string, file: string): HookJson | undefined => hook(dir, 'pre-tool-use', { hook_event_name: 'PreToolUse', tool_name: 'Write', tool_input: { file_path: join(dir, file), content: 'x' } });
const bash = (dir: string, command: string): HookJson | undefined => hook(dir, 'pre-tool-use', { hook_event_name: 'PreToolUse', tool_name: 'Bash', tool_input: { command } });
const stop = (dir: string): HookJson | undefined => hook(dir, 'stop', { hook_event_name: 'Stop', stop_hook_active: false });
const denied = (a: HookJson | undefined): string | undefined => (a?.hookSpecificOutput?.permissionDecision === 'deny' ? a.hookSpecificOutput.permissionDecisionReason : undefined);
const blocked = (a: HookJson | undefined): string | undefined => (a?.decision === 'block' ? a.reason : undefined);

function run(dir: string, args: string[], env: Record<string, string> = {}): { status: number | null; stdout: string; stderr: string } {
  return ratchet(['--cwd', dir, ...args], { timeout: 60_000, env });
}

function ok(dir: string, args: string[]): string {
  const r = run(dir, args);
  if (r.status !== 0) throw new Error(`ratchet ${args.join(' ')} exited ${r.status}: ${r.stderr}${r.stdout}`);
  return r.stdout;
}

/** `ratchet flow start ...` run through Bash: post-tool-use remembers the session for this Claude Code session. */
function startByHand(dir: string, args: string[]): void {
  ok(dir, ['flow', 'start', ...args]);
  hook(dir, 'post-tool-use', { hook_event_name: 'PostToolUse', tool_name: 'Bash', tool_input: { command: `ratchet flow start ${args.join(' ')}` }, tool_response: { stdout: '', exitCode: 0 } });
}

const STEPS = (JSON.parse(readFileSync(join(protocols, 'flows/reasoning.flow.json'), 'utf8')) as { steps: { id: string; output: { headings: string[] } }[] }).steps;
let handedIn = 0;

/** Hand in every reasoning step's output (under notes/, which the gate lets through) until the session completes, routing to develop-feature. */
function reason(dir: string, session: string): void {
  for (let i = 0; i < 20; i++) {
    const state = JSON.parse(readFileSync(join(dir, '.ratchet/flows', `${session}.json`), 'utf8')) as { status: string; current: string | null };
    if (state.status === 'COMPLETED') return;
    const step = STEPS.find((s) => s.id === state.current)!;
    const rel = `notes/${session}-step-${step.id}-${++handedIn}.md`;
    writeFileSync(join(dir, rel), step.output.headings.map((h) => `${h}\n\n${'What this step worked out about the login page request. '.repeat(3)}(${handedIn})\n`).join('\n'));
    ok(dir, ['flow', 'advance', '--session', session, '--output', rel, ...(step.id === '4' ? ['--set', 'route=develop-feature', '--set', 'confidence=HIGH'] : [])]);
  }
  throw new Error('the reasoning flow did not complete');
}

function project(): string {
  const dir = tempDir('ratchet-reasoning-gate-');
  ok(dir, ['init', '--quiet']);
  mkdirSync(join(dir, 'src'));
  mkdirSync(join(dir, 'notes'));
  return dir;
}

describe('the reasoning gate', () => {
  test('writes wait for the reasoning flow: code at step 0 and a halt to get out are refused; notes and plain commands go through', { timeout: 300_000 }, () => {
    const dir = project();
    startByHand(dir, ['reasoning', '--session', 'r1', '--input', 'query=add a login page']);
    const early = denied(write(dir, 'src/app.ts'));
    expect(early).toContain('Write of src/app.ts refused: reasoning flow session r1 is EXECUTING at step 0');
    expect(early).toContain('`ratchet flow status --session r1`');
    expect(denied(bash(dir, 'echo "export {}" > src/app.ts'))).toContain('reasoning flow session r1');
    // Step outputs and notes, reading, and commands that write no file are fine.
    expect(write(dir, 'notes/step-0.md')).toBeUndefined();
    expect(bash(dir, 'ls src && ratchet flow status --session r1')).toBeUndefined();
    expect(hook(dir, 'pre-tool-use', { hook_event_name: 'PreToolUse', tool_name: 'Read', tool_input: { file_path: join(dir, 'src') } })).toBeUndefined();
    // The shortcut: halt the reasoning to get out of it. The user's turn; writes still wait.
    ok(dir, ['flow', 'halt', '--session', 'r1', '--reason', 'I would rather just code']);
    expect(denied(write(dir, 'src/app.ts'))).toContain('reasoning flow session r1 is HALTED at step 0');
    ok(dir, ['flow', 'resume', '--session', 'r1']);
    // Another Claude Code session's reasoning does not hold this one.
    const other = denied(hook(dir, 'pre-tool-use', { session_id: 'someone-else', hook_event_name: 'PreToolUse', tool_name: 'Write', tool_input: { file_path: join(dir, 'src/app.ts'), content: 'x' } }));
    expect(other).not.toContain('reasoning flow session r1');
    expect(other).toContain('no task is active'); // what holds it is the rule that code waits for a task
  });

  test('after the reasoning completes, writes and the stop wait for the routed flow; the agent cannot decline it; starting it releases them', { timeout: 300_000 }, () => {
    const dir = project();
    startByHand(dir, ['reasoning', '--session', 'r2', '--input', 'query=add a login page']);
    reason(dir, 'r2');
    const write1 = denied(write(dir, 'src/app.ts'));
    expect(write1).toContain('reasoning flow session r2 routed this request to flow develop-feature, which has not been started');
    expect(write1).toContain('ratchet flow decline --session r2');
    const held = blocked(stop(dir));
    expect(held).toContain('flow reasoning session r2 routed this request to flow develop-feature');
    expect(held).toContain('`ratchet flow start develop-feature --session r2-develop-feature --input task=r2`');
    // The shortcut: the agent declines the route itself.
    const self = run(dir, ['flow', 'decline', '--session', 'r2', '--reason', 'not needed'], { RATCHET_ACTOR: 'agent' });
    expect(self.status).toBe(2);
    expect(self.stderr).toContain('ratchet flow decline is for a person, from their own terminal');
    expect(denied(write(dir, 'src/app.ts'))).toContain('develop-feature, which has not been started');
    // Started as the directive says (here not through Bash, so only the handoff leads Stop to it): writes go through, Stop holds the skill.
    ok(dir, ['flow', 'start', 'develop-feature', '--session', 'r2-develop-feature', '--input', 'task=r2']);
    expect(write(dir, 'src/app.ts')).toBeUndefined();
    const skill = blocked(stop(dir));
    expect(skill).toContain('flow develop-feature session r2-develop-feature is EXECUTING at step 0');
    expect(skill).not.toContain('routed this request');
  });

  test('the user declines the route: the reasoning gate lets go and nothing holds the stop (with no task, code still waits for one); --json names its schema', { timeout: 300_000 }, () => {
    const dir = project();
    startByHand(dir, ['reasoning', '--session', 'r3', '--input', 'query=explain the login code']);
    reason(dir, 'r3');
    const declined = JSON.parse(ok(dir, ['--json', 'flow', 'decline', '--session', 'r3', '--reason', 'only wanted an explanation'])) as { $schema: string; outcome: string; session: { state: { handoff: unknown } } };
    expect(declined.$schema).toBe('https://unpkg.com/@ratchet/cli/schemas/output/flow-decline.v1.schema.json');
    expect(declined.session.state.handoff).toMatchObject({ flow: 'develop-feature', declined: { reason: 'only wanted an explanation' } });
    // The reasoning no longer holds writes: what is left is the rule that code waits for a task (requireTask).
    const after = denied(write(dir, 'src/app.ts'));
    expect(after).toContain('no task is active');
    expect(after).not.toContain('reasoning flow');
    expect(write(dir, 'notes/explanation.md')).toBeUndefined();
    expect(stop(dir)).toBeUndefined();
    writeFileSync(join(dir, 'ratchet.config.json'), JSON.stringify({ hooks: { requireTask: false } }));
    expect(write(dir, 'src/app.ts')).toBeUndefined();
  });

  test('a reasoning session edited by hand denies every write, naming the file and ratchet doctor', { timeout: 120_000 }, () => {
    const dir = project();
    startByHand(dir, ['reasoning', '--session', 'r4', '--input', 'query=q']);
    const file = join(dir, '.ratchet/flows/r4.json');
    writeFileSync(file, readFileSync(file, 'utf8').replace('"EXECUTING"', '"HALTED"').replace('"haltReason": null', '"haltReason": "x"'));
    const reason = denied(write(dir, 'src/app.ts'));
    expect(reason).toContain('.ratchet/flows/r4.json');
    expect(reason).toContain('ratchet doctor');
  });
});
