/**
 * `ratchet doctor`'s view of each agent CLI's trust gate: every harness skips repository hooks
 * without a word until the user trusts the folder (and, for Codex, the hooks). Where the repository
 * holds Ratchet's hooks for a harness, doctor reads that harness's own record of trust (in the
 * user's home) and warns when it finds none. It reads only those files, never runs the harness.
 */
import { existsSync, readFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, join, resolve, sep } from 'node:path';
import { realpathSync } from 'node:fs';
import type { Harness } from '../hook/events.js';
import { CODEX_HOOKS } from './codex.js';
import { COPILOT_HOOKS } from './copilot.js';
import { isObject, type Json } from './files.js';
import { GEMINI_SETTINGS } from './gemini.js';
import { tomlShape, unquote } from './toml-append.js';

export interface TrustWarning {
  harness: Harness;
  /** The file doctor read (or looked for) to decide. */
  file: string;
  message: string;
}

type Env = Readonly<Record<string, string | undefined>>;

const home = (env: Env): string => env.HOME || homedir();

function readMaybe(path: string): string | undefined {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return undefined;
  }
}

function jsonMaybe(path: string): Json | undefined {
  const text = readMaybe(path);
  if (text === undefined) return undefined;
  try {
    const value = JSON.parse(text) as unknown;
    return isObject(value) ? value : undefined;
  } catch {
    return undefined;
  }
}

/** The project's directory as written and through its links: harnesses record either. */
function spellings(root: string): string[] {
  const abs = resolve(root);
  let real = abs;
  try {
    real = realpathSync(abs);
  } catch {
    // As written, then.
  }
  return [...new Set([abs, real])];
}

/** `dir` is `folder` or inside it. */
const within = (dir: string, folder: string): boolean => dir === folder || dir.startsWith(folder.endsWith(sep) ? folder : `${folder}${sep}`);

const mentionsRatchet = (text: string | undefined): boolean => text !== undefined && /ratchet[^\n]*\bhook\b/.test(text);

function codexWarnings(root: string, env: Env): TrustWarning[] {
  if (!mentionsRatchet(readMaybe(join(root, CODEX_HOOKS)))) return [];
  const codexHome = env.CODEX_HOME || join(home(env), '.codex');
  const file = join(codexHome, 'config.toml');
  const shape = tomlShape(readMaybe(file) ?? '');
  const dirs = spellings(root);
  const trusted = [...shape.values].some(([table, values]) => {
    const m = /^projects\.(".*"|'.*')$/.exec(table);
    return m !== null && dirs.includes(unquote(m[1]) ?? '') && unquote(values.get('trust_level')) === 'trusted';
  });
  if (!trusted) {
    return [{ harness: 'codex', file, message: `Codex does not trust ${root}: it ignores .codex/ (Ratchet's hooks, sandbox profile and MCP server) without a warning. Run \`codex\` there and trust the folder, or \`codex exec --trust\` once.` }];
  }
  const hookFiles = dirs.map((d) => join(d, CODEX_HOOKS));
  const reviewed = [...shape.tables].some((t) => {
    const m = /^hooks\.state\.(".*")$/.exec(t);
    const key = m === null ? undefined : unquote(m[1]);
    return key !== undefined && hookFiles.some((f) => key.startsWith(`${f}:`)) && shape.values.get(t)?.has('trusted_hash') === true;
  });
  if (!reviewed) {
    return [{ harness: 'codex', file, message: `Codex has no trust recorded for the hooks in ${CODEX_HOOKS}: it skips them without a warning. Run \`codex\` in ${root} and choose "Trust all and continue" when it lists them (automation: --dangerously-bypass-hook-trust).` }];
  }
  return [];
}

/** Gemini CLI's folder trust: `~/.gemini/trustedFolders.json` maps paths to TRUST_FOLDER, TRUST_PARENT or DO_NOT_TRUST. */
function geminiWarnings(root: string, env: Env): TrustWarning[] {
  if (!mentionsRatchet(readMaybe(join(root, GEMINI_SETTINGS)))) return [];
  const userSettings = jsonMaybe(join(home(env), '.gemini', 'settings.json'));
  const security = isObject(userSettings?.security) ? userSettings.security : {};
  const folderTrust = isObject(security.folderTrust) ? security.folderTrust : {};
  if (folderTrust.enabled === false) return [];
  const file = env.GEMINI_CLI_TRUSTED_FOLDERS_PATH || join(home(env), '.gemini', 'trustedFolders.json');
  const rules = jsonMaybe(file) ?? {};
  const dirs = spellings(root);
  let verdict: 'trusted' | 'untrusted' | undefined;
  let depth = -1;
  for (const [path, rule] of Object.entries(rules)) {
    const folder = rule === 'TRUST_PARENT' ? dirname(path) : path;
    if (!dirs.some((d) => within(d, folder)) || folder.length <= depth) continue;
    depth = folder.length;
    verdict = rule === 'DO_NOT_TRUST' ? 'untrusted' : rule === 'TRUST_FOLDER' || rule === 'TRUST_PARENT' ? 'trusted' : verdict;
  }
  if (verdict === 'trusted') return [];
  return [
    {
      harness: 'gemini',
      file,
      message: `Gemini CLI does not trust ${root}${verdict === 'untrusted' ? ' (marked DO_NOT_TRUST)' : ''}: with folder trust on it ignores ${GEMINI_SETTINGS} (Ratchet's hooks and sandbox), and headless runs stop. Trust the folder in Gemini CLI (/permissions); never pass --skip-trust.`,
    },
  ];
}

/**
 * Whether `dir` or a directory above it holds `.git` (a directory, or a worktree's file), searched
 * as git searches: never into a directory of GIT_CEILING_DIRECTORIES or above it.
 */
function inGitRepository(dir: string, env: Env): boolean {
  const ceilings = new Set((env.GIT_CEILING_DIRECTORIES ?? '').split(':').filter((c) => c !== '').map((c) => resolve(c)));
  for (let d = resolve(dir); ; d = dirname(d)) {
    if (ceilings.has(d)) return false;
    if (existsSync(join(d, '.git'))) return true;
    if (dirname(d) === d) return false;
  }
}

/**
 * Copilot CLI: trusted folders in `$COPILOT_HOME/config.json`; `disableAllHooks` in either settings
 * file; and it reads .github/hooks/ only inside a git repository.
 */
function copilotWarnings(root: string, env: Env): TrustWarning[] {
  if (!mentionsRatchet(readMaybe(join(root, COPILOT_HOOKS)))) return [];
  const copilotHome = env.COPILOT_HOME || join(home(env), '.copilot');
  const out: TrustWarning[] = [];
  if (!inGitRepository(root, env)) out.push({ harness: 'copilot', file: join(root, '.git'), message: `${root} is not inside a git repository: Copilot CLI reads ${COPILOT_HOOKS} only in one (\`git init\`).` });
  for (const file of [join(copilotHome, 'settings.json'), join(root, '.github', 'copilot', 'settings.json'), join(root, '.github', 'copilot', 'settings.local.json')]) {
    if (jsonMaybe(file)?.disableAllHooks === true) out.push({ harness: 'copilot', file, message: `${file} sets disableAllHooks: Copilot CLI runs none of Ratchet's hooks.` });
  }
  const file = join(copilotHome, 'config.json');
  const folders = jsonMaybe(file)?.trustedFolders;
  const dirs = spellings(root);
  const trusted = Array.isArray(folders) && folders.some((f) => typeof f === 'string' && dirs.some((d) => within(d, resolve(f))));
  if (!trusted) out.push({ harness: 'copilot', file, message: `Copilot CLI does not trust ${root}: it skips ${COPILOT_HOOKS} without a warning. Answer yes to "Do you trust the files in this folder?" in an interactive session, or pass --trust-folder with -p.` });
  return out;
}

/** Every trust warning doctor can see for the project at `root`. */
export function trustWarnings(root: string, env: Env): TrustWarning[] {
  return [...codexWarnings(root, env), ...geminiWarnings(root, env), ...copilotWarnings(root, env)];
}

/** Whether a harness's hook file exists in the project (for doctor's summary line). */
export function configuredHarnesses(root: string): Harness[] {
  const found: Harness[] = [];
  if (mentionsRatchet(readMaybe(join(root, CODEX_HOOKS)))) found.push('codex');
  if (mentionsRatchet(readMaybe(join(root, GEMINI_SETTINGS)))) found.push('gemini');
  if (mentionsRatchet(readMaybe(join(root, COPILOT_HOOKS)))) found.push('copilot');
  if (existsSync(join(root, '.opencode', 'plugin', 'ratchet.js'))) found.push('opencode');
  return found;
}
