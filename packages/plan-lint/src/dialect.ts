/**
 * Dialects: the command -> FSM symbol mapping as data (protocols/*.dialect.json). Validated by hand
 * here (the zod schema in schema.ts is the source of the shipped JSON Schema; the main entry must
 * not load zod), then compiled into Maps and RegExps for the lint hot path.
 */
import type { Machine } from '@ratchet/fsm-core';
import type { z } from 'zod';
import type { DialectCommandSchema, DialectSchema, DialectWhenSchema } from './schema.js';
// The guard alone (one file, no imports): the main entry stays without the store's document machinery.
import { checkRegex } from '@ratchet/store/regex-guard';

export const EFFECTS = ['read', 'create', 'write', 'edit', 'delete', 'move'] as const;
export type Effect = (typeof EFFECTS)[number];
/** Effects that change the project: a plan with any of them is Read-Write. */
export const WRITE_EFFECTS: ReadonlySet<Effect> = new Set(['create', 'write', 'edit', 'delete', 'move']);

export const DIALECT_SCHEMA_URL = 'https://unpkg.com/@ratchet/plan-lint/schemas/dialect.schema.json';
export const RESERVED_COMMANDS = ['for_each_file', 'call_plan'] as const;
const UNSAFE_KEYS = new Set(['__proto__', 'constructor', 'prototype']);

/** What a command does: its FSM symbol and, optionally, its file effect and which args are paths (`path`; `to` for a move's destination). */
export type DialectAction = Pick<DialectCommand, 'symbol' | 'effect' | 'path' | 'to'>;

/** An override by arguments: `argsMatch` is tested against the raw arguments; `usage` is shown instead of the pattern. */
export type DialectWhen = z.infer<typeof DialectWhenSchema>;

/**
 * A dialect's command: its action, overrides (`when`, first match wins) and `doneMessage`, what a
 * step of it leaves only in words (`run done` needs a `--message` saying it).
 */
export type DialectCommand = z.infer<typeof DialectCommandSchema>;

/**
 * A dialect file (protocols/*.dialect.json), typed from its zod schema: `fsm` is relative to the
 * dialect file; `close` the symbol the last command of every plan must map to; `afterClose` symbols
 * that may follow it (Jules plans end `close`, then `submit`; the FSM decides the order).
 */
export type DialectDocument = z.infer<typeof DialectSchema>;

export interface CompiledCommand {
  name: string;
  /** The dialect's one-line meaning, when it gives one (for the vocabulary AGENTS.md lists). */
  description?: string;
  /** See DialectCommand.doneMessage. */
  doneMessage?: string;
  base: DialectAction;
  when: { re: RegExp; source: string; action: DialectAction; usage?: string }[];
}

export interface Dialect {
  id: string;
  description?: string;
  fsm: string;
  close: string;
  /** See DialectDocument.afterClose: empty when the close must be last. */
  afterClose: readonly string[];
  commands: ReadonlyMap<string, CompiledCommand>;
}

export interface DialectProblem {
  /** JSON pointer into the dialect document. */
  pointer: string;
  message: string;
}

export interface DialectLoadResult {
  dialect?: Dialect;
  problems: DialectProblem[];
}

const TOP_KEYS = new Set(['$schema', 'id', 'description', 'fsm', 'commands', 'close', 'afterClose']);
const ACTION_KEYS = new Set(['symbol', 'effect', 'path', 'to']);
const COMMAND_KEYS = new Set([...ACTION_KEYS, 'description', 'when', 'doneMessage']);
const WHEN_KEYS = new Set([...ACTION_KEYS, 'argsMatch', 'usage']);
const COMMAND_NAME = /^[A-Za-z_][A-Za-z0-9_.-]*$/;

/**
 * Check a parsed dialect document and compile it. Every problem is returned; `dialect` only when
 * there are none. With `machine`, symbols must be in its alphabet.
 */
export function loadDialect(raw: unknown, machine?: Machine): DialectLoadResult {
  const problems: DialectProblem[] = [];
  const bad = (pointer: string, message: string): void => void problems.push({ pointer, message });
  if (!isObject(raw)) return { problems: [{ pointer: '', message: 'a dialect must be a JSON object' }] };
  for (const key of Object.keys(raw)) if (!TOP_KEYS.has(key)) bad(`/${esc(key)}`, `unknown property ${JSON.stringify(key)}`);
  const str = (key: string): string | undefined => {
    const v = own(raw, key);
    if (typeof v !== 'string' || v.length === 0) {
      bad(`/${key}`, `"${key}" must be a non-empty string`);
      return undefined;
    }
    return v;
  };
  const id = str('id');
  const fsm = str('fsm');
  const close = str('close');
  for (const key of ['$schema', 'description']) if (own(raw, key) !== undefined && typeof own(raw, key) !== 'string') bad(`/${esc(key)}`, `"${key}" must be a string`);
  const alphabet = machine ? new Set(machine.alphabet) : undefined;
  const checkSymbol = (pointer: string, symbol: unknown): symbol is string => {
    if (typeof symbol !== 'string' || symbol.length === 0) return void bad(pointer, '"symbol" must be a non-empty string'), false;
    if (alphabet && !alphabet.has(symbol)) return void bad(pointer, `symbol ${JSON.stringify(symbol)} is not in the FSM's alphabet (${[...alphabet].join(', ')})`), false;
    return true;
  };
  const action = (at: string, o: Record<string, unknown>): DialectAction | undefined => {
    const ok0 = checkSymbol(`${at}/symbol`, own(o, 'symbol'));
    const out: DialectAction = { symbol: own(o, 'symbol') as string };
    let ok = ok0;
    const effect = own(o, 'effect');
    if (effect !== undefined) {
      if (!(EFFECTS as readonly unknown[]).includes(effect)) {
        bad(`${at}/effect`, `"effect" must be one of ${EFFECTS.join(', ')}`);
        ok = false;
      } else out.effect = effect as Effect;
    }
    for (const key of ['path', 'to'] as const) {
      const v = own(o, key);
      if (v === undefined) continue;
      if (typeof v !== 'number' || !Number.isSafeInteger(v) || v < 0) {
        bad(`${at}/${key}`, `"${key}" must be an argument index (an integer >= 0)`);
        ok = false;
      } else out[key] = v;
    }
    if (out.effect !== undefined && out.path === undefined) {
      bad(at, `a command with an effect needs "path" (the index of its file argument)`);
      ok = false;
    }
    if (out.effect === 'move' && out.to === undefined) {
      bad(at, 'a "move" effect needs "to" (the index of its destination argument)');
      ok = false;
    }
    return ok ? out : undefined;
  };

  const commands = new Map<string, CompiledCommand>();
  const rawCommands = own(raw, 'commands');
  if (!isObject(rawCommands)) bad('/commands', '"commands" must be an object of command name -> {symbol, ...}');
  else {
    for (const name of Object.keys(rawCommands).sort()) {
      const at = `/commands/${esc(name)}`;
      if (UNSAFE_KEYS.has(name)) {
        bad(at, `the command name ${JSON.stringify(name)} is refused`);
        continue;
      }
      if (!COMMAND_NAME.test(name)) bad(at, `command names must match ${COMMAND_NAME.source}`);
      if ((RESERVED_COMMANDS as readonly string[]).includes(name)) bad(at, `${name} is a directive of the plan language, not a dialect command`);
      const c = rawCommands[name];
      if (!isObject(c)) {
        bad(at, 'a command must be an object with "symbol"');
        continue;
      }
      for (const key of Object.keys(c)) if (!COMMAND_KEYS.has(key)) bad(`${at}/${esc(key)}`, `unknown property ${JSON.stringify(key)}`);
      if (own(c, 'description') !== undefined && typeof own(c, 'description') !== 'string') bad(`${at}/description`, '"description" must be a string');
      const doneMessage = own(c, 'doneMessage');
      if (doneMessage !== undefined && (typeof doneMessage !== 'string' || doneMessage.trim() === '')) bad(`${at}/doneMessage`, '"doneMessage" must be a non-empty string');
      const base = action(at, c);
      const when: CompiledCommand['when'] = [];
      const rawWhen = own(c, 'when');
      if (rawWhen !== undefined) {
        if (!Array.isArray(rawWhen)) bad(`${at}/when`, '"when" must be an array');
        else
          rawWhen.forEach((w, i) => {
            const wat = `${at}/when/${i}`;
            if (!isObject(w)) return bad(wat, 'a "when" entry must be an object with "argsMatch" and "symbol"');
            for (const key of Object.keys(w)) if (!WHEN_KEYS.has(key)) bad(`${wat}/${esc(key)}`, `unknown property ${JSON.stringify(key)}`);
            const src = own(w, 'argsMatch');
            let re: RegExp | undefined;
            if (typeof src !== 'string') bad(`${wat}/argsMatch`, '"argsMatch" must be a regular expression string');
            else {
              try {
                re = new RegExp(src, 'u');
              } catch (err) {
                bad(`${wat}/argsMatch`, `invalid regular expression: ${(err as Error).message}`);
              }
              // Every plan line of this command runs the pattern: one that backtracks catastrophically
              // (`(a+)+$` on 40 "a"s and a "!") would hang lint and the run for minutes. Refused here.
              const verdict = re === undefined ? undefined : checkRegex(src);
              if (verdict !== undefined && !verdict.safe) {
                bad(`${wat}/argsMatch`, `unsafe regular expression: ${verdict.reason}`);
                re = undefined;
              }
            }
            const usage = own(w, 'usage');
            if (usage !== undefined && (typeof usage !== 'string' || usage.trim() === '')) bad(`${wat}/usage`, '"usage" must be a non-empty string');
            const a = action(wat, w);
            if (re && a) when.push({ re, source: src as string, action: a, ...(typeof usage === 'string' && usage.trim() !== '' ? { usage } : {}) });
          });
      }
      const description = own(c, 'description');
      if (base) {
        commands.set(name, {
          name,
          base,
          when,
          ...(typeof description === 'string' ? { description } : {}),
          ...(typeof doneMessage === 'string' && doneMessage.trim() !== '' ? { doneMessage } : {}),
        });
      }
    }
  }
  if (close !== undefined) {
    checkSymbol('/close', close);
    const used = [...commands.values()].some((c) => c.base.symbol === close || c.when.some((w) => w.action.symbol === close));
    if (!used && isObject(rawCommands)) bad('/close', `no command maps to the close symbol ${JSON.stringify(close)}`);
  }
  const afterClose: string[] = [];
  const rawAfter = own(raw, 'afterClose');
  if (rawAfter !== undefined) {
    if (!Array.isArray(rawAfter)) bad('/afterClose', '"afterClose" must be an array of FSM symbols');
    else
      rawAfter.forEach((symbol, i) => {
        if (!checkSymbol(`/afterClose/${i}`, symbol)) return;
        if (symbol === close) bad(`/afterClose/${i}`, `the close symbol ${JSON.stringify(close)} cannot also follow the close`);
        else afterClose.push(symbol);
      });
  }
  if (problems.length > 0 || id === undefined || fsm === undefined || close === undefined) return { problems };
  const description = own(raw, 'description');
  return { dialect: { id, fsm, close, afterClose, commands, ...(typeof description === 'string' ? { description } : {}) }, problems };
}

/** The action a command line performs (first matching `when`, else the command's own). */
export function actionFor(command: CompiledCommand, raw: string): DialectAction {
  for (const w of command.when) if (w.re.test(raw)) return w.action;
  return command.base;
}

/** How a user writes the command that produces `symbol`, for messages: `set_plan`, `run_in_bash_session close`. */
export function commandsForSymbol(dialect: Dialect, symbol: string): string[] {
  const out: string[] = [];
  for (const c of dialect.commands.values()) {
    if (c.base.symbol === symbol) out.push(c.name);
    for (const w of c.when) if (w.action.symbol === symbol) out.push(w.usage === '' ? c.name : `${c.name} ${w.usage ?? describeMatch(w.source)}`);
  }
  return out;
}

/** `^close$` -> `close`; any other pattern -> `<args matching /.../>`. */
export function describeMatch(source: string): string {
  const literal = /^\^([^\\^$.*+?()[\]{}|]*)\$$/.exec(source);
  return literal ? literal[1]! : `<args matching /${source}/>`;
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function own(o: Record<string, unknown>, key: string): unknown {
  return Object.hasOwn(o, key) ? o[key] : undefined;
}

function esc(key: string): string {
  return key.replace(/~/g, '~0').replace(/\//g, '~1');
}
