import { existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { describe, expect, test } from 'vitest';
import type { Io } from '../src/context.js';
import { run } from '../src/main.js';

const HEADINGS = ['## Section 0: Context Loaded', '## Section 1: Step Overview', '## Section 2: Johari Summary', '## Section 3: Downstream Directives'];

function project(): string {
  return mkdtempSync(join(tmpdir(), 'ratchet-flow-cli-'));
}

function put(root: string, rel: string, text: string): void {
  mkdirSync(dirname(join(root, rel)), { recursive: true });
  writeFileSync(join(root, rel), text);
}

function capture(cwd: string, onStdout?: () => void): { io: Io; out: () => string; err: () => string } {
  let out = '';
  let err = '';
  return {
    io: {
      stdout: (t) => {
        onStdout?.();
        out += t;
      },
      stderr: (t) => void (err += t),
      isTTY: false,
      env: {},
      cwd,
      readStdin: () => Promise.resolve(''),
    },
    out: () => out,
    err: () => err,
  };
}

async function ratchet(cwd: string, ...argv: string[]): Promise<{ code: number; out: string; err: string }> {
  return ratchetAs({}, cwd, ...argv);
}

/** With the environment a harness gives its agent (RATCHET_ACTOR=agent) or a person's shell. */
async function ratchetAs(env: Record<string, string>, cwd: string, ...argv: string[]): Promise<{ code: number; out: string; err: string }> {
  const c = capture(cwd);
  c.io.env = env;
  const code = await run(argv, c.io);
  return { code, out: c.out(), err: c.err() };
}

const REASONING_STEPS = (JSON.parse(readFileSync(new URL('../../../protocols/flows/reasoning.flow.json', import.meta.url), 'utf8')) as { steps: { id: string; output: { headings: string[] } }[] }).steps;
let handedIn = 0;

/** Write a reasoning step's output (its sections, new text every time) under notes/; returns its path. */
function stepOutput(root: string, step: string): string {
  const headings = REASONING_STEPS.find((s) => s.id === step)!.output.headings;
  const rel = `notes/step-${step}-${++handedIn}.md`;
  put(root, rel, headings.map((h) => `${h}\n\n${'What this step worked out for the request, in full. '.repeat(3)}(${handedIn})\n`).join('\n'));
  return rel;
}

/** Advance a reasoning session, handing in the current step's output. */
async function think(root: string, id: string, ...more: string[]): Promise<{ code: number; out: string; err: string }> {
  return ratchet(root, 'flow', 'advance', '--session', id, '--output', stepOutput(root, session(root, id).current!), ...more);
}

const session = (root: string, id: string): { current: string | null; status: string } => JSON.parse(readFileSync(join(root, '.ratchet/flows', `${id}.json`), 'utf8')) as { current: string | null; status: string };

describe('ratchet flow', () => {
  test('list: the built-in flows; a project flow of the same name hides the built-in one; an invalid one is exit 1 with its place', async () => {
    const root = project();
    const listed = await ratchet(root, 'flow', 'list');
    expect(listed.code).toBe(0);
    expect(listed.out).toMatch(/^develop-feature {2}skill {2}Composite skill: develop a feature {2}\(built-in; steps 0 1 2 3 4 5\)$/m);
    expect(listed.out).toMatch(/^reasoning {2}protocol {2}Reasoning protocol \(steps 0-8\) {2}\(built-in; steps 0 1 2 3 3b 4 5 6 7 8\)$/m);
    // The routing table: each flow with what it is for and not for.
    expect(listed.out).toMatch(/^develop-feature .*\n {2}for: build or change a feature in code.*\n {2}not for: questions, research or reviews that change no code.*$/m);
    const table = JSON.parse((await ratchet(root, '--json', 'flow', 'list')).out) as { flows: { name: string; semanticTrigger?: string; notFor?: string }[] };
    expect(table.flows.find((f) => f.name === 'reasoning')).toMatchObject({ semanticTrigger: expect.stringMatching(/^any new request/) as string, notFor: expect.stringMatching(/^work already routed/) as string });
    put(root, 'protocols/flows/reasoning.flow.json', '{\n  "id": "reasoning",\n  "title": "Mine",\n  "steps": [ { "id": "0", "title": "Only", "content": "r/0.md" } ]\n}\n');
    put(root, 'protocols/flows/r/0.md', '# Only step\n');
    put(root, 'protocols/flows/broken.flow.yaml', 'id: broken\ntitle: Broken\nsteps:\n  - id: "0"\n    title: Zero\n    type: PARALLEL\n    content: x.md\n');
    const mine = await ratchet(root, '--json', 'flow', 'list');
    expect(mine.code).toBe(1);
    const doc = JSON.parse(mine.out) as { flows: { name: string; source: string; title?: string; error?: string }[] };
    expect(doc.flows.find((f) => f.name === 'reasoning')).toMatchObject({ source: 'project', title: 'Mine' });
    expect(doc.flows.find((f) => f.name === 'broken')?.error).toBe('protocols/flows/broken.flow.yaml:4:5: invalid flow: a PARALLEL step needs "branches" (and 1 more problem)');
  });

  test('init scaffolds the built-in flows into protocols/flows/: they list as the project\'s and run from there', async () => {
    const root = project();
    expect((await ratchet(root, 'init', '--quiet')).code).toBe(0);
    for (const f of ['protocols/flows/reasoning.flow.json', 'protocols/flows/reasoning/step-4-task-routing.md', 'protocols/flows/develop-feature/phase-5-validation.md', '.claude/memory/.gitkeep']) {
      expect(readFileSync(join(root, f), 'utf8'), f).toBeDefined();
    }
    const listed = JSON.parse((await ratchet(root, '--json', 'flow', 'list')).out) as { flows: { name: string; source: string }[] };
    expect(listed.flows.map((f) => [f.name, f.source])).toEqual([['develop-feature', 'project'], ['reasoning', 'project']]);
    put(root, 'protocols/flows/reasoning/step-0-johari-discovery.md', '# Our own step 0\n');
    const started = await ratchet(root, 'flow', 'start', 'reasoning', '--session', 's');
    expect(started.out).toContain('# Our own step 0');
  });

  test('start -> advance -> status: exit codes, the saved session, the directive', async () => {
    const root = project();
    const started = await ratchet(root, 'flow', 'start', 'reasoning', '--session', 's1', '--input', 'query=add a login page');
    expect(started.code).toBe(0);
    expect(started.out).toContain('## Step 0: Johari Window discovery (LINEAR)');
    expect(started.out.trimEnd().split('\n').slice(-5)[0]).toBe("`ratchet flow advance --session s1 --output '<file>'`");
    expect(started.out).toContain('First, write this step\'s output to a file (sections "## SHARE", "## ASK", "## ACKNOWLEDGE", "## EXPLORE"), and pass it with --output');
    expect(session(root, 's1').current).toBe('0');
    const bare = await ratchet(root, 'flow', 'advance', '--session', 's1');
    expect(bare.code).toBe(1);
    expect(bare.out).toContain('- step 0 hands in its output: pass --output FILE (or --output - to read it from standard input)');
    expect((await ratchet(root, 'flow', 'advance', '--session', 's1', '--output', 'notes/none.md')).code).toBe(2);
    expect((await think(root, 's1')).code).toBe(0);
    expect(session(root, 's1').current).toBe('1');
    const status = await ratchet(root, 'flow', 'status', '--session', 's1');
    expect(status.code).toBe(0);
    expect(status.out).toContain('## Step 1: Semantic understanding');
    expect((await ratchet(root, 'flow', 'status')).out).toBe('s1  reasoning  EXECUTING  step 1\n');
    const again = await ratchet(root, 'flow', 'start', 'reasoning', '--session', 's1');
    expect(again.code).toBe(2);
    expect(again.err).toMatch(/s1\.json: session s1 already exists \(flow reasoning, EXECUTING at step 1\)/);
  });

  test('invariant 2 through the CLI: the session file is already written when the first byte reaches stdout', async () => {
    const root = project();
    await ratchet(root, 'flow', 'start', 'reasoning', '--session', 's');
    const seen: (string | null)[] = [];
    const c = capture(root, () => void seen.push(session(root, 's').current));
    expect(await run(['flow', 'advance', '--session', 's', '--output', stepOutput(root, '0')], c.io)).toBe(0);
    expect(seen[0]).toBe('1');
    expect(c.out()).toContain('## Step 1:');
  });

  test('invariant 4 through the CLI: advance refuses (exit 1) until the memory files exist, and --force is not an option', async () => {
    const root = project();
    expect((await ratchet(root, 'flow', 'start', 'develop-feature', '--session', 'd', '--input', 'task=T')).code).toBe(0);
    const refused = await ratchet(root, 'flow', 'advance', '--session', 'd');
    expect(refused.code).toBe(1);
    expect(refused.out).toContain('- .claude/memory/T-clarification-agent-memory.md does not exist (memory file of agent clarification-agent)');
    expect(refused.out).toContain('`ratchet flow advance --session d`');
    const before = readFileSync(join(root, '.ratchet/flows/d.json'), 'utf8');
    expect((await ratchet(root, 'flow', 'advance', '--session', 'd', '--force')).code).toBe(2);
    expect(readFileSync(join(root, '.ratchet/flows/d.json'), 'utf8')).toBe(before);
    put(root, '.claude/memory/T-clarification-agent-memory.md', HEADINGS.map((h) => `${h}\n\nFindings worth passing on to the next phase.\n`).join('\n'));
    put(root, '.claude/memory/T-memory-phase-0-to-1-memory.md', HEADINGS.map((h) => `${h}\n\nWhat the memory agent carries from phase 0 to phase 1.\n`).join('\n'));
    const json = await ratchet(root, '--json', 'flow', 'advance', '--session', 'd');
    expect(json.code).toBe(0);
    const doc = JSON.parse(json.out) as { ok: boolean; outcome: string; session: { current: string }; directive: { command: string } };
    expect(doc).toMatchObject({ ok: true, outcome: 'advanced', session: { current: '1' }, directive: { command: 'ratchet flow advance --session d' } });
  });

  test("a second session of the same task cannot advance on the first one's memory files (exit 1), nor on a copy of them", async () => {
    const root = project();
    const memory = (who: string): string => HEADINGS.map((h) => `${h}\n\nWhat ${who} found, for the next phase.\n`).join('\n');
    expect((await ratchet(root, 'flow', 'start', 'develop-feature', '--session', 'd1', '--input', 'task=T')).code).toBe(0);
    put(root, '.claude/memory/T-clarification-agent-memory.md', memory('the clarification agent'));
    put(root, '.claude/memory/T-memory-phase-0-to-1-memory.md', memory('the memory agent'));
    expect((await ratchet(root, 'flow', 'advance', '--session', 'd1')).code).toBe(0);
    expect((await ratchet(root, 'flow', 'start', 'develop-feature', '--session', 'd2', '--input', 'task=T')).code).toBe(0);
    const stale = await ratchet(root, 'flow', 'advance', '--session', 'd2');
    expect(stale.code).toBe(1);
    expect(stale.out).toContain('- .claude/memory/T-clarification-agent-memory.md is unchanged since this step began (memory file of agent clarification-agent)');
    expect(session(root, 'd2').current).toBe('0');
    expect((await ratchet(root, 'flow', 'start', 'develop-feature', '--session', 'd3', '--input', 'task=U')).code).toBe(0);
    put(root, '.claude/memory/U-clarification-agent-memory.md', memory('the clarification agent'));
    put(root, '.claude/memory/U-memory-phase-0-to-1-memory.md', memory('the memory agent for U'));
    const copy = await ratchet(root, 'flow', 'advance', '--session', 'd3');
    expect(copy.code).toBe(1);
    expect(copy.out).toContain('- .claude/memory/U-clarification-agent-memory.md is identical to .claude/memory/T-clarification-agent-memory.md, accepted for session d1 at step 0');
  });

  test('--then queues the next flow: the completion directive starts it; a flow the CLI cannot start is exit 2', async () => {
    const root = project();
    put(root, 'protocols/flows/review.flow.json', JSON.stringify({ id: 'review', title: 'Review', steps: [{ id: '0', title: 'Scope', content: 'review/scope.md' }] }));
    put(root, 'protocols/flows/review/scope.md', '# Scope\n');
    const unknown = await ratchet(root, 'flow', 'start', 'review', '--session', 'q', '--then', 'deploy');
    expect(unknown.code).toBe(2);
    expect(unknown.err).toBe('ratchet: --then deploy: no flow of that name (flows: develop-feature, reasoning, review)\n');
    expect((await ratchet(root, 'flow', 'start', 'review', '--session', 'q', '--input', 'task=T', '--then', 'develop-feature')).code).toBe(0);
    const done = await ratchet(root, 'flow', 'advance', '--session', 'q');
    expect(done.out).toContain('`ratchet flow start develop-feature --session q-develop-feature --input task=T`');
  });

  test('resume after a clarification halt: the agent is refused (RATCHET_ACTOR=agent), the user answers every question; the questions stay', async () => {
    const root = project();
    expect((await ratchet(root, 'flow', 'start', 'reasoning', '--session', 'h', '--input', 'query=add a login page')).code).toBe(0);
    const halted = await ratchet(root, 'flow', 'advance', '--session', 'h', '--question', 'Which users?', '--question', 'Which database?');
    expect(halted.code).toBe(0);
    expect(halted.out).toContain("`ratchet flow resume --session h --answer '<answer 1>' --answer '<answer 2>'`");
    const agent = await ratchetAs({ RATCHET_ACTOR: 'agent' }, root, 'flow', 'resume', '--session', 'h', '--answer', 'admins', '--answer', 'Postgres');
    expect(agent.code).toBe(2);
    expect(agent.err).toMatch(/^ratchet: ratchet flow resume is for a person, from their own terminal; refused because this environment sets RATCHET_ACTOR=agent/);
    const unanswered = await ratchet(root, 'flow', 'resume', '--session', 'h', '--answer', 'admins');
    expect(unanswered.code).toBe(2);
    expect(unanswered.err).toContain('resume needs one --answer per question, in order (got 1): 1. Which users? 2. Which database?');
    expect(session(root, 'h').status).toBe('HALTED');
    const user = await ratchetAs({ RATCHET_ACTOR: 'user' }, root, 'flow', 'resume', '--session', 'h', '--answer', 'admins', '--answer', 'Postgres');
    expect(user.code).toBe(0);
    const state = JSON.parse(readFileSync(join(root, '.ratchet/flows/h.json'), 'utf8')) as { status: string; clarificationQuestions: string[]; clarificationAnswers: string[] };
    expect(state).toMatchObject({ status: 'EXECUTING', clarificationQuestions: ['Which users?', 'Which database?'], clarificationAnswers: ['admins', 'Postgres'] });
  });

  test('--output - hands in the step output from standard input; over the limit is exit 2', async () => {
    const root = project();
    expect((await ratchet(root, 'flow', 'start', 'reasoning', '--session', 'p')).code).toBe(0);
    const text = readFileSync(join(root, stepOutput(root, '0')), 'utf8');
    const piped = capture(root);
    piped.io.readStdin = () => Promise.resolve(text);
    expect(await run(['flow', 'advance', '--session', 'p', '--output', '-'], piped.io)).toBe(0);
    expect((JSON.parse(readFileSync(join(root, '.ratchet/flows/p.json'), 'utf8')) as { stepOutputs: Record<string, { text: string }[]> }).stepOutputs['0']![0]!.text).toBe(text);
    const huge = capture(root);
    huge.io.readStdin = () => Promise.resolve('x'.repeat(800_000));
    expect(await run(['flow', 'advance', '--session', 'p', '--output', '-'], huge.io)).toBe(2);
    expect(huge.err()).toMatch(/the step output on standard input is over/);
  });

  test('a flow file by path (YAML), a parallel step, halt and resume', async () => {
    const root = project();
    put(
      root,
      'flows/review.flow.yaml',
      'id: review\ntitle: Review\nsteps:\n  - id: "0"\n    title: Scope\n    content: scope.md\n  - id: "1"\n    title: Review\n    type: PARALLEL\n    content: review.md\n    branches:\n      - { id: a, title: Code, gates: [{ artifact: "out/{branch}.md" }] }\n',
    );
    put(root, 'flows/scope.md', '# Scope\n');
    put(root, 'flows/review.md', '# Review\n');
    expect((await ratchet(root, 'flow', 'start', 'flows/review.flow.yaml', '--session', 'r')).code).toBe(0);
    const adv = await ratchet(root, 'flow', 'advance', '--session', 'r');
    expect(adv.out).toContain('`ratchet flow complete-branch 1:a --session r`');
    expect((await ratchet(root, 'flow', 'complete-branch', '1:a', '--session', 'r')).code).toBe(1);
    put(root, 'out/a.md', 'done');
    expect((await ratchet(root, 'flow', 'complete-branch', '1:a', '--session', 'r')).code).toBe(0);
    const halted = await ratchet(root, 'flow', 'halt', '--session', 'r', '--reason', 'waiting for the user');
    expect(halted.code).toBe(0);
    expect(halted.out).toContain('`ratchet flow resume --session r`');
    expect((await ratchet(root, 'flow', 'advance', '--session', 'r')).code).toBe(2);
    expect((await ratchet(root, 'flow', 'resume', '--session', 'r', '--note', 'ok')).code).toBe(0);
    const done = await ratchet(root, 'flow', 'advance', '--session', 'r');
    expect(done.code).toBe(0);
    expect(session(root, 'r').status).toBe('COMPLETED');
  });

  test('a route must name a flow the CLI knows (built-in or project): an unknown one is exit 2 listing them, nothing saved; the final directive then runs', async () => {
    const root = project();
    put(root, 'protocols/flows/review.flow.json', JSON.stringify({ id: 'review', title: 'Review', steps: [{ id: '0', title: 'Scope', content: 'review/scope.md' }] }));
    put(root, 'protocols/flows/review/scope.md', '# Scope\n');
    expect((await ratchet(root, 'flow', 'start', 'reasoning', '--session', 's', '--input', 'query=review PR 12')).code).toBe(0);
    while (session(root, 's').current !== '4') expect((await think(root, 's')).code).toBe(0);
    const before = readFileSync(join(root, '.ratchet/flows/s.json'), 'utf8');
    const unknown = await ratchet(root, 'flow', 'advance', '--session', 's', '--set', 'route=code-review');
    expect(unknown.code).toBe(2);
    expect(unknown.err).toBe('ratchet: --set route="code-review": route must be the name of a flow: develop-feature, reasoning, review\n');
    expect(unknown.out).toBe('');
    const json = await ratchet(root, '--json', 'flow', 'advance', '--session', 's', '--set', 'route=../x');
    expect(json.code).toBe(2);
    expect(JSON.parse(json.out)).toMatchObject({ ok: false, error: { code: 'bad-input' } });
    expect(readFileSync(join(root, '.ratchet/flows/s.json'), 'utf8')).toBe(before);
    expect((await think(root, 's', '--set', 'route=review', '--set', 'confidence=HIGH')).code).toBe(0);
    let last = { code: 0, out: '', err: '' };
    while (session(root, 's').status !== 'COMPLETED') last = await think(root, 's');
    const directive = /`(ratchet flow start [^`]+)`/.exec(last.out)?.[1];
    expect(directive).toBe('ratchet flow start review --session s-review --input task=s');
    const routed = await ratchet(root, ...directive!.split(' ').slice(1));
    expect(routed.code, routed.err).toBe(0);
    expect(routed.out).toContain('## Step 0: Scope');
  });

  test('protocols/flow-settings.json words the directive of every flow (built-in ones too); a bad file is exit 2 with its place, nothing saved', async () => {
    const root = project();
    put(root, 'protocols/flow-settings.json', JSON.stringify({ directive: { heading: '**Run exactly this next:**', warnings: ['- Progress is saved.'] } }, null, 2));
    const started = await ratchet(root, 'flow', 'start', 'reasoning', '--session', 's');
    expect(started.code).toBe(0);
    const directive = started.out.slice(started.out.indexOf('**Run exactly this next:**')).trimEnd().split('\n');
    expect([directive[0], ...directive.slice(-3)]).toEqual(['**Run exactly this next:**', "`ratchet flow advance --session s --output '<file>'`", '', '- Progress is saved.']);
    expect(started.out).not.toContain('NEXT COMMAND (required)');
    const json = JSON.parse((await ratchet(root, '--json', 'flow', 'status', '--session', 's')).out) as { directive: { text: string } };
    expect(json.directive.text.startsWith('**Run exactly this next:**\n\nFirst, write this step')).toBe(true);
    expect(json.directive.text.endsWith("\n\n`ratchet flow advance --session s --output '<file>'`\n\n- Progress is saved.")).toBe(true);
    expect((await ratchet(root, 'flow', 'list')).out).toContain('settings  protocols/flow-settings.json (directive wording for flows that set none; memory-file names)');

    const before = readFileSync(join(root, '.ratchet/flows/s.json'), 'utf8');
    put(root, 'protocols/flow-settings.json', '{\n  "directive": {\n    "heading": "two\\nlines",\n    "warnings": "one"\n  }\n}\n');
    const bad = await ratchet(root, 'flow', 'advance', '--session', 's');
    expect(bad.code).toBe(2);
    expect(bad.err).toBe(
      'protocols/flow-settings.json:3:16: invalid flow settings: the heading must be one non-empty line of text (no control characters) (and 1 more problem)\n' +
        'protocols/flow-settings.json:4:17: must be an array of lines (it may be empty) (at /directive/warnings)\n',
    );
    expect(readFileSync(join(root, '.ratchet/flows/s.json'), 'utf8')).toBe(before);
    const list = await ratchet(root, 'flow', 'list');
    expect(list.code).toBe(1);
    expect(list.out).toContain('settings  INVALID: protocols/flow-settings.json:3:16: invalid flow settings: the heading must be one non-empty line of text (no control characters) (and 1 more problem)');
    put(root, 'protocols/flow-settings.json', '{ "directive": { "heading": "x", }');
    const malformed = await ratchet(root, 'flow', 'status', '--session', 's');
    expect(malformed.code).toBe(2);
    expect(malformed.err).toMatch(/protocols\/flow-settings\.json:1:\d+: /);
    const help = await ratchet(root, 'flow', '--help');
    expect(help.out).toContain('protocols/flow-settings.json');
    expect(help.out).toContain('@ratchet/flows/schemas/flow-settings.schema.json');
  });

  test("protocols/flow-settings.json names the memory files: the original's names work for the built-in skill; a bad template is exit 2 at its place", async () => {
    const root = project();
    put(root, 'protocols/flow-settings.json', JSON.stringify({ memoryFiles: { agent: '.claude/memory/{task-id}-{role}-memory.md' } }, null, 2));
    const started = await ratchet(root, 'flow', 'start', 'develop-feature', '--session', 'd', '--input', 'task=T');
    expect(started.code).toBe(0);
    expect(started.out).toContain('- `.claude/memory/T-clarification-memory.md`: memory file of agent clarification-agent');
    put(root, '.claude/memory/T-clarification-memory.md', HEADINGS.map((h) => `${h}\n\nWhat the clarification agent found, under the original's name.\n`).join('\n'));
    put(root, '.claude/memory/T-memory-phase-0-to-1-memory.md', HEADINGS.map((h) => `${h}\n\nWhat the memory agent carries from phase 0 to phase 1.\n`).join('\n'));
    expect((await ratchet(root, 'flow', 'advance', '--session', 'd')).code).toBe(0);
    put(root, 'protocols/flow-settings.json', '{\n  "memoryFiles": {\n    "agent": "/tmp/{task}.md"\n  }\n}\n');
    const bad = await ratchet(root, 'flow', 'status', '--session', 'd');
    expect(bad.code).toBe(2);
    expect(bad.err).toBe('protocols/flow-settings.json:3:14: invalid flow settings: the agent memory-file path must be relative to the project root\n');
  });

  test('hook obligations: a skill waiting for its learnings is still owed; a fully complete one is not', async () => {
    const root = project();
    const gate = { minLength: 10, headings: ['## Done'] };
    const mini = {
      id: 'mini',
      title: 'Mini skill',
      kind: 'skill',
      agentGate: { artifact: 'mem/{task}-{agent}.md', ...gate },
      transitionGate: { artifact: 'mem/{task}-{from}-{to}.md' },
      learningsGate: { artifact: 'mem/{task}-learnings.md', ...gate },
      steps: [{ id: '0', title: 'Do', content: 'mini/do.md', agent: 'doer' }],
    };
    put(root, 'protocols/flows/mini.flow.json', JSON.stringify(mini));
    put(root, 'protocols/flows/mini/do.md', '# Do it\n');
    expect((await ratchet(root, 'flow', 'start', 'mini', '--session', 'm', '--input', 'task=T')).code).toBe(0);
    put(root, 'mem/T-doer.md', '## Done\n\nThe work, written for this phase.\n');
    expect((await ratchet(root, 'flow', 'advance', '--session', 'm')).code).toBe(0);
    expect(session(root, 'm').status).toBe('LEARNINGS_PENDING');
    const { flowObligations } = await import('../src/hook/flow-obligations.js');
    const { makeContext } = await import('../src/context.js');
    const ctx = makeContext(capture(root).io, { json: false, quiet: true, cwd: root, color: false });
    expect(await flowObligations(ctx, ['m'])).toEqual([{ kind: 'flow', what: 'flow mini session m is LEARNINGS_PENDING', command: 'ratchet flow advance --session m' }]);
    put(root, 'mem/T-learnings.md', '## Done\n\nWhat this run taught.\n');
    expect((await ratchet(root, 'flow', 'advance', '--session', 'm')).code).toBe(0);
    expect(session(root, 'm').status).toBe('FULLY_COMPLETE');
    expect(await flowObligations(ctx, ['m'])).toEqual([]);
  });

  test('bad input is exit 2 with the file and place', async () => {
    const root = project();
    put(root, 'bad.flow.json', '{\n  "id": "bad",\n  "title": "Bad",\n  "steps": [\n    { "id": "0", "title": "Z", "content": "z.md", "type": "OPTIONAL", "skip": { "mode": "agent" } }\n  ]\n}\n');
    const bad = await ratchet(root, 'flow', 'start', 'bad.flow.json', '--session', 'b');
    expect(bad.code).toBe(2);
    expect(bad.err).toMatch(/bad\.flow\.json:5:59: invalid flow: the first step \("0"\) must be LINEAR \(mandatory clarification\), not OPTIONAL/);
    put(root, 'trunc.flow.json', '{ "id": "t", "steps": [');
    expect((await ratchet(root, 'flow', 'start', 'trunc.flow.json', '--session', 't')).err).toMatch(/trunc\.flow\.json:1:\d+: /);
    put(root, 'gate.flow.json', JSON.stringify({ id: 'g', title: 'G', steps: [{ id: '0', title: 'Z', content: 'z.md', gates: [{ artifact: '../../outside.md' }] }] }));
    const gate = await ratchet(root, 'flow', 'start', 'gate.flow.json', '--session', 'g');
    expect(gate.code).toBe(2);
    expect(gate.err).toContain('artifact path must not contain ".." segments');
    const traversal = await ratchet(root, 'flow', 'start', 'reasoning', '--session', '../../etc');
    expect(traversal.code).toBe(2);
    expect(traversal.err).toMatch(/^ratchet: session id "..\/..\/etc" must be/);
    expect((await ratchet(root, 'flow', 'start', 'reasoning', '--session', 'x', '--input', 'novalue')).code).toBe(2);
    expect((await ratchet(root, 'flow', 'start', 'no-such-flow', '--session', 'x')).err).toMatch(/no flow named "no-such-flow"/);
    const unknown = await ratchet(root, 'flow', 'advance', '--session', 'nobody');
    expect(unknown.code).toBe(2);
    expect(unknown.err).toMatch(/\.ratchet\/flows\/nobody\.json: no session nobody/);
    for (const task of ['../../../x', 'a/../../b', '/etc/x']) {
      const outside = await ratchet(root, 'flow', 'start', 'develop-feature', '--session', 'o', '--input', `task=${task}`);
      expect(outside.code, task).toBe(2);
      expect(outside.err, task).toMatch(/^ratchet: \{task\} is ".*", which (contains a "\.\." segment|is an absolute path): it cannot go into the artifact path \.claude\/memory\/\{task\}-\{agent\}-memory\.md/);
    }
    expect((await ratchet(root, 'flow', 'status')).out).not.toContain('o  develop-feature');
  });

  test('a YAML flow nested thousands of levels deep is exit 2 (start) and INVALID (list), never an internal error', async () => {
    // Found by the fuzz test: the yaml library's parser recurses once per nested block mapping and,
    // deep inside a command, a couple of thousand overflowed the stack: `flow start` exited 70.
    const root = project();
    for (const depth of [1500, 2000, 2500]) {
      const nested = Array.from({ length: depth }, (_, i) => `${' '.repeat(i)}k:`).join('\n');
      put(root, 'protocols/flows/deep.flow.yaml', `${nested} v\nid: deep\ntitle: Deep\nsteps:\n  - { id: "0", title: Z, content: z.md }\n`);
      const start = await ratchet(root, 'flow', 'start', 'deep', '--session', 'd');
      expect(start.code, start.err).toBe(2);
      expect(start.err).toMatch(/^protocols\/flows\/deep\.flow\.yaml:\d+:\d+: YAML: the flow nests too deeply to read$/m);
      const list = await ratchet(root, 'flow', 'list');
      expect(list.code, list.err).toBe(1);
      expect(list.out).toContain('deep  (project)  INVALID: protocols/flows/deep.flow.yaml:');
    }
    expect((await ratchet(root, 'flow', 'status')).out).toContain('no flow sessions');
  });
});

describe('quickstart steps', () => {
  test('FLOW_STEPS run in a fresh directory with the expected exit codes (examples copied from the repository)', async () => {
    const { FLOW_STEPS } = await import('../src/quickstart/flow-steps.js');
    const root = project();
    const repo = new URL('../../../', import.meta.url).pathname;
    for (const step of FLOW_STEPS) {
      for (const example of step.examples ?? []) put(root, `examples/${example}`, readFileSync(join(repo, 'examples', example), 'utf8'));
      const result = await ratchet(root, ...step.args);
      expect(result.code, `${step.title}\n${result.out}${result.err}`).toBe(step.expectExit);
    }
    expect(session(root, 'review').current).toBe('check');
    expect(session(root, 'think').status).toBe('HALTED');
  });
});

describe('a session runs the flow pinned at its start', () => {
  const TWO = 'id: two\ntitle: Two steps\nsteps:\n  - id: "1"\n    title: First\n    content: two/1.md\n  - id: "2"\n    title: Second\n    content: two/2.md\n';

  test('a second `flow start` of the same session is refused and cannot swap its pinned flow; a refused start leaves no pin', async () => {
    const root = project();
    put(root, 'protocols/flows/two.flow.yaml', TWO);
    put(root, 'protocols/flows/two/1.md', 'Do the first thing.\n');
    put(root, 'protocols/flows/two/2.md', 'Do the second thing.\n');
    expect((await ratchet(root, 'flow', 'start', 'two', '--session', 's1')).code).toBe(0);
    const pins = readFileSync(join(root, '.ratchet/pins.json'), 'utf8');
    const pinned = readFileSync(join(root, '.ratchet/pins/flow-s1/flow/two.flow.yaml'), 'utf8');
    // The shortcut: edit the project's flow down to its last step, then start the same session again
    // so that the start re-pins the edited flow under the running session.
    put(root, 'protocols/flows/two.flow.yaml', 'id: two\ntitle: Two steps\nsteps:\n  - id: "2"\n    title: Second\n    content: two/2.md\n');
    const again = await ratchet(root, 'flow', 'start', 'two', '--session', 's1');
    expect(again.code).not.toBe(0);
    expect(again.err).toContain('session s1 already exists');
    expect(readFileSync(join(root, '.ratchet/pins/flow-s1/flow/two.flow.yaml'), 'utf8')).toBe(pinned);
    expect(readFileSync(join(root, '.ratchet/pins.json'), 'utf8')).toBe(pins);
    const status = await ratchet(root, '--json', 'flow', 'status', '--session', 's1');
    expect(status.out).toContain('First');
    // A start refused for its input pins nothing.
    const bad = await ratchet(root, 'flow', 'start', 'two', '--session', 's2', '--input', 'no-equals-sign');
    expect(bad.code).toBe(2);
    expect(existsSync(join(root, '.ratchet/pins/flow-s2'))).toBe(false);
    expect(readFileSync(join(root, '.ratchet/pins.json'), 'utf8')).toBe(pins);
  });
});
