/**
 * The checked readers every command's edge uses (src/option-values.ts): a value of the wrong kind is
 * a usage error (exit 2) naming the option in its --kebab form, never a silent cast or a default.
 */
import { describe, expect, test } from 'vitest';
import { argument, choiceOption, flagOption, numberFrom, stringOption, stringsOption, withInput } from '../src/option-values.js';
import { usage } from './edge-support.js';

describe('option readers', () => {
  test('stringOption: a string or nothing; any other kind names the option', () => {
    expect(stringOption({ workspaceDir: 'ws' }, 'workspaceDir')).toBe('ws');
    expect(stringOption({}, 'workspaceDir')).toBeUndefined();
    for (const wrong of [true, 3, ['a'], { a: 1 }, null]) expect(usage(() => stringOption({ workspaceDir: wrong }, 'workspaceDir'))).toBe('--workspace-dir takes a value');
  });

  test('stringsOption: a list of strings; a lone string or a mixed list is refused', () => {
    expect(stringsOption({ tag: ['a', 'b'] }, 'tag')).toEqual(['a', 'b']);
    expect(stringsOption({}, 'tag')).toBeUndefined();
    for (const wrong of ['a', ['a', 1], [null], true]) expect(usage(() => stringsOption({ tag: wrong }, 'tag'))).toBe('--tag takes a value each time it is given');
  });

  test('flagOption: true when given, false when not or negated; a value is refused, not read as false', () => {
    expect(flagOption({ dryRun: true }, 'dryRun')).toBe(true);
    expect(flagOption({ dryRun: false }, 'dryRun')).toBe(false);
    expect(flagOption({}, 'dryRun')).toBe(false);
    for (const wrong of ['yes', 'true', 1, ['x']]) expect(usage(() => flagOption({ dryRun: wrong }, 'dryRun'))).toBe('--dry-run takes no value');
  });

  test('choiceOption: one of the choices, matched exactly; __proto__ and near misses are refused', () => {
    const kinds = ['mermaid', 'dot'] as const;
    expect(choiceOption({ format: 'dot' }, 'format', kinds)).toBe('dot');
    expect(choiceOption({}, 'format', kinds)).toBeUndefined();
    for (const wrong of ['DOT', ' dot', 'dot\r\n', '__proto__', 'constructor', '']) expect(usage(() => choiceOption({ format: wrong }, 'format', kinds))).toBe('--format must be one of mermaid, dot');
  });

  test('numberFrom: the number a text names; blank, spaces and words name none (Number("") would be 0)', () => {
    expect(numberFrom('3')).toBe(3);
    expect(numberFrom(' 0.5 ')).toBe(0.5);
    for (const none of ['', '  ', '\r\n', 'abc', '__proto__']) expect(numberFrom(none)).toBeNaN();
  });

  test('argument: present, or missing by name', () => {
    expect(argument(['a', 'b'], 1, 'seq')).toBe('b');
    expect(usage(() => argument(['a'], 1, 'seq'))).toBe('missing <seq>');
  });

  test('withInput parses before the command runs: a refused option never reaches it', async () => {
    let ran = false;
    const action = withInput(
      (_args, options) => ({ dryRun: flagOption(options, 'dryRun') }),
      () => {
        ran = true;
        return Promise.resolve(0);
      },
    );
    const ctx = {} as Parameters<typeof action>[0];
    expect(() => action(ctx, [], { dryRun: 'no' })).toThrow('--dry-run takes no value');
    expect(ran).toBe(false);
    expect(await action(ctx, [], { dryRun: true })).toBe(0);
    expect(ran).toBe(true);
  });
});
