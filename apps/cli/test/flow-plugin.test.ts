/**
 * What the plugin's agents are told to run works where they are told to run it, and one broken
 * session file never hides the others in `flow list` / `flow status`.
 */
import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import type { Io } from '../src/context.js';
import { run } from '../src/main.js';
import { buildProgram } from '../src/program.js';
import { problemOf, ratchetCommands } from './markdown-commands.js';

const PLUGIN = new URL('../../claude-plugin/', import.meta.url);
const SKILL = JSON.parse(readFileSync(new URL('../../../protocols/flows/develop-feature.flow.json', import.meta.url), 'utf8')) as {
  steps: { id: string; type?: string; agent?: string; haltOnQuestions?: boolean; branches?: { id: string; agent?: string }[] }[];
};

function project(): string {
  return mkdtempSync(join(tmpdir(), 'ratchet-flow-plugin-'));
}

async function ratchet(cwd: string, args: string[], env: Record<string, string> = {}): Promise<{ code: number; out: string; err: string }> {
  let out = '';
  let err = '';
  const io: Io = { stdout: (t) => void (out += t), stderr: (t) => void (err += t), isTTY: false, env, cwd, readStdin: () => Promise.resolve('') };
  const code = await run(args, io);
  return { code, out, err };
}

/** Shell words of a command as the agent would type it (quotes removed). */
function words(command: string): string[] {
  return [...command.matchAll(/"([^"]*)"|'([^']*)'|(\S+)/g)].map((m) => m[1] ?? m[2] ?? m[3]!);
}

describe("the plugin's agents", () => {
  const agents = readdirSync(new URL('agents/', PLUGIN)).filter((f) => f.endsWith('.md'));

  test.each(agents)('%s: every flow option it is told to use is one its phase of develop-feature accepts', (file) => {
    const agent = file.replace(/\.md$/, '');
    const text = readFileSync(new URL(`agents/${file}`, PLUGIN), 'utf8');
    const steps = SKILL.steps.filter((s) => s.agent === agent || (s.branches ?? []).some((b) => b.agent === agent));
    for (const command of ratchetCommands(text).filter((c) => c.startsWith('ratchet flow '))) {
      const w = words(command);
      // The memory agent serves every transition; the others their own phases.
      const where = agent === 'memory-agent' ? SKILL.steps : steps;
      if (w.includes('--question')) expect(where.some((s) => s.haltOnQuestions === true), `${agent}: ${command}`).toBe(true);
      if (w.includes('--loop')) expect(where.some((s) => s.type === 'ITERATIVE'), `${agent}: ${command}`).toBe(true);
      if (w[2] === 'complete-branch') expect(where.some((s) => s.type === 'PARALLEL'), `${agent}: ${command}`).toBe(true);
    }
  });

  test('every `ratchet ...` command in the plugin\'s agents and slash commands exists, with options it defines', { timeout: 60_000 }, async () => {
    const program = await buildProgram({ stdout: () => {}, stderr: () => {}, isTTY: false, env: {}, cwd: '/', readStdin: () => Promise.resolve('') }, { exitCode: 0 });
    const files = [...agents.map((f) => `agents/${f}`), ...readdirSync(new URL('commands/', PLUGIN)).filter((f) => f.endsWith('.md')).map((f) => `commands/${f}`)];
    // Prose such as "the exact `ratchet ...` command" names no command.
    const problems = files.flatMap((f) => ratchetCommands(readFileSync(new URL(f, PLUGIN), 'utf8')).filter((c) => c.trim() !== 'ratchet ...').flatMap((c) => {
      const p = problemOf(program, c);
      return p === undefined ? [] : [`${f}: ${c}: ${p}`];
    }));
    expect(problems).toEqual([]);
  });

  test("the clarification agent's question command, run as written at phase 0, halts the skill for the user's answers", async () => {
    const root = project();
    const text = readFileSync(new URL('agents/clarification-agent.md', PLUGIN), 'utf8');
    const told = ratchetCommands(text).find((c) => c.includes('--question'));
    expect(told).toBeDefined();
    expect((await ratchet(root, ['flow', 'start', 'develop-feature', '--session', 'd', '--input', 'task=T'])).code).toBe(0);
    const args = words(told!.replace('<session>', 'd').replace('<question>', 'Which identity provider?')).slice(1);
    const asked = await ratchet(root, args);
    expect(asked.code, asked.err).toBe(0);
    expect(asked.out).toContain("`ratchet flow resume --session d --answer '<answer 1>'`");
    const agent = await ratchet(root, ['flow', 'resume', '--session', 'd', '--answer', 'ours'], { RATCHET_ACTOR: 'agent' });
    expect(agent.code).toBe(2);
    expect((await ratchet(root, ['flow', 'resume', '--session', 'd', '--answer', 'the company SSO'])).code).toBe(0);
    const state = JSON.parse(readFileSync(join(root, '.ratchet/flows/d.json'), 'utf8')) as { status: string; current: string; clarificationAnswers: string[] };
    expect(state).toMatchObject({ status: 'EXECUTING', current: '0', clarificationAnswers: ['the company SSO'] });
  });
});

describe('flow list and flow status with a broken session', () => {
  test('the tampered session is reported with its file (exit 1); the others are listed', async () => {
    const root = project();
    for (const id of ['a', 'b', 'c']) expect((await ratchet(root, ['flow', 'start', 'reasoning', '--session', id, '--input', 'query=q'])).code).toBe(0);
    const b = join(root, '.ratchet/flows/b.json');
    writeFileSync(b, readFileSync(b, 'utf8').replace('"normal"', '"agent"'));
    const listed = await ratchet(root, ['flow', 'list']);
    expect(listed.code).toBe(1);
    expect(listed.out).toMatch(/^ {2}a {2}reasoning {2}EXECUTING {2}step 0$/m);
    expect(listed.out).toMatch(/^ {2}c {2}reasoning {2}EXECUTING {2}step 0$/m);
    expect(listed.out).toMatch(/^ {2}b {2}INVALID: \.ratchet\/flows\/b\.json: changed outside Ratchet.*\(ratchet doctor\)$/m);
    const json = JSON.parse((await ratchet(root, ['--json', 'flow', 'list'])).out) as { ok: boolean; sessions: { sessionId: string }[]; unreadableSessions: { sessionId: string; file: string; code: string }[] };
    expect(json.ok).toBe(false);
    expect(json.sessions.map((s) => s.sessionId)).toEqual(['a', 'c']);
    expect(json.unreadableSessions).toEqual([expect.objectContaining({ sessionId: 'b', file: '.ratchet/flows/b.json', code: 'tampered' })]);
    const status = await ratchet(root, ['flow', 'status']);
    expect(status.code).toBe(1);
    expect(status.out).toMatch(/^a {2}reasoning {2}EXECUTING {2}step 0$/m);
    expect(status.out).toContain('b  INVALID: .ratchet/flows/b.json');
    // The session itself is still refused, naming the file.
    expect((await ratchet(root, ['flow', 'status', '--session', 'b'])).code).toBe(2);
  });
});
