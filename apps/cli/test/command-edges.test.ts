/**
 * The edges of the commands with no MCP tool (init, quickstart, import, serve, store export/import,
 * fsm check/render/accept, plan fmt): commander's options are read once, by a parse function, and a
 * wrong kind or a bad value is a usage error (exit 2) naming the option before anything runs.
 * Each parse function is called with the bag commander could never build (the wrong kind), and the
 * CLI is run in process with the bad and hostile values a user or an agent could type.
 */
import { existsSync, readdirSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, test } from 'vitest';
import { fsmAcceptInput, fsmCheckInput, fsmRenderInput } from '../src/commands/fsm-inputs.js';
import { importInput } from '../src/commands/import/inputs.js';
import { initInput } from '../src/commands/init-inputs.js';
import { planFmtInput } from '../src/commands/plan-inputs.js';
import { quickstartInput } from '../src/commands/quickstart-inputs.js';
import { serveInput } from '../src/commands/serve/inputs.js';
import { storeExportInput, storeImportInput } from '../src/commands/store/inputs.js';
import type { Io } from '../src/context.js';
import { CliError } from '../src/errors.js';
import { run } from '../src/main.js';
import type { OptionBag } from '../src/option-values.js';

const repoRoot = fileURLToPath(new URL('../../..', import.meta.url));
const FDC = join(repoRoot, 'protocols/fdc.fsm.json');

function capture(cwd: string, stdin = ''): { io: Io; out: () => string; err: () => string } {
  let out = '';
  let err = '';
  return {
    io: { stdout: (t) => void (out += t), stderr: (t) => void (err += t), isTTY: false, env: {}, cwd, readStdin: () => Promise.resolve(stdin) },
    out: () => out,
    err: () => err,
  };
}

async function emptyDir(): Promise<string> {
  return mkdtemp(join(tmpdir(), 'cli-edges-'));
}

/** Runs `ratchet <args>` in process in `cwd`; exit code and what it printed. */
async function ratchet(cwd: string, args: string[], stdin = ''): Promise<{ code: number; out: string; err: string }> {
  const c = capture(cwd, stdin);
  const code = await run([...args, '--cwd', cwd], c.io);
  return { code, out: c.out(), err: c.err() };
}

/** The parse function refuses the bag with a usage error (exit 2) whose message is `message`. */
function refuses(parse: () => unknown, message: string | RegExp): void {
  let thrown: unknown;
  try {
    parse();
  } catch (err) {
    thrown = err;
  }
  expect(thrown).toBeInstanceOf(CliError);
  expect((thrown as CliError).exitCode).toBe(2);
  if (typeof message === 'string') expect((thrown as CliError).message).toBe(message);
  else expect((thrown as CliError).message).toMatch(message);
}

const bag = (value: Record<string, unknown>): OptionBag => value;

describe('fsm check / render / accept', () => {
  test('parse: the files as given, --strict only when commander set it; a value for the flag is refused', () => {
    expect(fsmCheckInput(['a.json', '__proto__'], bag({ strict: true, json: false }))).toEqual({ files: ['a.json', '__proto__'], strict: true });
    expect(fsmCheckInput(['a.json'], bag({}))).toEqual({ files: ['a.json'], strict: false });
    refuses(() => fsmCheckInput(['a.json'], bag({ strict: 'yes' })), '--strict takes no value');
  });

  test('render: --format of the wrong kind or value names the option; no file is a usage error', () => {
    refuses(() => fsmRenderInput(['m.json'], bag({ format: 7 })), '--format takes a value');
    refuses(() => fsmRenderInput(['m.json'], bag({ format: 'svg' })), '--format must be one of mermaid, dot');
    refuses(() => fsmRenderInput([], bag({})), 'fsm render: missing <file>');
    expect(fsmRenderInput(['m.json'], bag({}))).toEqual({ file: 'm.json', format: 'mermaid' });
  });

  test('render --format svg through the CLI: exit 2 naming --format', async () => {
    const r = await ratchet(repoRoot, ['fsm', 'render', FDC, '--format', 'svg']);
    expect(r.code).toBe(2);
    expect(r.err).toContain('--format');
    expect(r.out).toBe('');
  });

  test('accept: --from-file of the wrong kind, or with inline symbols, is a usage error naming it', async () => {
    refuses(() => fsmAcceptInput(['m.json'], bag({ fromFile: true })), '--from-file takes a value');
    refuses(() => fsmAcceptInput(['m.json', 'plan_op'], bag({ fromFile: 'w.txt' })), 'fsm accept: give the symbols either as arguments or with --from-file, not both');
    refuses(() => fsmAcceptInput([], bag({})), 'fsm accept: missing <file>');
    const both = await ratchet(repoRoot, ['fsm', 'accept', FDC, 'plan_op', '--from-file', 'symbols.txt']);
    expect(both.code).toBe(2);
    expect(both.err).toContain('--from-file, not both');
  });

  test('accept: hostile --from-file values (a __proto__ name, CRLF symbols) read as plain files', async () => {
    const dir = await emptyDir();
    const missing = await ratchet(dir, ['fsm', 'accept', FDC, '--from-file', '__proto__']);
    expect(missing.code).toBe(2);
    expect(missing.err).toContain('__proto__');
    await writeFile(join(dir, '__proto__'), 'plan_op\r\nstep_op\r\nwrite_op\r\nclose_op\r\n');
    const crlf = await ratchet(dir, ['fsm', 'accept', FDC, '--from-file', '__proto__']);
    expect(crlf.code, crlf.err).toBe(0);
    expect(crlf.out).toContain('accepted: 4 symbols');
  });

  test('check: a file named __proto__ or with CRLF in its name is reported, not looked up', async () => {
    const dir = await emptyDir();
    const r = await ratchet(dir, ['fsm', 'check', '__proto__', 'bad\r\nname.json', FDC]);
    expect(r.code).toBe(2);
    expect(r.err).toContain('__proto__');
    expect(r.out).toContain('no problems');
  });
});

describe('plan fmt', () => {
  test('parse: no plan is the usage error it always was; --write only when commander set it', () => {
    refuses(() => planFmtInput([], bag({ write: true })), 'plan fmt: missing <plan>');
    expect(planFmtInput(['p.txt'], bag({}))).toEqual({ plan: 'p.txt', write: false });
    refuses(() => planFmtInput(['p.txt'], bag({ write: 'yes' })), '--write takes no value');
  });

  test('a plan path named __proto__ that does not exist: exit 2 naming it, nothing written', async () => {
    const dir = await emptyDir();
    const r = await ratchet(dir, ['plan', 'fmt', '__proto__', '--write']);
    expect(r.code).toBe(2);
    expect(r.err).toContain('__proto__');
    expect(readdirSync(dir)).toEqual([]);
  });
});

describe('store export / import', () => {
  test('parse: --out of the wrong kind names the option; import needs its file', () => {
    refuses(() => storeExportInput([], bag({ out: 5 })), '--out takes a value');
    refuses(() => storeImportInput([]), 'import needs the export file (or "-" for standard input)');
    expect(storeExportInput([], bag({}))).toEqual({ out: undefined });
  });

  test('export --out __proto__ or a CRLF name without .jsonl is refused (exit 2) and nothing is written', async () => {
    const dir = await emptyDir();
    for (const out of ['__proto__', 'state\r\n.txt']) {
      const r = await ratchet(dir, ['store', 'export', '--out', out]);
      expect(r.code, out).toBe(2);
      expect(r.err, out).toContain('--out');
    }
    expect(readdirSync(dir)).toEqual([]);
  });

  test('import __proto__ (no such file): exit 2 naming it', async () => {
    const dir = await emptyDir();
    const r = await ratchet(dir, ['store', 'import', '__proto__']);
    expect(r.code).toBe(2);
    expect(r.err).toContain('__proto__');
  });
});

describe('serve', () => {
  test('parse: defaults, brackets off an IPv6 address; the wrong kind names the option', () => {
    expect(serveInput([], bag({}))).toEqual({ port: 7420, host: '127.0.0.1' });
    expect(serveInput([], bag({ port: '0', host: '[::1]' }))).toEqual({ port: 0, host: '::1' });
    refuses(() => serveInput([], bag({ port: 8080 })), '--port takes a value');
    refuses(() => serveInput([], bag({ host: ['a', 'b'] })), '--host takes a value');
  });

  test('bad and hostile ports and hosts: exit 2 with the message naming the option, before anything listens', async () => {
    const dir = await emptyDir();
    const ports = ['-1', '65536', '99999999999999999999', '1e3', '0x10', ' 80', '80\r\n', '８０', '__proto__'];
    for (const port of ports) {
      const r = await ratchet(dir, ['serve', '--port', port]);
      expect(r.code, JSON.stringify(port)).toBe(2);
      expect(r.err, JSON.stringify(port)).toContain(`--port ${JSON.stringify(port)}: expected a port number from 0 to 65535 (0: any free port)`);
      expect(r.out).toBe('');
    }
    for (const host of ['a b', 'http://x/', 'evil\r\nhost', 'user@host', '']) {
      const r = await ratchet(dir, ['serve', '--host', host, '--port', '0']);
      expect(r.code, JSON.stringify(host)).toBe(2);
      expect(r.err, JSON.stringify(host)).toContain(`--host ${JSON.stringify(host)}: expected an address or host name`);
      expect(r.out).toBe('');
    }
  });
});

describe('quickstart', () => {
  test('parse: --dir of the wrong kind names the option', () => {
    refuses(() => quickstartInput([], bag({ dir: true })), '--dir takes a value');
    expect(quickstartInput([], bag({}))).toEqual({ dir: undefined });
  });

  test('--dir naming a non-empty directory with CRLF in its name is refused (exit 2), its file left alone', async () => {
    const parent = await emptyDir();
    const name = 'tour\r\ndir';
    await mkdir(join(parent, name));
    await writeFile(join(parent, name, 'mine.txt'), 'keep me');
    const r = await ratchet(parent, ['quickstart', '--dir', name]);
    expect(r.code).toBe(2);
    expect(r.err).toContain(`--dir ${name} is not empty`);
    expect(readdirSync(join(parent, name))).toEqual(['mine.txt']);
    expect(await readFile(join(parent, name, 'mine.txt'), 'utf8')).toBe('keep me');
  });
});

describe('import', () => {
  test('parse: an unknown system (also one named like an Object property) is a usage error listing the systems', () => {
    const message = (s: string): string => `import: unknown system ${JSON.stringify(s)} (expected one of jules, jixo, ftl, claude-orchestration, frontal-cortex, auto)`;
    for (const s of ['nope', '__proto__', 'toString', 'constructor', 'ftl\r\n']) refuses(() => importInput([s], bag({})), message(s));
    refuses(() => importInput([], bag({})), message(''));
    expect(importInput(['auto'], bag({ write: true }))).toEqual({ system: 'auto', dir: undefined, write: true });
    expect(importInput(['ftl', '../x'], bag({}))).toEqual({ system: 'ftl', dir: '../x', write: false });
    refuses(() => importInput(['ftl'], bag({ write: 'yes' })), '--write takes no value');
  });

  test('through the CLI: __proto__ as the system, and a CRLF directory, are exit 2 and write nothing', async () => {
    const dir = await emptyDir();
    const system = await ratchet(dir, ['import', '__proto__', '--write']);
    expect(system.code).toBe(2);
    expect(system.err).toContain('import: unknown system "__proto__"');
    const where = await ratchet(dir, ['import', 'auto', 'x\r\ny', '--write']);
    expect(where.code).toBe(2);
    expect(where.err).toContain('is not a directory');
    expect(readdirSync(dir)).toEqual([]);
  });
});

describe('init', () => {
  test('parse: harnesses checked and without repeats; --reasoning-flow true, a name, false or nothing', () => {
    expect(initInput([], bag({ dryRun: true, claude: true, harness: ['codex', 'gemini', 'codex'], reasoningFlow: true }))).toEqual({ dryRun: true, claude: true, harnesses: ['codex', 'gemini'], reasoningFlow: 'reasoning' });
    expect(initInput([], bag({}))).toEqual({ dryRun: false, claude: false, harnesses: [], reasoningFlow: undefined });
    expect(initInput([], bag({ reasoningFlow: false })).reasoningFlow).toBe(false);
    expect(initInput([], bag({ reasoningFlow: 'research-v2' })).reasoningFlow).toBe('research-v2');
  });

  test('parse: the wrong kinds name the option', () => {
    refuses(() => initInput([], bag({ harness: 'codex' })), '--harness takes a value each time it is given');
    refuses(() => initInput([], bag({ harness: ['codex', 3] })), '--harness takes a value each time it is given');
    refuses(() => initInput([], bag({ reasoningFlow: 3 })), '--reasoning-flow 3: expected a flow name such as reasoning (the flows are in protocols/flows/)');
  });

  test('bad and hostile --harness and --reasoning-flow values: exit 2 naming the option, and nothing is written', async () => {
    const dir = await emptyDir();
    const cases: [string[], string][] = [
      [['--harness', 'vscode'], '--harness vscode: unknown agent CLI (known: claude, codex, gemini, copilot, opencode)'],
      [['--harness', '__proto__'], '--harness __proto__: unknown agent CLI'],
      [['--harness', 'co\r\ndex'], '--harness co\r\ndex: unknown agent CLI'],
      [['--harness', 'codex,constructor'], '--harness constructor: unknown agent CLI'],
      [['--reasoning-flow', '../../etc/passwd'], '--reasoning-flow "../../etc/passwd": expected a flow name'],
      [['--reasoning-flow', '__proto__'], '--reasoning-flow "__proto__": expected a flow name'],
      [['--reasoning-flow', 'reasoning\r\n'], '--reasoning-flow "reasoning\\r\\n": expected a flow name'],
      [['--reasoning-flow', 'x'.repeat(200)], 'expected a flow name'],
    ];
    for (const [args, message] of cases) {
      const r = await ratchet(dir, ['init', '--claude', ...args]);
      expect(r.code, args.join(' ')).toBe(2);
      expect(r.err, args.join(' ')).toContain(message);
    }
    // Refused at the edge, before the first scaffold file: the repository is as it was.
    expect(readdirSync(dir)).toEqual([]);
    expect(existsSync(join(dir, 'ratchet.config.json'))).toBe(false);
  });
});
