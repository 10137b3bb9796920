/**
 * The edge of `ratchet serve`: commander's options (register.ts defines them) parsed into a typed
 * input. serve.ts sees only this.
 */
import { CliError } from '../../errors.js';
import { stringOption, type OptionBag } from '../../option-values.js';
import { DEFAULT_PORT } from './register.js';

export interface ServeInput {
  /** 0 to 65535; 0 lets the system pick a free port. */
  port: number;
  /** An address or host name, without IPv6 brackets. */
  host: string;
}

/** `--port`: a whole number written in decimal digits only (no sign, exponent or hex), at most 65535. */
function portOf(text: string | undefined): number {
  if (text === undefined) return DEFAULT_PORT;
  const n = Number(text);
  if (!/^\d{1,5}$/.test(text) || n > 65535) throw new CliError(`--port ${JSON.stringify(text)}: expected a port number from 0 to 65535 (0: any free port)`, { code: 'bad-port' });
  return n;
}

/** `--host`: one address or name; no spaces, and nothing of a URL (path, user, query, fragment). */
function hostOf(value: string | undefined): string {
  if (value === undefined) return '127.0.0.1';
  const host = value.trim();
  if (host === '' || /[\s/@?#]/.test(host)) throw new CliError(`--host ${JSON.stringify(value)}: expected an address or host name (127.0.0.1, ::1, 0.0.0.0, a name)`, { code: 'bad-host' });
  return host.replace(/^\[(.*)\]$/, '$1');
}

export function serveInput(_args: readonly string[], options: OptionBag): ServeInput {
  return { port: portOf(stringOption(options, 'port')), host: hostOf(stringOption(options, 'host')) };
}
