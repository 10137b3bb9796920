import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Failure, MemoryData, Pattern } from '../src/index.js';

export const NOW = Date.parse('2026-06-01T00:00:00.000Z');
export const DAY = 86_400_000;

export function emptyMemory(): MemoryData {
  return { failures: [], patterns: [] };
}

export function failure(name: string, trigger: string, extra: Partial<Failure> = {}): Failure {
  return {
    name,
    trigger,
    fix: `fix for ${name}`,
    match: null,
    cost: 1000,
    source: [],
    access_count: 0,
    last_accessed: null,
    related: [],
    related_typed: {},
    times_helped: 0,
    times_failed: 0,
    created_at: new Date(NOW).toISOString(),
    ...extra,
  };
}

export function pattern(name: string, trigger: string, extra: Partial<Pattern> = {}): Pattern {
  return {
    name,
    trigger,
    insight: `insight for ${name}`,
    saved: 1000,
    source: [],
    access_count: 0,
    last_accessed: null,
    related: [],
    related_typed: {},
    times_helped: 0,
    times_failed: 0,
    created_at: new Date(NOW).toISOString(),
    ...extra,
  };
}

export function tempDir(): string {
  return mkdtempSync(join(tmpdir(), 'ratchet-memory-'));
}
