// The project the hook start-up benchmarks run in: a task executing a plan whose current step writes
// src/a.js (strictness enforce), so pre-tool-use reads the session, the config and the dialect, and
// stop finds an obligation and records a block (up to 1,000 times a session).
import { spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const root = fileURLToPath(new URL('../../..', import.meta.url));
export const bin = join(root, 'apps/cli/bin/ratchet.js');

export function executingProject(prefix) {
  const project = mkdtempSync(join(tmpdir(), prefix));
  const ratchet = (...args) => {
    const r = spawnSync(process.execPath, [bin, ...args, '--quiet', '--cwd', project], { encoding: 'utf8' });
    if (r.status !== 0) throw new Error(`${args.join(' ')} exited ${r.status}: ${r.stderr}`);
  };
  ratchet('init');
  writeFileSync(join(project, 'ratchet.config.json'), JSON.stringify({ hooks: { strictness: 'enforce', maxStopBlocks: 1000 } }));
  writeFileSync(join(project, 'plan.txt'), 'set_plan bench\nplan_step_complete\ncreate_file_with_block src/a.js\nrun_in_bash_session close\n');
  ratchet('task', 'start', '--task-id', 'bench', '--no-network');
  ratchet('run', 'plan', 'plan.txt');
  ratchet('run', 'done');
  ratchet('run', 'done');
  return project;
}
