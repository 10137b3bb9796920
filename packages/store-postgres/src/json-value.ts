import { StoreError } from '@ratchet/store';

/**
 * The JSON text stored for a value, after checking the value survives a JSON round trip unchanged:
 * plain objects, arrays, strings, finite numbers, booleans and null only. `JSON.stringify` would
 * otherwise silently turn NaN into null, drop `undefined` and functions, and call `toJSON`, and the
 * next reader would see something other than what the caller wrote.
 */
export function serializeJson(location: string, key: string, value: unknown, topLevelObject: boolean): string {
  if (topLevelObject && (typeof value !== 'object' || value === null || Array.isArray(value))) {
    throw new StoreError('validation-error', `${location}#${key}`, `refused to write a ${describe(value)}: a document's value must be a JSON object; nothing was written`);
  }
  const problem = findProblem(value, '', 0);
  if (problem) throw new StoreError('validation-error', `${location}#${key}`, `refused to write a value that is not plain JSON: ${problem}; nothing was written`, { pointer: problem.split(':')[0] });
  return JSON.stringify(value);
}

const MAX_DEPTH = 1000;

function describe(value: unknown): string {
  return value === null ? 'null' : Array.isArray(value) ? 'array' : typeof value;
}

function findProblem(value: unknown, pointer: string, depth: number): string | undefined {
  if (depth > MAX_DEPTH) return `${pointer}: nested deeper than ${MAX_DEPTH} levels`;
  switch (typeof value) {
    case 'string':
    case 'boolean':
      return undefined;
    case 'number':
      return Number.isFinite(value) ? undefined : `${pointer}: ${String(value)} is not a JSON number`;
    case 'object': {
      if (value === null) return undefined;
      if (Array.isArray(value)) {
        for (let i = 0; i < value.length; i++) {
          const p = findProblem(value[i], `${pointer}/${i}`, depth + 1);
          if (p) return p;
        }
        return undefined;
      }
      const proto = Object.getPrototypeOf(value) as unknown;
      if (proto !== Object.prototype && proto !== null) return `${pointer}: a ${(value as object).constructor?.name ?? 'non-plain'} object is not JSON`;
      for (const [k, v] of Object.entries(value)) {
        const p = findProblem(v, `${pointer}/${k.replace(/~/gu, '~0').replace(/\//gu, '~1')}`, depth + 1);
        if (p) return p;
      }
      return undefined;
    }
    default:
      return `${pointer}: a ${typeof value} is not JSON`;
  }
}
