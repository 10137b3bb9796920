import { describe, expect, it } from 'vitest';
import { INSTALL_HINT } from '../src/testing.js';
import { skipBanner } from './support/global-setup.js';

// Runs with or without PostgreSQL: what a machine without it sees.
describe('a run without PostgreSQL', () => {
  it('skips loudly, saying how to install PostgreSQL', () => {
    const banner = skipBanner(`no PostgreSQL; ${INSTALL_HINT}`, {});
    expect(banner).toContain('SKIPPED');
    expect(banner).toContain('apt-get install postgresql');
    expect(banner).toContain('RATCHET_TEST_PG_URL');
  });

  it('fails instead under RATCHET_REQUIRE_PG=1, so CI cannot pass without it', () => {
    expect(() => skipBanner('no PostgreSQL', { RATCHET_REQUIRE_PG: '1' })).toThrow(/RATCHET_REQUIRE_PG=1 but no PostgreSQL/u);
  });
});
