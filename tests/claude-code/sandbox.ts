/**
 * Claude Code's OS sandbox for the session tests: bubblewrap and socat on Linux. The pinned package
 * ships its seccomp helper without the execute bit (npm and pnpm keep the tarball's mode), which makes
 * every sandboxed command fail with exit 126; the tests make it executable, as a user would once.
 * Missing packages fail the run where CI requires the sandbox (RATCHET_REQUIRE_SANDBOX=1, set by
 * .ci/run, which installs them) and skip loudly elsewhere.
 */
import { spawnSync } from 'node:child_process';
import { chmodSync, existsSync, readdirSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { claudeCli } from './claude.js';

/** Make the pinned Claude Code's apply-seccomp helpers executable (idempotent). */
export function ensureSeccompHelper(): void {
  const dir = join(dirname(claudeCli), 'vendor', 'seccomp');
  if (!existsSync(dir)) return;
  for (const arch of readdirSync(dir)) {
    const helper = join(dir, arch, 'apply-seccomp');
    if (existsSync(helper) && (statSync(helper).mode & 0o111) === 0) chmodSync(helper, 0o755);
  }
}

/** Whether the sandbox can run here; throws when it must (RATCHET_REQUIRE_SANDBOX=1) and cannot. */
export function sandboxAvailable(): boolean {
  const missing = ['bwrap', 'socat'].filter((cmd) => spawnSync('sh', ['-c', `command -v ${cmd}`]).status !== 0);
  if (missing.length === 0) {
    ensureSeccompHelper();
    return true;
  }
  const message = `Claude Code's sandbox needs ${missing.join(' and ')} (Debian: apt-get install bubblewrap socat)`;
  if (process.env.RATCHET_REQUIRE_SANDBOX === '1') throw new Error(`${message}; RATCHET_REQUIRE_SANDBOX=1 makes this a failure`);
  console.warn(`SKIPPED: ${message}; the sandbox session tests did not run`);
  return false;
}
