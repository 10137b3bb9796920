/**
 * The edge of the flow commands that have no MCP tool of their own (status for people, resume,
 * decline): commander's option bag parsed once (src/commands/flow/inputs.ts) into typed inputs. A
 * wrong kind is a usage error (exit 2) naming the option; a hostile session id never reaches a path.
 */
import { existsSync, mkdtempSync, readFileSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { declineInput, resumeInput, statusInput } from '../src/commands/flow/inputs.js';
import { inProcess, usage } from './edge-support.js';

const ratchet = (cwd: string, ...argv: string[]): ReturnType<typeof inProcess> => inProcess(cwd, argv);

const project = (): string => mkdtempSync(join(tmpdir(), 'ratchet-flow-edge-'));

describe('flow status, resume, decline: the parse functions', () => {
  test('typed inputs: repeatable options as lists (empty when not given)', () => {
    expect(statusInput([], {})).toEqual({ session: undefined });
    expect(statusInput([], { session: 's1' })).toEqual({ session: 's1' });
    expect(resumeInput([], { session: 's1' })).toEqual({ session: 's1', answers: [], notes: [] });
    expect(resumeInput([], { session: 's1', answer: ['a', 'b'], note: ['n'] })).toEqual({ session: 's1', answers: ['a', 'b'], notes: ['n'] });
    expect(declineInput([], { session: 's1', reason: 'not now' })).toEqual({ session: 's1', reason: 'not now' });
  });

  test('wrong kinds and missing required options are usage errors naming the option, as before', () => {
    expect(usage(() => statusInput([], { session: true }))).toBe('--session takes a value');
    expect(usage(() => resumeInput([], {}))).toBe('missing --session <id>');
    expect(usage(() => resumeInput([], { session: 's1', answer: 'one' }))).toBe('--answer takes a value each time it is given');
    expect(usage(() => resumeInput([], { session: 's1', note: [1] }))).toBe('--note takes a value each time it is given');
    expect(usage(() => declineInput([], { session: 's1' }))).toBe('missing --reason <text>');
    expect(usage(() => declineInput([], { reason: 'x' }))).toBe('missing --session <id>');
    expect(usage(() => declineInput([], { session: 's1', reason: ['x'] }))).toBe('--reason takes a value');
  });
});

describe('flow status, resume, decline: through the CLI', () => {
  test('hostile session ids (__proto__, traversal, CRLF, huge) are exit 2 naming the id; nothing is written', async () => {
    const root = project();
    for (const id of ['__proto__', '../../etc/passwd', 'a\r\nb', 'x'.repeat(10_000)]) {
      for (const argv of [
        ['flow', 'status', '--session', id],
        ['flow', 'resume', '--session', id, '--answer', 'yes'],
        ['flow', 'decline', '--session', id, '--reason', 'no'],
      ]) {
        const r = await ratchet(root, ...argv);
        expect(r.code, `${argv[1]} ${JSON.stringify(id).slice(0, 20)}`).toBe(2);
        expect(r.err).toContain(`session id ${JSON.stringify(id)} must be 1-128 letters`);
      }
    }
    expect(existsSync(join(root, '.ratchet')) ? readdirSync(join(root, '.ratchet')) : []).not.toContain('flows');
  });

  test('a missing value or required option is exit 2 naming it', async () => {
    const root = project();
    const noReason = await ratchet(root, 'flow', 'decline', '--session', 's1');
    expect(noReason.code).toBe(2);
    expect(noReason.err).toContain("required option '--reason <text>' not specified");
    const noAnswer = await ratchet(root, 'flow', 'resume', '--session', 's1', '--answer');
    expect(noAnswer.code).toBe(2);
    expect(noAnswer.err).toContain("option '--answer <text>' argument missing");
  });

  test('resume through the edge: an answer with CRLF is refused (exit 2, still halted); __proto__ answers are kept as given, in order', async () => {
    const root = project();
    expect((await ratchet(root, 'flow', 'start', 'reasoning', '--session', 'h', '--input', 'query=add a login page')).code).toBe(0);
    expect((await ratchet(root, 'flow', 'advance', '--session', 'h', '--question', 'Which users?', '--question', 'Which database?')).code).toBe(0);
    const status = await ratchet(root, 'flow', 'status');
    expect(status).toMatchObject({ code: 0, out: expect.stringMatching(/^h {2}reasoning {2}HALTED/) as unknown });
    const crlf = await ratchet(root, 'flow', 'resume', '--session', 'h', '--answer', 'admins\r\nonly', '--answer', 'Postgres');
    expect(crlf).toMatchObject({ code: 2, err: 'ratchet: an answer must be one non-empty line of text\n' });
    const read = (): { status: string; clarificationAnswers?: string[] } => JSON.parse(readFileSync(join(root, '.ratchet/flows/h.json'), 'utf8')) as { status: string; clarificationAnswers?: string[] };
    expect(read().status).toBe('HALTED');
    const resumed = await ratchet(root, 'flow', 'resume', '--session', 'h', '--answer', '__proto__', '--answer', 'constructor', '--note', 'toString');
    expect(resumed.err).toBe('');
    expect(resumed.code).toBe(0);
    expect(read()).toMatchObject({ status: 'EXECUTING', clarificationAnswers: ['__proto__', 'constructor'] });
  });
});
