import { spawnSync } from 'node:child_process';
import { describe, expect, test } from 'vitest';
import { bin, tempDir } from '../helpers.js';

describe('output into a closed pipe', () => {
  test('`ratchet quickstart | head -n 1` ends quietly: no EPIPE stack trace, the reader gets its line', () => {
    const dir = tempDir('ratchet-pipe-');
    // The tour prints hundreds of lines; head exits after the first, closing the pipe under ratchet.
    const r = spawnSync('bash', ['-c', `set -o pipefail; "${process.execPath}" "${bin}" quickstart --dir "${dir}/tour" | head -n 1; echo "rc=$?" >&2`], {
      encoding: 'utf8',
      env: { ...process.env, NO_COLOR: '1' },
    });
    expect(r.stdout).toMatch(/^Ratchet quickstart in /);
    expect(r.stderr).not.toMatch(/EPIPE|internal error|at .*\.js:\d+/);
  });
});
