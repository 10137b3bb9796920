/**
 * `ratchet init --claude`: Ratchet's hooks in `.claude/settings.json`, for Claude Code users without
 * the plugin. Merged into what is there (other settings and other hooks are kept as they are),
 * idempotent (a hook already calling `ratchet hook <event>` is not added twice), and a settings
 * file that does not parse is reported with its place and never overwritten.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { JsonParseError, NotFoundError, parseJson, readTextFileSync, writeFileAtomic } from '@ratchet/store';
import { CliError } from './errors.js';

export const CLAUDE_SETTINGS = '.claude/settings.json';

/** Claude Code's event names and `ratchet hook`'s, with whether the event matches tools. */
const EVENTS: readonly [claude: string, ratchet: string, tools: boolean][] = [
  ['SessionStart', 'session-start', false],
  ['UserPromptSubmit', 'user-prompt-submit', false],
  ['PreToolUse', 'pre-tool-use', true],
  ['PostToolUse', 'post-tool-use', true],
  ['Stop', 'stop', false],
  ['SubagentStop', 'subagent-stop', false],
];

/** How settings.json calls ratchet: the project's own install when it has one, else `ratchet` on PATH. */
export function hookCommandBase(root: string): string {
  return existsSync(join(root, 'node_modules', '.bin', 'ratchet')) ? '"$CLAUDE_PROJECT_DIR"/node_modules/.bin/ratchet' : 'ratchet';
}

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

/** The settings with Ratchet's hooks merged in, and the events that were added. Pure. */
export function mergeHooks(settings: Json, base: string, file = CLAUDE_SETTINGS): { settings: Json; added: string[] } {
  if (settings.hooks !== undefined && !isObject(settings.hooks)) throw new CliError(`${file}: "hooks" is not an object; fix it by hand, Ratchet will not guess`, { file, code: 'bad-settings' });
  const hooks: Json = { ...(settings.hooks ?? {}) };
  const added: string[] = [];
  for (const [claude, event, tools] of EVENTS) {
    const entries: unknown = hooks[claude] ?? [];
    if (!Array.isArray(entries)) throw new CliError(`${file}: "hooks.${claude}" is not a list; fix it by hand, Ratchet will not guess`, { file, code: 'bad-settings' });
    const present = entries.some((e) => isObject(e) && Array.isArray(e.hooks) && e.hooks.some((h) => isObject(h) && typeof h.command === 'string' && h.command.includes(`hook ${event}`) && /ratchet/.test(h.command)));
    if (present) continue;
    hooks[claude] = [...(entries as unknown[]), { ...(tools ? { matcher: '*' } : {}), hooks: [{ type: 'command', command: `${base} hook ${event}`, timeout: 30 }] }];
    added.push(claude);
  }
  return { settings: { ...settings, hooks }, added };
}

/** Read, merge and (unless dryRun) write `.claude/settings.json` under `root`. */
export async function wireClaudeHooks(root: string, dryRun: boolean): Promise<{ path: string; added: string[] }> {
  const path = join(root, CLAUDE_SETTINGS);
  let settings: Json = {};
  try {
    const value = parseJson(readTextFileSync(path, { maxBytes: 4 * 1024 * 1024 }).text, { path });
    if (!isObject(value)) throw new CliError(`${CLAUDE_SETTINGS}: expected a JSON object; left as it is`, { file: CLAUDE_SETTINGS, code: 'bad-settings' });
    settings = value;
  } catch (err) {
    if (err instanceof JsonParseError) throw new CliError(`${CLAUDE_SETTINGS}:${err.line}:${err.column}: ${err.reason}; left as it is`, { file: CLAUDE_SETTINGS, line: err.line, column: err.column, code: 'bad-settings' });
    if (!(err instanceof NotFoundError)) throw err;
  }
  const merged = mergeHooks(settings, hookCommandBase(root));
  if (!dryRun && merged.added.length > 0) await writeFileAtomic(path, `${JSON.stringify(merged.settings, null, 2)}\n`, { createParentDirs: true });
  return { path: CLAUDE_SETTINGS, added: merged.added };
}
