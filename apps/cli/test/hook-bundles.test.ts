/**
 * `ratchet hook <event>` start-up: the bin runs dist/hooks/<event>.cjs (per-call events, with a code
 * cache) or imports dist/hooks/<event>.js (the once-per-session ones). Every event has one; the
 * per-call events (pre-tool-use, post-tool-use, stop, subagent-stop) are single files that load only
 * node builtins and, lazily, the modules that read flows, campaigns and a shared database from the
 * main graph (a split graph costs every tool call a file read per chunk). The spellings the bin
 * accepts all reach the same answer as the full program.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, test } from 'vitest';
import { HOOK_EVENTS } from '../src/hook/payload.js';
import { DIST } from './bundle.js';

const BIN = fileURLToPath(new URL('../bin/ratchet.js', import.meta.url));
const key = (event: string): string => event.replace(/-/g, '');
const PER_CALL = ['pre-tool-use', 'post-tool-use', 'stop', 'subagent-stop'];

describe('hook start-up bundles', () => {
  test('every hook event has its source entry and its built file', () => {
    const sources = readdirSync(fileURLToPath(new URL('../src/hook/fast/', import.meta.url))).map((f) => f.replace(/\.ts$/, ''));
    expect(sources.sort()).toEqual(HOOK_EVENTS.map(key).sort());
    for (const event of HOOK_EVENTS) expect(existsSync(join(DIST, 'hooks', `${key(event)}.${PER_CALL.includes(event) ? 'cjs' : 'js'}`)), event).toBe(true);
  });

  test.each(PER_CALL)('%s is one self-contained file', (event) => {
    const code = readFileSync(join(DIST, 'hooks', `${key(event)}.cjs`), 'utf8');
    // Builtins come through process.getBuiltinModule on first use; nothing is required or imported
    // (a vm.Script cannot run import() on Node 20, so one left in the file would throw).
    expect(code).not.toMatch(/\brequire\(/);
    expect(code).not.toMatch(/\bimport\(/);
    // Stop's lazy readers of flows and campaigns; post-tool-use's append to a shared database's log;
    // every event's record of a refusal in a shared database's refusal log (run.ts).
    const lazy = [...(event.includes('stop') ? ['claim-obligations', 'flow-obligations'] : event === 'post-tool-use' ? ['activity-shared'] : []), 'refusal-shared'];
    expect(new Set([...code.matchAll(/__ratchetImportLazy\("([a-z-]+)"\)/g)].map((m) => m[1]))).toEqual(new Set(lazy));
    for (const name of lazy) expect(existsSync(join(DIST, 'hooks', `lazy-${name}.js`)), name).toBe(true);
  });

  test('every spelling of an event gets the same answer as the full program', { timeout: 60_000 }, () => {
    const project = mkdtempSync(join(tmpdir(), 'ratchet-hook-bundles-'));
    const init = spawnSync(process.execPath, [BIN, 'init', '--quiet', '--cwd', project], { encoding: 'utf8' });
    expect(init.status, init.stderr).toBe(0);
    const start = spawnSync(process.execPath, [BIN, 'task', 'start', '--task-id', 'T-1', '--no-network', '--quiet', '--cwd', project], { encoding: 'utf8' });
    expect(start.status, start.stderr).toBe(0);
    const payload = JSON.stringify({ session_id: 's-1', cwd: project, hook_event_name: 'PreToolUse', tool_name: 'Write', tool_input: { file_path: join(project, 'a.js'), content: 'x' } });
    const answers = ['pre-tool-use', 'PreToolUse', 'pre_tool_use', 'PRETOOLUSE'].map((spelling) => {
      const r = spawnSync(process.execPath, [BIN, 'hook', spelling], { input: payload, encoding: 'utf8', env: { ...process.env, CLAUDE_PROJECT_DIR: project } });
      expect(r.status, r.stderr).toBe(0);
      return r.stdout;
    });
    // Through commander (a global flag defeats the fast path).
    const full = spawnSync(process.execPath, [BIN, 'hook', 'pre-tool-use', '--cwd', project], { input: payload, encoding: 'utf8' });
    expect(full.status, full.stderr).toBe(0);
    expect((JSON.parse(answers[0]!) as { hookSpecificOutput: { permissionDecision: string } }).hookSpecificOutput.permissionDecision).toBe('deny');
    for (const answer of [...answers, full.stdout]) expect(answer).toBe(answers[0]);
    // A name that is not an event is the program's usage error, never a file outside dist/hooks.
    for (const bad of ['lazyflowobligations', '../main', 'nope']) {
      const r = spawnSync(process.execPath, [BIN, 'hook', bad], { input: payload, encoding: 'utf8' });
      expect(r.status, bad).toBe(2);
      expect(r.stdout).toBe('');
    }
  });

  test('a blocking stop and a denied write load no stream, socket, crypto or perf_hooks module', { timeout: 60_000 }, () => {
    // Each of these costs every tool call milliseconds of start-up (see BENCHMARKS.md, "Hook start-up").
    const project = mkdtempSync(join(tmpdir(), 'ratchet-hook-modules-'));
    for (const args of [['init', '--quiet'], ['task', 'start', '--task-id', 'T-1', '--no-network', '--quiet']]) {
      const r = spawnSync(process.execPath, [BIN, ...args, '--cwd', project], { encoding: 'utf8' });
      expect(r.status, r.stderr).toBe(0);
    }
    const preload = join(project, 'modules.cjs');
    writeFileSync(preload, "process.on('exit', () => require('fs').writeFileSync(process.env.MODULES_OUT, process.moduleLoadList.join('\\n')));\n");
    const payloads = {
      'pre-tool-use': { session_id: 's-1', cwd: project, hook_event_name: 'PreToolUse', tool_name: 'Write', tool_input: { file_path: join(project, 'a.js'), content: 'x' } },
      stop: { session_id: 's-1', cwd: project, hook_event_name: 'Stop', stop_hook_active: false },
    };
    for (const [event, payload] of Object.entries(payloads)) {
      const out = join(project, `${event}.modules`);
      const r = spawnSync(process.execPath, ['-r', preload, BIN, 'hook', event], { input: JSON.stringify(payload), encoding: 'utf8', env: { ...process.env, CLAUDE_PROJECT_DIR: project, MODULES_OUT: out } });
      expect(r.status, r.stderr).toBe(0);
      // The answer is real (a deny, a block), so the write and the block record were on this path.
      expect(r.stdout).toMatch(event === 'stop' ? /"decision":"block"/ : /"permissionDecision":"deny"/);
      const heavy = readFileSync(out, 'utf8').split('\n').filter((m) => /^NativeModule (stream|internal\/streams\/readable|net|tty|crypto|perf_hooks)$/.test(m));
      expect(heavy, event).toEqual([]);
    }
  });
});
