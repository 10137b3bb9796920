/**
 * The edge of `ratchet protocol show`: an id or --all, one of the two, parsed before anything is
 * loaded (src/commands/protocol/inputs.ts).
 */
import { describe, expect, test } from 'vitest';
import { showInput } from '../src/commands/protocol/inputs.js';
import { usage } from './edge-support.js';

describe('protocol show input', () => {
  test('an id or --all, with the protocols directory', () => {
    expect(showInput(['core'], {})).toEqual({ id: 'core', all: false, protocols: undefined });
    expect(showInput([], { all: true, protocols: 'p' })).toEqual({ id: undefined, all: true, protocols: 'p' });
  });

  test('both, neither, or a wrong kind is a usage error naming what to give', () => {
    expect(usage(() => showInput(['core'], { all: true }))).toBe('protocol show: give a protocol id or --all, not both');
    expect(usage(() => showInput([], {}))).toBe('protocol show: name a protocol (`ratchet protocol show <id>`) or pass --all; the ids are the headings of AGENTS.md');
    expect(usage(() => showInput([], { all: 'yes' }))).toBe('--all takes no value');
    expect(usage(() => showInput(['core'], { protocols: ['a', 'b'] }))).toBe('--protocols takes a value');
  });
});
