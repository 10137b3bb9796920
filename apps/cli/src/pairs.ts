import { CliError } from './errors.js';

/**
 * `--input a=b` / `--set a=b` / `--meta a=b` lists -> an object with a null prototype (so a
 * `__proto__=x` pair is just a key; the library decides whether the name is allowed).
 */
export function parsePairs(values: unknown, flag: string): Record<string, string> {
  const out = Object.create(null) as Record<string, string>;
  for (const item of (values as string[] | undefined) ?? []) {
    const eq = item.indexOf('=');
    if (eq <= 0) throw new CliError(`${flag} ${JSON.stringify(item)}: expected key=value`);
    const key = item.slice(0, eq);
    if (Object.hasOwn(out, key)) throw new CliError(`${flag} ${key} given twice`);
    out[key] = item.slice(eq + 1);
  }
  return out;
}
