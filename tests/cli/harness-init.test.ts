/**
 * `ratchet init --harness <name>` (each agent CLI's repository configuration, merged and never
 * clobbered), `ratchet hook <event> --harness <name>` through the bin's fast path and the full
 * program, and `ratchet doctor`'s warnings when a harness would skip the hooks for want of trust.
 */
import { mkdirSync, mkdtempSync, readFileSync, readdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { ratchet } from '../helpers.js';

const project = (): string => {
  const dir = mkdtempSync(join(tmpdir(), 'ratchet-harness-init-'));
  expect(ratchet(['init', '--quiet'], { cwd: dir }).status).toBe(0);
  return dir;
};
const text = (dir: string, rel: string): string => readFileSync(join(dir, rel), 'utf8');

describe('ratchet init --harness', () => {
  test('writes every harness configuration once; a second run changes nothing and says so', { timeout: 60_000 }, () => {
    const dir = project();
    const first = ratchet(['init', '--harness', 'codex,gemini', '--harness', 'copilot', '--harness', 'opencode', '--json'], { cwd: dir });
    expect(first.status, first.stderr).toBe(0);
    const report = JSON.parse(first.stdout) as { harnesses: { harness: string; boundary: string; trustStep: string; files: { path: string; action: string }[] }[] };
    expect(report.harnesses.map((h) => [h.harness, h.boundary])).toEqual([
      ['codex', 'sandbox'],
      ['gemini', 'sandbox'],
      ['copilot', 'none'],
      ['opencode', 'none'],
    ]);
    expect(report.harnesses.flatMap((h) => h.files.map((f) => `${f.path} ${f.action}`))).toEqual([
      '.codex/hooks.json created',
      '.codex/config.toml created',
      '.gemini/settings.json created',
      '.geminiignore created',
      '.github/hooks/ratchet.json created',
      '.opencode/plugin/ratchet.js created',
    ]);
    // Each event the harness has, calling `ratchet hook <event> --harness <name>`.
    const codexHooks = JSON.parse(text(dir, '.codex/hooks.json')) as { hooks: Record<string, { hooks: { command: string }[] }[]> };
    expect(Object.keys(codexHooks.hooks)).toEqual(['SessionStart', 'UserPromptSubmit', 'PreToolUse', 'PostToolUse', 'Stop', 'SubagentStop']);
    expect(codexHooks.hooks.PreToolUse![0]!.hooks[0]!.command).toBe('ratchet hook pre-tool-use --harness codex');
    const gemini = JSON.parse(text(dir, '.gemini/settings.json')) as { hooks: Record<string, unknown>; security: { toolSandboxing: boolean }; mcpServers: Record<string, unknown> };
    expect(Object.keys(gemini.hooks)).toEqual(['SessionStart', 'BeforeAgent', 'BeforeTool', 'AfterTool', 'AfterAgent']);
    expect(gemini.security.toolSandboxing).toBe(true);
    expect(gemini.mcpServers.ratchet).toEqual({ command: 'ratchet-mcp' });
    expect(text(dir, '.geminiignore')).toMatch(/^\.ratchet\/$/m);
    const copilot = JSON.parse(text(dir, '.github/hooks/ratchet.json')) as { version: number; hooks: Record<string, { bash: string }[]> };
    expect(copilot.version).toBe(1);
    expect(copilot.hooks.agentStop![0]!.bash).toBe('ratchet hook stop --harness copilot');
    const toml = text(dir, '.codex/config.toml');
    expect(toml.startsWith('default_permissions = "ratchet"\n')).toBe(true);
    expect(toml).toContain('[permissions.ratchet.filesystem.":project_roots"]\n".ratchet" = "read"\n');
    expect(toml).toContain('[mcp_servers.ratchet]');

    const human = ratchet(['init', '--harness', 'codex', '--harness', 'gemini'], { cwd: dir });
    expect(human.status).toBe(0);
    expect(human.stdout).toMatch(/up to date\s+\.codex\/hooks\.json/);
    // The trust step is said when the hooks are new, not on every run.
    expect(human.stdout).not.toContain('Trust step');
    const again = ratchet(['init', '--harness', 'codex,gemini,copilot,opencode', '--json'], { cwd: dir });
    expect((JSON.parse(again.stdout) as typeof report).harnesses.flatMap((h) => h.files.map((f) => f.action))).toEqual(Array(6).fill('unchanged'));
  });

  test('says the trust step once, and for a harness without a sandbox that there is no OS boundary', { timeout: 30_000 }, () => {
    const dir = project();
    const r = ratchet(['init', '--harness', 'copilot'], { cwd: dir });
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout.match(/Trust step for GitHub Copilot CLI/g)).toHaveLength(1);
    expect(r.stdout).toContain('--trust-folder');
    expect(r.stdout).toContain("the agent's shell has your rights");
    const codex = ratchet(['init', '--harness', 'codex'], { cwd: dir });
    expect(codex.stdout).toContain('codex exec --trust');
    expect(codex.stdout).toContain("own sandbox keeps Ratchet's state read-only");
  });

  test('merges into what is there: other hooks, settings and TOML tables stay exactly as written', { timeout: 30_000 }, () => {
    const dir = project();
    mkdirSync(join(dir, '.codex'));
    writeFileSync(join(dir, '.codex/hooks.json'), JSON.stringify({ hooks: { PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command: 'my-guard' }] }] }, other: 1 }));
    const mine = '# my settings\nmodel = "gpt-5.5"\ndefault_permissions = "mine"\n\n[permissions.mine]\nextends = ":workspace"\n';
    writeFileSync(join(dir, '.codex/config.toml'), mine);
    mkdirSync(join(dir, '.gemini'));
    writeFileSync(join(dir, '.gemini/settings.json'), JSON.stringify({ theme: 'dark', security: { toolSandboxing: false }, hooks: { BeforeTool: [{ hooks: [{ type: 'command', command: 'ratchet hook pre-tool-use --harness gemini' }] }] } }));
    writeFileSync(join(dir, '.geminiignore'), 'secret.txt\n.ratchet/\n');
    mkdirSync(join(dir, '.github/hooks'), { recursive: true });
    writeFileSync(join(dir, '.github/hooks/ratchet.json'), JSON.stringify({ version: 1, hooks: { preToolUse: [{ type: 'command', bash: 'my-audit' }] } }));
    const r = ratchet(['init', '--harness', 'codex,gemini,copilot'], { cwd: dir });
    expect(r.status, r.stderr).toBe(0);
    const codexHooks = JSON.parse(text(dir, '.codex/hooks.json')) as { other: number; hooks: Record<string, { hooks: { command: string }[] }[]> };
    expect(codexHooks.other).toBe(1);
    expect(codexHooks.hooks.PreToolUse!.map((g) => g.hooks[0]!.command)).toEqual(['my-guard', 'ratchet hook pre-tool-use --harness codex']);
    // The user's TOML is kept byte for byte; Ratchet's profile is added but not selected, and init says so.
    const toml = text(dir, '.codex/config.toml');
    expect(toml.startsWith(mine)).toBe(true);
    expect(toml).toContain('[permissions.ratchet]');
    expect(toml.match(/^default_permissions/gm)).toHaveLength(1);
    expect(r.stderr).toContain('default_permissions = "mine"');
    const gemini = JSON.parse(text(dir, '.gemini/settings.json')) as { theme: string; security: { toolSandboxing: boolean }; hooks: Record<string, unknown[]> };
    expect(gemini.theme).toBe('dark');
    expect(gemini.security.toolSandboxing).toBe(false);
    expect(gemini.hooks.BeforeTool).toHaveLength(1);
    expect(r.stderr).toContain('turns security.toolSandboxing off');
    const ignore = text(dir, '.geminiignore');
    expect(ignore.startsWith('secret.txt\n.ratchet/\n')).toBe(true);
    expect(ignore.match(/^\.ratchet\/$/gm)).toHaveLength(1);
    const copilot = JSON.parse(text(dir, '.github/hooks/ratchet.json')) as { hooks: Record<string, { bash: string }[]> };
    expect(copilot.hooks.preToolUse!.map((h) => h.bash)).toEqual(['my-audit', 'ratchet hook pre-tool-use --harness copilot']);
  });

  test('a configuration that does not parse is named with its place and left as it is', { timeout: 30_000 }, () => {
    const dir = project();
    mkdirSync(join(dir, '.gemini'));
    const broken = '{\n  "hooks": {\n    "BeforeTool": [,]\n  }\n}\n';
    writeFileSync(join(dir, '.gemini/settings.json'), broken);
    const r = ratchet(['init', '--harness', 'gemini'], { cwd: dir });
    expect(r.status).toBe(2);
    expect(r.stderr).toMatch(/\.gemini\/settings\.json:3:\d+: /);
    expect(text(dir, '.gemini/settings.json')).toBe(broken);
    writeFileSync(join(dir, '.gemini/settings.json'), '{"hooks": []}');
    const list = ratchet(['init', '--harness', 'gemini'], { cwd: dir });
    expect(list.status).toBe(2);
    expect(list.stderr).toContain('"hooks" is not an object');
    writeFileSync(join(dir, '.gemini/settings.json'), '{"__proto__": {"hooks": 1}}');
    expect(ratchet(['init', '--harness', 'gemini'], { cwd: dir }).status).toBe(2);
  });

  test('a configuration directory that is a symbolic link out of the project is refused; nothing is written there', { timeout: 30_000 }, () => {
    const dir = project();
    const outside = mkdtempSync(join(tmpdir(), 'ratchet-outside-'));
    symlinkSync(outside, join(dir, '.codex'));
    const r = ratchet(['init', '--harness', 'codex'], { cwd: dir });
    expect(r.status).toBe(2);
    expect(r.stderr).toContain('.codex/hooks.json');
    expect(readdirSync(outside)).toEqual([]);
  });

  test('--dry-run writes nothing; an unknown harness is a usage error; a plugin file that is not Ratchet is kept', { timeout: 30_000 }, () => {
    const dir = project();
    const dry = ratchet(['init', '--dry-run', '--harness', 'codex,opencode', '--json'], { cwd: dir });
    expect(dry.status, dry.stderr).toBe(0);
    expect((JSON.parse(dry.stdout) as { harnesses: { files: { action: string }[] }[] }).harnesses.flatMap((h) => h.files.map((f) => f.action))).toEqual(['would-create', 'would-create', 'would-create']);
    expect(readdirSync(dir)).not.toContain('.codex');
    const bad = ratchet(['init', '--harness', 'cursor'], { cwd: dir });
    expect(bad.status).toBe(2);
    expect(bad.stderr).toContain('unknown agent CLI (known: claude, codex, gemini, copilot, opencode)');
    mkdirSync(join(dir, '.opencode/plugin'), { recursive: true });
    writeFileSync(join(dir, '.opencode/plugin/ratchet.js'), 'export const Mine = async () => ({})\n');
    const kept = ratchet(['init', '--harness', 'opencode'], { cwd: dir });
    expect(kept.status).toBe(0);
    expect(kept.stdout).toContain('kept');
    expect(text(dir, '.opencode/plugin/ratchet.js')).toBe('export const Mine = async () => ({})\n');
  });

  test('--harness claude is init --claude', { timeout: 30_000 }, () => {
    const dir = project();
    expect(ratchet(['init', '--harness', 'claude'], { cwd: dir }).status).toBe(0);
    const settings = JSON.parse(text(dir, '.claude/settings.json')) as { hooks: Record<string, unknown> };
    expect(Object.keys(settings.hooks)).toContain('PreToolUse');
  });
});

describe('ratchet hook --harness', () => {
  test('the fast path and the full program give the same answer in each format; an unknown harness is a usage error', { timeout: 60_000 }, () => {
    const dir = project();
    expect(ratchet(['task', 'start', '--task-id', 't1', '--no-network', '--quiet'], { cwd: dir }).status).toBe(0);
    const cases: [string, Record<string, unknown>, RegExp][] = [
      ['copilot', { toolName: 'create', toolArgs: { path: join(dir, 'x.ts'), file_text: 'x' }, cwd: dir }, /^\{"permissionDecision":"deny","permissionDecisionReason":"Ratchet: Write of x\.ts refused/],
      ['gemini', { tool_name: 'run_shell_command', tool_input: { command: 'rm -rf .ratchet' }, cwd: dir }, /^\{"decision":"deny","reason":"Ratchet: \.ratchet/],
      ['opencode', { tool: 'bash', args: { command: 'echo > a' }, directory: dir }, /^\{"decision":"deny"/],
      ['codex', { tool_name: 'apply_patch', tool_input: { command: '*** Begin Patch\n*** Add File: a.ts\n+x\n*** End Patch' }, cwd: dir }, /"permissionDecision":"deny".*apply_patch of a\.ts refused/],
    ];
    for (const [harness, payload, answer] of cases) {
      const fast = ratchet(['hook', 'pre-tool-use', '--harness', harness], { input: JSON.stringify(payload), env: { CLAUDE_PROJECT_DIR: '' } });
      const eq = ratchet(['hook', 'pre-tool-use', `--harness=${harness}`], { input: JSON.stringify(payload), env: { CLAUDE_PROJECT_DIR: '' } });
      const full = ratchet(['hook', 'pre-tool-use', '--harness', harness, '--cwd', dir], { input: JSON.stringify(payload) });
      expect(fast.status, fast.stderr).toBe(0);
      expect(fast.stdout, harness).toMatch(answer);
      expect(eq.stdout).toBe(fast.stdout);
      expect(full.stdout).toBe(fast.stdout);
    }
    const unknown = ratchet(['hook', 'pre-tool-use', '--harness', 'cursor'], { input: '{}' });
    expect(unknown.status).toBe(2);
    expect(unknown.stderr).toContain("'cursor' is invalid");
    // A payload that is not JSON fails closed, in the harness's own format, the same on both paths.
    const bad = ratchet(['hook', 'pre-tool-use', '--harness', 'gemini'], { input: '{"tool_name":', env: { CLAUDE_PROJECT_DIR: dir } });
    expect(bad.status).toBe(0);
    const answer = JSON.parse(bad.stdout) as { decision: string; reason: string };
    expect(answer.decision).toBe('deny');
    expect(answer.reason).toContain('the hook payload is not usable JSON');
    const badFull = ratchet(['hook', 'pre-tool-use', '--harness', 'gemini', '--cwd', dir], { input: '{"tool_name":', env: { CLAUDE_PROJECT_DIR: dir } });
    expect(badFull.stdout).toBe(bad.stdout);
  });
});

describe('ratchet doctor: hooks configured but not trusted', () => {
  const doctor = (dir: string, home: string, env: Record<string, string> = {}) => ratchet(['doctor'], { cwd: dir, env: { HOME: home, CODEX_HOME: '', COPILOT_HOME: '', GEMINI_CLI_TRUSTED_FOLDERS_PATH: '', ...env } });
  const freshHome = (): string => mkdtempSync(join(tmpdir(), 'ratchet-doctor-home-'));

  test('Codex: an untrusted project, then hooks not reviewed, then nothing to say', { timeout: 60_000 }, () => {
    const dir = project();
    const home = freshHome();
    expect(doctor(dir, home).stdout).not.toContain('warning: codex');
    expect(ratchet(['init', '--harness', 'codex', '--quiet'], { cwd: dir }).status).toBe(0);
    mkdirSync(join(home, '.codex'));
    const untrusted = doctor(dir, home);
    expect(untrusted.status).toBe(0);
    expect(untrusted.stdout).toMatch(/warning: codex: Codex does not trust .*: it ignores \.codex\//);
    writeFileSync(join(home, '.codex/config.toml'), `model = "x"\n\n[projects."${dir}"]\ntrust_level = "trusted"\n`);
    expect(doctor(dir, home).stdout).toMatch(/warning: codex: Codex has no trust recorded for the hooks in \.codex\/hooks\.json/);
    writeFileSync(join(home, '.codex/config.toml'), `[projects."${dir}"]\ntrust_level = "trusted"\n\n[hooks.state."${join(dir, '.codex/hooks.json')}:pre_tool_use:0:0"]\ntrusted_hash = "sha256:34"\n`);
    expect(doctor(dir, home).stdout).not.toContain('warning: codex');
    // CODEX_HOME is where Codex reads it when set.
    expect(doctor(dir, freshHome(), { CODEX_HOME: join(home, '.codex') }).stdout).not.toContain('warning: codex');
    const json = JSON.parse(ratchet(['doctor', '--json'], { cwd: dir, env: { HOME: freshHome(), CODEX_HOME: '' } }).stdout) as { ok: boolean; hookTrust: { harness: string }[] };
    expect(json.ok).toBe(true);
    expect(json.hookTrust.map((w) => w.harness)).toEqual(['codex']);
  });

  test('Gemini CLI: folder trust on by default; a trusted folder or parent, or folder trust off, silences it; DO_NOT_TRUST does not', { timeout: 60_000 }, () => {
    const dir = project();
    expect(ratchet(['init', '--harness', 'gemini', '--quiet'], { cwd: dir }).status).toBe(0);
    const home = freshHome();
    mkdirSync(join(home, '.gemini'));
    expect(doctor(dir, home).stdout).toMatch(/warning: gemini: Gemini CLI does not trust/);
    writeFileSync(join(home, '.gemini/trustedFolders.json'), JSON.stringify({ [dir]: 'TRUST_FOLDER' }));
    expect(doctor(dir, home).stdout).not.toContain('warning: gemini');
    writeFileSync(join(home, '.gemini/trustedFolders.json'), JSON.stringify({ [join(dir, 'sibling-marker')]: 'TRUST_PARENT' }));
    expect(doctor(dir, home).stdout).not.toContain('warning: gemini');
    writeFileSync(join(home, '.gemini/trustedFolders.json'), JSON.stringify({ [join(dir, '..')]: 'TRUST_FOLDER', [dir]: 'DO_NOT_TRUST' }));
    expect(doctor(dir, home).stdout).toMatch(/warning: gemini: .*DO_NOT_TRUST/);
    writeFileSync(join(home, '.gemini/trustedFolders.json'), '{ not json');
    writeFileSync(join(home, '.gemini/settings.json'), JSON.stringify({ security: { folderTrust: { enabled: false } } }));
    expect(doctor(dir, home).stdout).not.toContain('warning: gemini');
  });

  test('Copilot CLI: not a git repository, an untrusted folder, then disableAllHooks, named with the file that says so', { timeout: 60_000 }, () => {
    const dir = project();
    expect(ratchet(['init', '--harness', 'copilot', '--quiet'], { cwd: dir }).status).toBe(0);
    const home = freshHome();
    // Searched as git searches: not above a ceiling (this machine's temp directory may sit in a repository).
    const ceiling = { GIT_CEILING_DIRECTORIES: join(dir, '..') };
    expect(doctor(dir, home, ceiling).stdout).toMatch(/warning: copilot: .* is not inside a git repository/);
    mkdirSync(join(dir, '.git'));
    expect(doctor(dir, home, ceiling).stdout).not.toContain('not inside a git repository');
    expect(doctor(dir, home).stdout).toMatch(/warning: copilot: Copilot CLI does not trust/);
    mkdirSync(join(home, '.copilot'));
    writeFileSync(join(home, '.copilot/config.json'), JSON.stringify({ trustedFolders: [join(dir, '..')] }));
    expect(doctor(dir, home).stdout).not.toContain('warning: copilot');
    writeFileSync(join(home, '.copilot/settings.json'), JSON.stringify({ disableAllHooks: true }));
    expect(doctor(dir, home).stdout).toMatch(/warning: copilot: .*settings\.json sets disableAllHooks/);
  });
});
