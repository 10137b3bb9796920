/**
 * What Ratchet costs the agent it governs, on a fresh project (`git init`, `ratchet init`,
 * `ratchet protocol compile`), in o200k tokens (issue 32): AGENTS.md within 4,000 while still naming
 * every protocol's every rule id, in protocol order, each with a statement; the hooks' context at
 * session start plus the first prompt within 1,000 by default. The full text stays one command away.
 */
import { spawnSync } from 'node:child_process';
import { readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { encode } from 'gpt-tokenizer/encoding/o200k_base';
import { beforeAll, describe, expect, test } from 'vitest';
import { ratchet, tempDir } from '../helpers.js';

const SESSION = '0badc0de-0000-4000-8000-000000000001';
const T = { timeout: 180_000 };

function run(dir: string, args: string[], input?: string): string {
  const r = ratchet(args, { cwd: dir, input, timeout: 120_000, env: { CLAUDE_PROJECT_DIR: dir, RATCHET_RUNNER: '' } });
  if (r.status !== 0) throw new Error(`ratchet ${args.join(' ')} exited ${String(r.status)}: ${r.stderr}${r.stdout}`);
  return r.stdout;
}

function freshProject(initArgs: string[] = []): string {
  const dir = tempDir('ratchet-budget-');
  spawnSync('git', ['init', '-q'], { cwd: dir });
  run(dir, ['init', '--quiet', ...initArgs]);
  run(dir, ['protocol', 'compile', '--quiet']);
  return dir;
}

const hook = (dir: string, event: string, payload: Record<string, unknown>): string =>
  run(dir, ['hook', event], JSON.stringify({ session_id: SESSION, transcript_path: join(dir, 't.jsonl'), cwd: dir, ...payload }));

interface Rule { rule_id: string; description: string; enforcement: string }
function protocolsOf(dir: string): { protocol_id: string; rules: Rule[] }[] {
  const names = readdirSync(join(dir, 'protocols')).filter((n) => n.endsWith('.protocol.json')).sort();
  return names.map((n) => JSON.parse(readFileSync(join(dir, 'protocols', n), 'utf8')) as { protocol_id: string; rules: Rule[] });
}

let dir: string;
let agents: string;
beforeAll(() => {
  dir = freshProject();
  agents = readFileSync(join(dir, 'AGENTS.md'), 'utf8');
}, 180_000);

describe('AGENTS.md of a fresh project', () => {
  test('at most 4,000 o200k tokens, every rule id with a one-line statement, in protocol order', () => {
    expect(encode(agents).length).toBeLessThanOrEqual(4000);
    const protocols = protocolsOf(dir);
    expect(protocols.length).toBeGreaterThanOrEqual(10);
    let at = 0;
    for (const p of protocols) {
      const heading = agents.indexOf(`## \`${p.protocol_id}\``, at);
      expect(heading, p.protocol_id).toBeGreaterThanOrEqual(at);
      at = heading;
      for (const rule of p.rules) {
        const line = new RegExp(`^- \`${rule.rule_id}\`: (.+)$`, 'm');
        const found = line.exec(agents.slice(at));
        expect(found, `${p.protocol_id}/${rule.rule_id}`).not.toBeNull();
        // The statement is the rule's own opening words, not a placeholder.
        expect(rule.description.replace(/\s+/g, ' ').startsWith(found![1]!.replace(/\.$/, '')), rule.rule_id).toBe(true);
        at += found!.index;
      }
    }
    // It says how to read the rest, and every command it names is one the CLI has (agents-commands.test.ts checks the repo's own).
    expect(agents).toContain('`ratchet protocol show <id>`');
    expect(agents).toContain('`ratchet protocol show --all`');
  });

  test('deterministic: a second fresh project compiles to the same bytes, a recompile changes nothing, --check passes', T, () => {
    expect(readFileSync(join(freshProject(), 'AGENTS.md'), 'utf8')).toBe(agents);
    expect(run(dir, ['protocol', 'compile'])).toContain('unchanged');
    expect(readFileSync(join(dir, 'AGENTS.md'), 'utf8')).toBe(agents);
    run(dir, ['protocol', 'compile', '--check']);
  });

  test('protocol show gives every rule in full with its enforcement; --all matches what --detail full writes', T, () => {
    for (const p of protocolsOf(dir)) {
      const text = run(dir, ['protocol', 'show', p.protocol_id]);
      for (const rule of p.rules) {
        expect(text).toContain(`**\`${rule.rule_id}\`**`);
        expect(text.replace(/\s+/g, ' ')).toContain(rule.enforcement.replace(/\s+/g, ' '));
      }
    }
    const all = run(dir, ['protocol', 'show', '--all']);
    const other = freshProject();
    run(other, ['protocol', 'compile', '--detail', 'full', '--quiet']);
    const full = readFileSync(join(other, 'AGENTS.md'), 'utf8');
    expect(full).toContain(all.trimEnd());
    expect(encode(full).length).toBeGreaterThan(4 * encode(agents).length);
    // The full file keeps its detail: a plain recompile and --check compare at full, not compact.
    expect(run(other, ['protocol', 'compile'])).toContain('unchanged (11 protocols, version 1.0.0, full)');
    run(other, ['protocol', 'compile', '--check']);
    // Checking it at compact finds it stale (exit 1) and writes nothing.
    const cross = ratchet(['protocol', 'compile', '--check', '--detail', 'compact'], { cwd: other, timeout: 120_000 });
    expect(cross.status).toBe(1);
    expect(readFileSync(join(other, 'AGENTS.md'), 'utf8')).toBe(full);
  });

  test('protocol show: an unknown id or no id is a usage error naming what exists', T, () => {
    const unknown = ratchet(['protocol', 'show', '../../etc/passwd'], { cwd: dir, timeout: 120_000 });
    expect(unknown.status).toBe(2);
    expect(unknown.stderr).toContain('flows-goals-turns');
    expect(ratchet(['protocol', 'show'], { cwd: dir, timeout: 120_000 }).status).toBe(2);
    expect(ratchet(['protocol', 'show', 'fdc', '--all'], { cwd: dir, timeout: 120_000 }).status).toBe(2);
  });
});

describe('hook context of a fresh project', () => {
  test('session start plus the first prompt: at most 1,000 o200k tokens by default; no flow is started', T, () => {
    const start = hook(dir, 'session-start', { hook_event_name: 'SessionStart', source: 'startup' });
    const prompt = hook(dir, 'user-prompt-submit', { hook_event_name: 'UserPromptSubmit', prompt: 'add a login page' });
    expect(start).toContain('ratchet task start --task-id');
    expect(prompt).toBe('');
    expect(encode(start + prompt).length).toBeLessThanOrEqual(1000);
    expect(readdirSync(join(dir, '.ratchet')).includes('flows') ? readdirSync(join(dir, '.ratchet/flows')) : []).toEqual([]);
  });

  test('init --reasoning-flow: every prompt starts the reasoning flow, and Stop holds until it is advanced', T, () => {
    const on = freshProject(['--reasoning-flow']);
    const prompt = hook(on, 'user-prompt-submit', { hook_event_name: 'UserPromptSubmit', prompt: 'add a login page' });
    expect(prompt).toContain('ratchet flow advance --session cc-0badc0de-1');
    const stop = hook(on, 'stop', { hook_event_name: 'Stop', stop_hook_active: false });
    expect(stop).toContain('"decision":"block"');
    expect(stop).toContain('cc-0badc0de-1');
    // "-b " still skips it.
    expect(hook(on, 'user-prompt-submit', { hook_event_name: 'UserPromptSubmit', prompt: '-b status only' })).toBe('');
  });
});

describe('init --reasoning-flow writes the choice', () => {
  test('into an existing config: one key edited in place, the rest kept byte for byte; --no-reasoning-flow turns it off', T, () => {
    const d = tempDir('ratchet-choice-');
    const mine = '{\r\n  "schemaVersion": 1,\r\n  "hooks": { "strictness": "enforce", "planningWrites": ["plans/**"] },\r\n  "memory": { "embedder": "builtin" }\r\n}\r\n';
    writeFileSync(join(d, 'ratchet.config.json'), mine);
    run(d, ['init', '--quiet', '--reasoning-flow']);
    const on = readFileSync(join(d, 'ratchet.config.json'), 'utf8');
    expect(JSON.parse(on)).toEqual({ schemaVersion: 1, hooks: { strictness: 'enforce', planningWrites: ['plans/**'], reasoningFlow: 'reasoning' }, memory: { embedder: 'builtin' } });
    expect(on.startsWith('{\r\n  "schemaVersion": 1,\r\n')).toBe(true);
    expect(on).toContain('"memory": { "embedder": "builtin" }\r\n}');
    expect(run(d, ['init', '--reasoning-flow'])).toContain('up to date  ratchet.config.json');
    run(d, ['init', '--quiet', '--no-reasoning-flow']);
    expect((JSON.parse(readFileSync(join(d, 'ratchet.config.json'), 'utf8')) as { hooks: { reasoningFlow: unknown } }).hooks.reasoningFlow).toBe(false);
    // A flow of the project's own, by name.
    run(d, ['init', '--quiet', '--reasoning-flow', 'develop-feature']);
    expect((JSON.parse(readFileSync(join(d, 'ratchet.config.json'), 'utf8')) as { hooks: { reasoningFlow: unknown } }).hooks.reasoningFlow).toBe('develop-feature');
  });

  test('a config that does not parse or validate is refused (exit 2, named) and left as it is; a dry run writes nothing; a bad name is refused', T, () => {
    const d = tempDir('ratchet-choice-');
    for (const broken of ['{ "hooks": { "reasoningFlow": ', '{ "hooks": { "strictness": "lax" } }', '\uFEFF{"__proto__": {"x": 1}, "hooks": 3}']) {
      writeFileSync(join(d, 'ratchet.config.json'), broken);
      const r = ratchet(['init', '--reasoning-flow'], { cwd: d, timeout: 120_000 });
      expect(r.status, broken).toBe(2);
      expect(r.stderr).toContain('ratchet.config.json');
      expect(readFileSync(join(d, 'ratchet.config.json'), 'utf8')).toBe(broken);
    }
    const e = tempDir('ratchet-choice-');
    const dry = JSON.parse(run(e, ['--json', 'init', '--dry-run', '--reasoning-flow'])) as { reasoningFlow: { outcome: string } };
    expect(dry.reasoningFlow.outcome).toBe('would-create');
    expect(readdirSync(e)).toEqual([]);
    for (const bad of ['../x', '$(id)', '-b']) expect(ratchet(['init', `--reasoning-flow=${bad}`], { cwd: e, timeout: 120_000 }).status, bad).toBe(2);
  });
});
