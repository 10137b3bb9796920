/**
 * Ratchet's hook commands in a harness's configuration, derived from the one event table
 * (src/hook/events.ts): every event the harness has gets `ratchet hook <event> --harness <name>`.
 * Merging keeps everything already there (other hooks, other settings) and adds an event's entry
 * only when no hook of that event already calls `ratchet hook <event>` for this harness, so a
 * second `init` changes nothing.
 */
import { CliError } from '../errors.js';
import { HOOK_EVENT_TABLE, type Harness, type HookEvent } from '../hook/events.js';
import { isObject, type Json } from './files.js';

export interface HookEntry {
  event: HookEvent;
  /** The harness's name for the event. */
  name: string;
  tools: boolean;
  command: string;
}

/** The command a harness runs for `event`. */
export function hookCommand(base: string, event: HookEvent, harness: Harness): string {
  return `${base} hook ${event} --harness ${harness}`;
}

/** One entry per event the harness has, in the table's order. */
export function hookEntries(harness: Harness, base: string): HookEntry[] {
  const entries: HookEntry[] = [];
  for (const spec of HOOK_EVENT_TABLE) {
    const name = spec.names[harness];
    if (name !== undefined) entries.push({ event: spec.event, name, tools: spec.tools, command: hookCommand(base, spec.event, harness) });
  }
  return entries;
}

/** Whether a command string already runs Ratchet's hook for `event` in `harness`. */
export function callsRatchetHook(command: unknown, event: HookEvent, harness: Harness): boolean {
  if (typeof command !== 'string' || !/ratchet/.test(command)) return false;
  const words = command.split(/\s+/);
  const at = words.indexOf('hook');
  if (at < 0 || words[at + 1] !== event) return false;
  const flag = words.indexOf('--harness', at);
  const named = flag >= 0 ? words[flag + 1] : words.find((w) => w.startsWith('--harness='))?.slice(10);
  return (named ?? 'claude') === harness;
}

/**
 * Merge into the `hooks` object of Claude Code's grouped shape, which Codex and Gemini CLI share:
 * `{ "<Event>": [{ "matcher"?: ..., "hooks": [handler, ...] }] }`. Returns the events added.
 */
export function mergeGroupedHooks(config: Json, entries: HookEntry[], harness: Harness, file: string, handler: (entry: HookEntry) => Json): { config: Json; added: string[] } {
  if (config.hooks !== undefined && !isObject(config.hooks)) throw new CliError(`${file}: "hooks" is not an object; fix it by hand, Ratchet will not guess`, { file, code: 'bad-settings' });
  const hooks: Json = { ...(config.hooks ?? {}) };
  const added: string[] = [];
  for (const entry of entries) {
    const groups: unknown = Object.hasOwn(hooks, entry.name) ? hooks[entry.name] : [];
    if (!Array.isArray(groups)) throw new CliError(`${file}: "hooks.${entry.name}" is not a list; fix it by hand, Ratchet will not guess`, { file, code: 'bad-settings' });
    const present = groups.some((g) => isObject(g) && Array.isArray(g.hooks) && g.hooks.some((h) => isObject(h) && callsRatchetHook(h.command, entry.event, harness)));
    if (present) continue;
    hooks[entry.name] = [...(groups as unknown[]), { hooks: [handler(entry)] }];
    added.push(entry.name);
  }
  return { config: { ...config, hooks }, added };
}
