/**
 * Builds a `ratchet` argv from typed tool arguments. Option values are joined to their flag
 * (`--message=-x`) and operands follow `--`, so no argument value can be read as another option.
 */
export class Argv {
  private readonly options: string[] = [];
  private readonly operands: string[] = [];

  constructor(readonly command: readonly string[]) {}

  /** `--flag=value` for a defined value; once per element of an array (repeatable options). */
  opt(flag: string, value: unknown): this {
    if (value === undefined || value === null) return this;
    for (const v of Array.isArray(value) ? value : [value]) this.options.push(`${flag}=${String(v)}`);
    return this;
  }

  /** A boolean flag, present only when `on` is true. */
  flag(flag: string, on: unknown): this {
    if (on === true) this.options.push(flag);
    return this;
  }

  /** `key=value` options from an object (`--input`, `--set`). */
  pairs(flag: string, value: unknown): this {
    if (value === undefined || value === null) return this;
    // The tool schemas declare these as records of strings or numbers.
    for (const [k, v] of Object.entries(value as Record<string, string | number>)) this.options.push(`${flag}=${k}=${v}`);
    return this;
  }

  /** A positional argument (skipped when undefined). */
  arg(value: unknown): this {
    if (value !== undefined && value !== null) this.operands.push(typeof value === 'string' ? value : JSON.stringify(value));
    return this;
  }

  /** `--flag` when `on` is true, `--no-flag` when it is false, nothing when it is unset. */
  toggle(flag: string, on: unknown): this {
    if (on === true) this.options.push(`--${flag}`);
    else if (on === false) this.options.push(`--no-${flag}`);
    return this;
  }

  build(): string[] {
    return [...this.command, ...this.options, ...(this.operands.length > 0 ? ['--', ...this.operands] : [])];
  }
}

export const cmd = (...command: string[]): Argv => new Argv(command);

/**
 * The value of an argument that one `action` of a tool needs (its schema cannot say so without a
 * union the clients handle badly): a missing one is refused before the command runs, by name.
 */
export function need(args: Record<string, unknown>, name: string): unknown {
  const value = args[name];
  if (value === undefined || value === null) throw new Error(`${name} is required${typeof args.action === 'string' ? ` for action ${args.action}` : ''}`);
  return value;
}
