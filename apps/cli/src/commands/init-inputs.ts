/**
 * The edge of `ratchet init`: commander's options (program.ts defines them) parsed into a typed
 * input. init.ts and the helpers it calls see only this. Plain checks, no library: the heavy parts
 * (harness set-up, the config edit) load only when init runs and needs them.
 */
import { CliError } from '../errors.js';
import { HARNESSES, parseHarness, type Harness } from '../hook/events.js';
import { flagOption, stringsOption, type OptionBag } from '../option-values.js';

export interface InitInput {
  /** List what would be created, write nothing. */
  dryRun: boolean;
  /** Also set up Claude Code (.claude/settings.json, .mcp.json). */
  claude: boolean;
  /** The agent CLIs whose repository configuration to write, without repeats, in the order given. */
  harnesses: Harness[];
  /** hooks.reasoningFlow to write: a flow name, false (none), or undefined (neither option given). */
  reasoningFlow: string | false | undefined;
}

/** A flow id as `ratchet flow start` takes it: a name, not a path. */
const FLOW_NAME = /^[A-Za-z0-9][A-Za-z0-9._-]{0,99}$/;

/** commander's value for `--reasoning-flow [flow]` / `--no-reasoning-flow`: true (no name: the reasoning flow), a name, false, or undefined (not given). */
function reasoningFlowOf(value: unknown): string | false | undefined {
  if (value === undefined) return undefined;
  if (value === false) return false;
  if (value === true) return 'reasoning';
  if (typeof value === 'string' && FLOW_NAME.test(value)) return value;
  throw new CliError(`--reasoning-flow ${JSON.stringify(value)}: expected a flow name such as reasoning (the flows are in protocols/flows/)`, { code: 'bad-flow' });
}

/** `--harness codex --harness gemini` (or `codex,gemini`; program.ts splits the commas), checked and without repeats. */
function harnessesOf(names: readonly string[]): Harness[] {
  const out: Harness[] = [];
  for (const name of names) {
    const harness = parseHarness(name);
    if (harness === undefined) throw new CliError(`--harness ${name}: unknown agent CLI (known: ${HARNESSES.join(', ')})`);
    if (!out.includes(harness)) out.push(harness);
  }
  return out;
}

export function initInput(_args: readonly string[], options: OptionBag): InitInput {
  return {
    dryRun: flagOption(options, 'dryRun'),
    claude: flagOption(options, 'claude'),
    harnesses: harnessesOf(stringsOption(options, 'harness') ?? []),
    reasoningFlow: reasoningFlowOf(options.reasoningFlow),
  };
}
