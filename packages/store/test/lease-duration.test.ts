import { describe, expect, test } from 'vitest';
import { MAX_LEASE_MS, MIN_LEASE_MS, formatLeaseDuration, parseDurationText, parseLeaseDuration } from '../src/index.js';

describe('lease lengths', () => {
  test('units and bare milliseconds; the shortest exact form back', () => {
    expect(parseLeaseDuration('15m')).toBe(900_000);
    expect(parseLeaseDuration('30s')).toBe(30_000);
    expect(parseLeaseDuration('2h')).toBe(7_200_000);
    expect(parseLeaseDuration('500ms')).toBe(500);
    expect(parseLeaseDuration('250')).toBe(250);
    expect(parseLeaseDuration(' 15m ')).toBe(900_000);
    expect([900_000, 90_000, 250, 3_600_000].map(formatLeaseDuration)).toEqual(['15m', '90s', '250ms', '1h']);
    for (const ms of [MIN_LEASE_MS, 1234, 60_000, MAX_LEASE_MS]) expect(parseLeaseDuration(formatLeaseDuration(ms))).toBe(ms);
  });

  test('refused: malformed, negative, fractional, out of range, hostile', () => {
    for (const bad of ['', 'm', '15', '1x', '-5m', '1.5m', '15 m', '15M', '99', `${MAX_LEASE_MS + 1}`, '169h', '9'.repeat(400), '15m\n', 'Infinity', 'NaN', '0x10s']) {
      expect({ bad, ms: parseLeaseDuration(bad) }).toEqual({ bad, ms: bad === '15m\n' ? 900_000 : undefined });
    }
  });
});

describe('parseDurationText (every duration option of the CLI)', () => {
  test('a bare number is in the given unit; fractions only when asked for', () => {
    expect(parseDurationText('90')).toBe(90);
    expect(parseDurationText('90', { bareUnit: 's' })).toBe(90_000);
    expect(parseDurationText('1.5h')).toBeUndefined();
    expect(parseDurationText('1.5h', { fractions: true })).toBe(5_400_000);
    expect(parseDurationText('0.0001s', { fractions: true })).toBeUndefined();
    for (const bad of ['', '0', '0s', '-1s', '1e3', '1.5.2s', 'NaN', '90 s']) expect({ bad, ms: parseDurationText(bad, { bareUnit: 's', fractions: true }) }).toEqual({ bad, ms: undefined });
  });
});
