import { cp, mkdir, mkdtemp, readFile, readdir, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import type { Context, Io } from '../context.js';
import { CliError } from '../errors.js';
import { EXIT_OK, EXIT_PROBLEMS } from '../exit-codes.js';
import { withInput } from '../option-values.js';
import { assetPath } from '../paths.js';
import { TOUR } from '../quickstart/tour.js';
import { makeStyle } from '../style.js';
import { quickstartInput, type QuickstartInput } from './quickstart-inputs.js';

interface StepResult {
  title: string;
  command: string;
  exitCode: number;
  expectedExitCode: number;
  output: string;
}

/** `ratchet quickstart [--dir D]`: run the tour's real commands in a fresh directory and show their output. */
async function quickstart(ctx: Context, input: QuickstartInput): Promise<number> {
  const dir = await prepareDirectory(ctx, input.dir);
  const style = makeStyle(ctx.color);
  const { run } = await import('../main.js');
  ctx.out(style.bold(`Ratchet quickstart in ${dir}`));
  ctx.out('');

  const results: StepResult[] = [];
  for (const [index, step] of TOUR.entries()) {
    for (const example of step.examples ?? []) {
      const target = join(dir, 'examples', example);
      await mkdir(dirname(target), { recursive: true });
      await cp(assetPath('examples', example), target);
    }
    // What the agent did before reporting the step (the tour plays the agent).
    for (const [rel, text] of Object.entries(step.writes ?? {})) {
      await mkdir(dirname(join(dir, rel)), { recursive: true });
      await writeFile(join(dir, rel), text);
    }
    let output = '';
    let exitCode = 0;
    const stdin = step.stdin === undefined ? '' : await readFile(join(dir, 'examples', step.stdin), 'utf8');
    const capture: Io = { ...ctx.io, cwd: dir, isTTY: false, stdout: (t) => void (output += t), stderr: (t) => void (output += t), readStdin: () => Promise.resolve(stdin), stdinIsTTY: step.stdin === undefined };
    const times = step.repeat ?? 1;
    for (let n = 0; n < times; n++) {
      output = '';
      exitCode = await run([...step.args, '--cwd', dir], capture);
      if (exitCode !== step.expectExit) break;
    }
    // A hook always exits 0: what it decided is in its answer.
    const behaved = exitCode === step.expectExit && (step.expectOutput === undefined || output.includes(step.expectOutput));
    const command = `ratchet ${step.args.join(' ')}${step.stdin === undefined ? '' : ` < examples/${step.stdin}`}${times > 1 ? `   (${times} times; the last output shown)` : ''}`;
    results.push({ title: step.title, command, exitCode, expectedExitCode: step.expectExit, output });

    ctx.out(style.bold(`${index + 1}. ${step.title}`));
    ctx.out(style.dim(`   ${step.explain}`));
    ctx.out(`   $ ${command}`);
    for (const line of output.trimEnd().split('\n')) ctx.out(`   ${line}`);
    ctx.out(style.dim(`   (exit ${exitCode})`));
    ctx.out('');
    if (!behaved) {
      if (ctx.json) ctx.emitJson({ ok: false, dir, steps: results });
      const why = exitCode !== step.expectExit ? `exited ${exitCode}, expected ${step.expectExit}` : `printed no ${JSON.stringify(step.expectOutput)}`;
      throw new CliError(`quickstart step ${index + 1} ("${step.title}") ${why}`, {
        exitCode: EXIT_PROBLEMS,
        code: 'quickstart-failed',
      });
    }
  }
  if (ctx.json) ctx.emitJson({ ok: true, dir, steps: results });
  ctx.out(style.green(`✔ ${TOUR.length} steps behaved as described. The files are in ${dir}.`));
  ctx.out('Next: `ratchet init` in your own repository, then `ratchet --help`.');
  return EXIT_OK;
}
export default withInput(quickstartInput, quickstart);

async function prepareDirectory(ctx: Context, requested: string | undefined): Promise<string> {
  if (requested === undefined) return mkdtemp(join(tmpdir(), 'ratchet-quickstart-'));
  const dir = resolve(ctx.cwd, requested);
  const entries = await readdir(dir).catch((err: NodeJS.ErrnoException) => {
    if (err.code === 'ENOENT') return [];
    throw new CliError(`--dir ${requested}: ${err.message}`, { file: dir });
  });
  if (entries.length > 0) {
    throw new CliError(`--dir ${requested} is not empty; the quickstart needs a fresh directory so it cannot clobber your files`, {
      file: dir,
      code: 'dir-not-empty',
    });
  }
  await mkdir(dir, { recursive: true });
  return dir;
}
