/**
 * A connection URL safe to print: the password (and a `password=` query parameter) replaced by
 * `***`. Every error and message naming a backend goes through this, so no log or terminal ever
 * shows a credential.
 */
export function redactUrl(url: string): string {
  let parsed: URL | undefined;
  try {
    parsed = new URL(url);
  } catch {
    parsed = undefined;
  }
  if (parsed === undefined) {
    // Not a URL we can parse: still hide anything that looks like `user:password@`.
    return url.replace(/(\/\/[^/:@\s]*):[^@\s]*@/u, '$1:***@').replace(/(password=)[^&\s]*/giu, '$1***');
  }
  if (parsed.password !== '') parsed.password = '***';
  for (const name of [...parsed.searchParams.keys()]) {
    if (name.toLowerCase() === 'password') parsed.searchParams.set(name, '***');
  }
  // URL encodes the stars; show them as typed.
  return parsed.toString().replace(/%2A%2A%2A/gu, '***');
}
