/**
 * What every backend checks before it stores a value: a plain JSON object (documents) or JSON value
 * (log records) that round-trips exactly through JSON text. `NaN`, `Infinity`, `undefined`,
 * functions, class instances (a `Date`, a `Map`), cycles, nesting deeper than `MAX_JSON_DEPTH` and
 * the keys `__proto__`, `constructor` and `prototype` (prototype pollution, refused by the reader
 * too) are refused with an error naming the place, before anything is written.
 */
import { UnsafeInputError, ValidationError } from '../errors.js';
import { MAX_JSON_DEPTH } from '../json-parse.js';
import { toJsonPointer } from '../json-pointer.js';
import type { JsonObject, JsonValue } from './storage-port.js';

const UNSAFE_KEYS = new Set(['__proto__', 'constructor', 'prototype']);

/** Throws unless `value` is a plain JSON object (a document's value). `where` names it in errors (`location#key`). */
export function assertJsonObject(where: string, value: unknown): asserts value is JsonObject {
  if (!isPlainObject(value)) {
    throw new ValidationError(where, [{ pointer: '', message: `a document must be a JSON object, got ${describe(value)}` }], 'update');
  }
  checkValue(where, value, [], new Set());
}

/** Throws unless `value` is a JSON value (a log record). */
export function assertJsonValue(where: string, value: unknown, path: PropertyKey[] = []): asserts value is JsonValue {
  checkValue(where, value, path, new Set());
}

function checkValue(where: string, value: unknown, path: PropertyKey[], seen: Set<object>): void {
  const refuse = (message: string): never => {
    throw new ValidationError(where, [{ pointer: toJsonPointer(path), message }], 'update');
  };
  if (path.length > MAX_JSON_DEPTH) refuse(`nested deeper than ${MAX_JSON_DEPTH} levels`);
  if (value === null || typeof value === 'string' || typeof value === 'boolean') return;
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) refuse(`${String(value)} is not a JSON number`);
    return;
  }
  if (typeof value !== 'object') return refuse(`${describe(value)} is not a JSON value`);
  if (seen.has(value)) refuse('the value contains a cycle');
  seen.add(value);
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      if (!(i in value)) refuse(`a sparse array (hole at ${i}) is not JSON`);
      checkValue(where, value[i], [...path, i], seen);
    }
  } else {
    if (!isPlainObject(value)) refuse(`${describe(value)} is not a plain JSON object`);
    for (const key of Object.keys(value)) {
      if (UNSAFE_KEYS.has(key)) throw new UnsafeInputError(where, key, { pointer: toJsonPointer([...path, key]) });
      checkValue(where, (value as Record<string, unknown>)[key], [...path, key], seen);
    }
    // Symbol keys would be dropped silently by JSON.stringify.
    if (Object.getOwnPropertySymbols(value).length > 0) refuse('symbol keys are not JSON');
  }
  seen.delete(value);
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const proto = Object.getPrototypeOf(value) as unknown;
  return proto === Object.prototype || proto === null;
}

function describe(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'object') {
    const name = (Object.getPrototypeOf(value) as { constructor?: { name?: string } } | null)?.constructor?.name;
    return name === undefined ? 'an object' : `a ${name}`;
  }
  if (typeof value === 'number') return String(value);
  return `a ${typeof value}`;
}
