/**
 * The bin runs dist/cli.cjs (and the per-call hooks' dist/hooks/<event>.cjs) with a V8 code cache
 * (bin/compile-cache.js). The cache may only ever make a call faster: same output with or without it, a damaged or foreign cache ignored and
 * replaced, a cache of another build never picked up, nothing written where it is turned off, no
 * file name built from a hostile argument, and concurrent first calls leave one whole file.
 */
import { spawn, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { chownSync, existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, test } from 'vitest';
// @ts-expect-error: plain JavaScript beside the bin, without a declaration file.
import * as cache from '../bin/compile-cache.js';
import { DIST } from './bundle.js';

const { cacheDir, cacheFile, cacheKey, commandWord, MAX_CACHE_FILES } = cache as {
  cacheKey: (args: string[]) => string;
  cacheDir: (env: Record<string, string | undefined>) => string | undefined;
  cacheFile: (source: string, area: string | undefined, dir: string | undefined) => string | undefined;
  commandWord: (args: string[]) => string | undefined;
  MAX_CACHE_FILES: number;
};

const BIN = fileURLToPath(new URL('../bin/ratchet.js', import.meta.url));
const BUNDLE = join(DIST, 'cli.cjs');
const built = existsSync(BUNDLE);

function project(): string {
  const dir = mkdtempSync(join(tmpdir(), 'ratchet-compile-cache-'));
  writeFileSync(join(dir, 'plan.txt'), 'set_plan demo\nplan_step_complete\nrun_in_bash_session close\n');
  return dir;
}

function ratchet(args: string[], env: Record<string, string>): { status: number | null; stdout: string; stderr: string } {
  return spawnSync(process.execPath, [BIN, ...args], { encoding: 'utf8', env: { ...process.env, ...env }, timeout: 60_000 });
}

const v8Files = (dir: string): string[] => (existsSync(dir) ? readdirSync(dir).filter((f) => f.endsWith('.v8')) : []);

describe('the code cache of the bundled program', () => {
  test.skipIf(!built)('each bundle names its build by a digest of its code', () => {
    const bundles = readdirSync(DIST).filter((f) => /^cli(-[a-z-]+)?\.cjs$/.test(f));
    expect(bundles.length).toBeGreaterThan(10);
    for (const bundle of bundles) {
      const text = readFileSync(join(DIST, bundle), 'utf8');
      const first = text.slice(0, text.indexOf('\n'));
      const code = text.slice(first.length + 1, text.lastIndexOf('\n//# sourceMappingURL='));
      expect(first, bundle).toBe(`// ratchet-build ${createHash('sha256').update(code).digest('hex').slice(0, 16)}`);
    }
  });

  test.skipIf(!built)('first call writes the area cache, the next reads it unchanged, output identical', { timeout: 120_000 }, () => {
    const dir = project();
    const store = join(dir, 'cache');
    const first = ratchet(['--cwd', dir, 'plan', 'lint', 'plan.txt'], { RATCHET_COMPILE_CACHE: store });
    expect(first.status, first.stderr).toBe(0);
    const [file] = v8Files(store);
    expect(file).toMatch(new RegExp(`^cli-[0-9a-f]{16}-${process.version.replace(/\./g, '\\.')}-${process.arch}-plan-lint\\.v8$`));
    const written = statSync(join(store, file!)).mtimeMs;
    const second = ratchet(['--cwd', dir, 'plan', 'lint', 'plan.txt'], { RATCHET_COMPILE_CACHE: store });
    expect(second.stdout).toBe(first.stdout);
    expect(second.status).toBe(0);
    // Accepted by V8, so not rewritten.
    expect(statSync(join(store, file!)).mtimeMs).toBe(written);
    const none = ratchet(['--cwd', dir, 'plan', 'lint', 'plan.txt'], { RATCHET_COMPILE_CACHE: 'off' });
    expect(none.stdout).toBe(first.stdout);
    // Another command area gets its own file.
    expect(ratchet(['--cwd', dir, 'fsm', 'check', '--help'], { RATCHET_COMPILE_CACHE: store }).status).toBe(0);
    expect(v8Files(store).map((f) => f.replace(/^.*-x64-|^.*-arm64-/, '')).sort()).toEqual(['fsm-check.v8', 'plan-lint.v8']);
  });

  test.skipIf(!built)('a damaged cache is ignored and replaced; a truncated one too', { timeout: 120_000 }, () => {
    const dir = project();
    const store = join(dir, 'cache');
    const good = ratchet(['--cwd', dir, 'plan', 'lint', 'plan.txt'], { RATCHET_COMPILE_CACHE: store });
    const file = join(store, v8Files(store)[0]!);
    const original = readFileSync(file);
    for (const damaged of [Buffer.from('not a v8 code cache at all\n'), original.subarray(0, 100), Buffer.alloc(0)]) {
      writeFileSync(file, damaged);
      const r = ratchet(['--cwd', dir, 'plan', 'lint', 'plan.txt'], { RATCHET_COMPILE_CACHE: store });
      expect(r.status, r.stderr).toBe(0);
      expect(r.stdout).toBe(good.stdout);
      expect(readFileSync(file).length).toBeGreaterThan(1000);
    }
    expect(readdirSync(store).filter((f) => f.endsWith('.tmp'))).toEqual([]);
  });

  test.skipIf(!built)('concurrent first calls all succeed and leave one whole cache file', { timeout: 120_000 }, async () => {
    const dir = project();
    const store = join(dir, 'cache');
    const runs = await Promise.all(
      Array.from({ length: 4 }, () =>
        new Promise<number | null>((done) => {
          const child = spawn(process.execPath, [BIN, '--cwd', dir, '--quiet', 'plan', 'lint', 'plan.txt'], { env: { ...process.env, RATCHET_COMPILE_CACHE: store }, stdio: 'ignore' });
          child.on('exit', (code) => done(code));
        }),
      ),
    );
    expect(runs).toEqual([0, 0, 0, 0]);
    expect(readdirSync(store).filter((f) => !f.endsWith('.v8'))).toEqual([]);
    expect(v8Files(store)).toHaveLength(1);
    const again = ratchet(['--cwd', dir, 'plan', 'lint', 'plan.txt'], { RATCHET_COMPILE_CACHE: store });
    expect(again.status).toBe(0);
  });

  test.skipIf(!built || process.getuid?.() !== 0)("a cache directory owned by another user is neither read nor written", { timeout: 60_000 }, () => {
    const dir = project();
    const store = join(dir, 'cache');
    mkdirSync(store);
    chownSync(store, 65534, 65534);
    const r = ratchet(['--cwd', dir, 'plan', 'lint', 'plan.txt'], { RATCHET_COMPILE_CACHE: store });
    expect(r.status).toBe(0);
    expect(v8Files(store)).toEqual([]);
  });

  test.skipIf(!built)('a per-call hook runs with its own cache, the same answer with, without and with a damaged one', { timeout: 120_000 }, () => {
    const dir = project();
    const store = join(dir, 'cache');
    for (const args of [['init', '--quiet'], ['task', 'start', '--task-id', 'T-1', '--no-network', '--quiet']]) expect(ratchet(['--cwd', dir, ...args], {}).status).toBe(0);
    // PLANNING: a Write outside plans/ is denied (the hook read the session, the config, the dialect).
    const payload = JSON.stringify({ session_id: 's-1', cwd: dir, hook_event_name: 'PreToolUse', tool_name: 'Write', tool_input: { file_path: join(dir, 'a.js'), content: 'x' } });
    const hook = (cacheSetting: string) => spawnSync(process.execPath, [BIN, 'hook', 'pre-tool-use'], { input: payload, encoding: 'utf8', env: { ...process.env, CLAUDE_PROJECT_DIR: dir, RATCHET_COMPILE_CACHE: cacheSetting }, timeout: 60_000 });
    const first = hook(store);
    expect(first.status, first.stderr).toBe(0);
    expect(first.stdout).toContain('"permissionDecision":"deny"');
    const files = v8Files(store);
    expect(files).toHaveLength(1);
    expect(files[0]).toMatch(new RegExp(`^cli-[0-9a-f]{16}-${process.version.replace(/\./g, '\\.')}-${process.arch}-hook-pretooluse\\.v8$`));
    const written = statSync(join(store, files[0]!)).mtimeMs;
    expect(hook(store).stdout).toBe(first.stdout);
    expect(statSync(join(store, files[0]!)).mtimeMs).toBe(written);
    expect(hook('off').stdout).toBe(first.stdout);
    writeFileSync(join(store, files[0]!), 'not a code cache');
    const damaged = hook(store);
    expect(damaged.status, damaged.stderr).toBe(0);
    expect(damaged.stdout).toBe(first.stdout);
    expect(readFileSync(join(store, files[0]!)).length).toBeGreaterThan(1000);
  });

  test('where the cache lives: the setting, XDG, then ~/.cache; off turns it off', () => {
    expect(cacheDir({ RATCHET_COMPILE_CACHE: 'off', HOME: '/home/u' })).toBeUndefined();
    expect(cacheDir({ RATCHET_COMPILE_CACHE: '0', HOME: '/home/u' })).toBeUndefined();
    expect(cacheDir({ RATCHET_COMPILE_CACHE: '/c', HOME: '/home/u' })).toBe('/c');
    expect(cacheDir({ XDG_CACHE_HOME: '/x', HOME: '/home/u' })).toBe(join('/x', 'ratchet'));
    expect(cacheDir({ HOME: '/home/u' })).toBe(join('/home/u', '.cache', 'ratchet'));
    expect(cacheDir({})).toBeUndefined();
  });

  test('file names: the build digest, never a path from the arguments', () => {
    const a = `// ratchet-build ${'a'.repeat(16)}\nexports.run = 1;\n`;
    const b = `// ratchet-build ${'b'.repeat(16)}\nexports.run = 1;\n`;
    expect(cacheFile(a, 'plan', '/c')).not.toBe(cacheFile(b, 'plan', '/c'));
    expect(cacheFile('exports.run = 1;\n', 'plan', '/c')).toBeUndefined();
    expect(cacheFile(a, 'plan', undefined)).toBeUndefined();
    for (const hostile of ['../../etc/passwd', 'a/b', '__proto__', 'PLAN', 'x'.repeat(70), '']) {
      expect(cacheFile(a, hostile, '/c')).toBe(join('/c', `cli-${'a'.repeat(16)}-${process.version}-${process.arch}-other.v8`));
    }
    expect(cacheKey(['--cwd', 'x', '--json', 'run', 'next'])).toBe('run-next');
    expect(cacheKey(['plan', 'lint', 'plan.txt'])).toBe('plan-lint');
    expect(cacheKey(['fsm', '../../etc'])).toBe('fsm');
    expect(cacheKey(['../../etc', 'lint'])).toBe('other');
    expect(cacheKey(['--json'])).toBe('other');
    expect(commandWord(['--cwd', 'plan', '--json', 'run', 'next'])).toBe('run');
    expect(commandWord(['--json'])).toBeUndefined();
  });

  test.skipIf(!built)(`at most ${String(MAX_CACHE_FILES)} cache files stay: the oldest go first`, { timeout: 60_000 }, () => {
    const dir = project();
    const store = join(dir, 'cache');
    mkdirSync(store);
    for (let i = 0; i < MAX_CACHE_FILES + 5; i++) {
      const f = join(store, `cli-${String(i).padStart(16, '0')}-v0-x-plan.v8`);
      writeFileSync(f, 'old');
      utimesSync(f, 1_000 + i, 1_000 + i);
    }
    expect(ratchet(['--cwd', dir, 'plan', 'lint', 'plan.txt'], { RATCHET_COMPILE_CACHE: store }).status).toBe(0);
    const left = v8Files(store);
    expect(left).toHaveLength(MAX_CACHE_FILES);
    expect(left.some((f) => f.includes('-v0-x-') && f.startsWith(`cli-${'0'.repeat(16)}`))).toBe(false);
    expect(left.some((f) => f.includes(process.version))).toBe(true);
  });
});
