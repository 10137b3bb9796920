import { StoreError } from '@ratchet/store';

/**
 * Keys are project-relative `/`-separated paths (the fleet decision shared with the file backend):
 * one with `..`, a leading `/`, a backslash, NUL or an empty segment is refused before any SQL runs,
 * so a key means the same thing on both backends.
 */
export function checkKey(location: string, key: string, what = 'key'): string {
  const problem =
    typeof key !== 'string' || key.length === 0
      ? 'is empty'
      : key.startsWith('/')
        ? 'starts with "/"'
        : key.includes('\\')
          ? 'contains a backslash'
          : key.includes('\0')
            ? 'contains NUL'
            : key.split('/').some((s) => s === '')
              ? 'has an empty segment'
              : key.split('/').some((s) => s === '..' || s === '.')
                ? 'has a "." or ".." segment'
                : undefined;
  if (problem) throw new StoreError('unsafe-input', `${location}#${JSON.stringify(key)}`, `the ${what} ${JSON.stringify(key)} ${problem}: use a project-relative "/"-separated path`);
  return key;
}
