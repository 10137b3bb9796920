/**
 * What a Bash tool command writes, best effort. The hooks must refuse `echo x > .ratchet/session.json`
 * and `sed -i ... logs/activity.log.jsonl` as surely as a Write tool call, so a command is split
 * into simple commands (`;`, `&&`, `||`, `|`, `&`, newlines, `$(...)`, backticks), each into words
 * (quotes and backslashes honoured), and then:
 * - every output redirection (`>`, `>>`, `>|`, `&>`, `2>`) names a target;
 * - known file writers name theirs (rm, mv, cp, tee, touch, sed -i, dd of=, ...);
 * - `sh -c '...'` and friends are analysed recursively;
 * - interpreters running inline code (`python -c`, `node -e`, ...) and tools that write files they
 *   do not name (git checkout, patch) are "opaque": their words are searched for state paths.
 * What it cannot see: a script file that writes state when run, variables and globs expanded by the
 * shell, aliases. The README says so; the state-file digests (a later layer) catch what slips by.
 */

export interface SimpleCommand {
  /** The words, quotes removed; environment assignments and wrappers (sudo, env, nohup) dropped. */
  words: string[];
  /** Files written by redirection. */
  redirects: string[];
  /** Whether this is an invocation of `ratchet` itself (the legitimate writer of state). */
  ratchet: boolean;
}

export interface BashWrites {
  /** Paths the command writes, as written (relative to the command's directory). */
  targets: string[];
  /** Whether some part writes files it does not name (inline interpreter code, git checkout, patch). */
  opaque: boolean;
  /** Every word of the opaque parts, for a search for state paths. */
  opaqueWords: string[];
  /** Whether every simple command is a `ratchet` call without redirection. */
  ratchetOnly: boolean;
}

const MAX_DEPTH = 4;

/** Split `command` into simple commands. */
export function simpleCommands(command: string): SimpleCommand[] {
  const out: SimpleCommand[] = [];
  let words: string[] = [];
  let redirects: string[] = [];
  let word = '';
  let inWord = false;
  let pendingRedirect = false;
  const endWord = (): void => {
    if (!inWord) return;
    if (pendingRedirect) {
      redirects.push(word);
      pendingRedirect = false;
    } else words.push(word);
    word = '';
    inWord = false;
  };
  const endCommand = (): void => {
    endWord();
    pendingRedirect = false;
    if (words.length > 0 || redirects.length > 0) out.push(finish(words, redirects));
    words = [];
    redirects = [];
  };
  for (let i = 0; i < command.length; i++) {
    const c = command[i]!;
    if (c === '\\') {
      if (command[i + 1] === '\n') i++;
      else {
        word += command[i + 1] ?? '';
        inWord = true;
        i++;
      }
    } else if (c === "'") {
      const close = command.indexOf("'", i + 1);
      const end = close < 0 ? command.length : close;
      word += command.slice(i + 1, end);
      inWord = true;
      i = end;
    } else if (c === '"') {
      let j = i + 1;
      for (; j < command.length && command[j] !== '"'; j++) {
        if (command[j] === '\\' && j + 1 < command.length) {
          word += command[j + 1];
          j++;
        } else word += command[j];
      }
      inWord = true;
      i = j;
    } else if (c === ' ' || c === '\t') endWord();
    else if (c === '#' && !inWord) {
      const nl = command.indexOf('\n', i);
      i = nl < 0 ? command.length : nl - 1;
    } else if (c === ';' || c === '\n' || c === '|' || c === '&' || c === '(' || c === ')' || c === '`' || c === '{' || c === '}') {
      if (c === '&' && command[i + 1] === '>') {
        // `&>file` / `&>>file`: stdout and stderr to a file.
        endWord();
        i += command[i + 2] === '>' ? 2 : 1;
        pendingRedirect = true;
        continue;
      }
      if ((c === '{' || c === '}') && inWord) {
        word += c;
        continue;
      }
      endCommand();
    } else if (c === '$' && command[i + 1] === '(') {
      endCommand();
      i++;
    } else if (c === '>' || c === '<') {
      // A bare fd number before it (`2>`) belongs to the operator, not to the words.
      if (inWord && /^\d+$/.test(word)) {
        word = '';
        inWord = false;
      } else endWord();
      let j = i + 1;
      if (command[j] === '>' || command[j] === '|') j++;
      if (c === '<' && command[j] === '<') {
        // A here-document or here-string: its delimiter or text is input, not a file.
        i = j;
        continue;
      }
      if (command[j] === '&') {
        // `>&2`, `2>&1`: duplicating a descriptor writes no file.
        i = j;
        while (i + 1 < command.length && /[0-9-]/.test(command[i + 1]!)) i++;
        continue;
      }
      i = j - 1;
      if (c === '>') pendingRedirect = true;
      else {
        // Input redirection: skip its operand.
        while (command[i + 1] === ' ') i++;
        let k = i + 1;
        while (k < command.length && !/[\s;|&<>()]/.test(command[k]!)) k++;
        i = k - 1;
      }
    } else {
      word += c;
      inWord = true;
    }
  }
  endCommand();
  return out;
}

/** Shell words that start a compound command or negate one: what follows is a command. */
const RESERVED = new Set(['if', 'then', 'else', 'elif', 'fi', 'do', 'done', 'while', 'until', '!', 'case', 'esac']);
const WRAPPERS = new Set(['sudo', 'env', 'command', 'nohup', 'time', 'nice', 'exec', 'builtin', 'stdbuf', 'timeout', 'xargs']);

function finish(rawWords: string[], redirects: string[]): SimpleCommand {
  let words = rawWords;
  // Drop leading reserved words (`if`, `then`, `!`, ...), VAR=value assignments and wrappers (with their options).
  for (;;) {
    if (words.length > 0 && RESERVED.has(words[0]!)) words = words.slice(1);
    else if (words.length > 0 && /^[A-Za-z_][A-Za-z0-9_]*=/.test(words[0]!)) words = words.slice(1);
    else if (words.length > 0 && WRAPPERS.has(base(words[0]!))) {
      words = words.slice(1);
      while (words.length > 0 && words[0]!.startsWith('-')) words = words.slice(1);
      if (base(rawWords[0] ?? '') === 'timeout' && words.length > 0 && /^\d/.test(words[0]!)) words = words.slice(1);
    } else break;
  }
  return { words, redirects, ratchet: isRatchet(words) };
}

const base = (word: string): string => word.slice(word.lastIndexOf('/') + 1);

/** `ratchet ...`, `npx [-y] ratchet|@ratchet/cli ...`, `pnpm [exec] ratchet ...`, `node .../ratchet.js ...`. */
export function isRatchet(words: readonly string[]): boolean {
  const [first, ...rest] = words;
  if (first === undefined) return false;
  const name = base(first);
  if (name === 'ratchet' || name === 'ratchet.js') return true;
  const args = rest.filter((w) => !w.startsWith('-'));
  if (name === 'npx' || name === 'bunx') return args[0] === 'ratchet' || args[0] === '@ratchet/cli' || args[0]?.startsWith('@ratchet/cli@') === true;
  if (name === 'pnpm' || name === 'yarn' || name === 'npm') {
    const a = args[0] === 'exec' || args[0] === 'run' || args[0] === 'dlx' ? args[1] : args[0];
    return a === 'ratchet' || a === '@ratchet/cli';
  }
  if (name === 'node') return args.length > 0 && base(args[0]!) === 'ratchet.js';
  return false;
}

const WRITE_ALL = new Set(['rm', 'rmdir', 'unlink', 'shred', 'truncate', 'touch', 'mkdir', 'chmod', 'chown', 'chgrp', 'tee', 'mv', 'setfattr']);
const WRITE_LAST = new Set(['cp', 'install', 'ln', 'rsync', 'scp']);
const IN_PLACE = new Set(['sed', 'perl', 'ruby']);
const SHELLS = new Set(['sh', 'bash', 'zsh', 'dash', 'ksh', 'fish']);
const INTERPRETERS = new Set(['python', 'python3', 'python2', 'node', 'deno', 'bun', 'perl', 'ruby', 'php', 'awk', 'gawk', 'jq', 'osascript', 'eval']);
const GIT_WRITES = new Set(['checkout', 'restore', 'apply', 'am', 'reset', 'stash', 'mv', 'rm', 'clean', 'switch', 'merge', 'rebase', 'pull', 'cherry-pick', 'revert']);

const operands = (words: readonly string[]): string[] => {
  const out: string[] = [];
  let options = true;
  for (const w of words) {
    if (options && w === '--') options = false;
    else if (options && w.startsWith('-') && w !== '-') continue;
    else out.push(w);
  }
  return out;
};

/** What `command` writes (see the module comment for the limits). */
export function bashWrites(command: string, depth = 0): BashWrites {
  const result: BashWrites = { targets: [], opaque: false, opaqueWords: [], ratchetOnly: true };
  for (const cmd of simpleCommands(command)) {
    result.targets.push(...cmd.redirects.filter((r) => !r.startsWith('/dev/')));
    if (!cmd.ratchet || cmd.redirects.length > 0) result.ratchetOnly = false;
    if (cmd.ratchet || cmd.words.length === 0) continue;
    const [first, ...args] = cmd.words;
    const name = base(first!);
    if (WRITE_ALL.has(name)) result.targets.push(...operands(args));
    else if (WRITE_LAST.has(name)) {
      const ops = operands(args);
      if (ops.length > 0) result.targets.push(ops[ops.length - 1]!);
      const t = args.findIndex((a) => a === '-t' || a === '--target-directory');
      if (t >= 0 && args[t + 1] !== undefined) result.targets.push(args[t + 1]!);
    } else if (IN_PLACE.has(name) && args.some((a) => a === '-i' || a.startsWith('-i') || a === '--in-place' || a.startsWith('--in-place=') || /^-[a-zA-Z]*i/.test(a))) {
      result.targets.push(...operands(args));
      result.opaque = true;
      result.opaqueWords.push(...args);
    } else if (name === 'dd') {
      for (const a of args) if (a.startsWith('of=')) result.targets.push(a.slice(3));
    } else if (SHELLS.has(name)) {
      const c = args.indexOf('-c');
      if (c >= 0 && args[c + 1] !== undefined && depth < MAX_DEPTH) {
        const inner = bashWrites(args[c + 1]!, depth + 1);
        result.targets.push(...inner.targets);
        result.opaque ||= inner.opaque;
        result.opaqueWords.push(...inner.opaqueWords);
        if (!inner.ratchetOnly) result.ratchetOnly = false;
      } else {
        // Running a script: what it writes cannot be seen from here.
        result.opaque = true;
        result.opaqueWords.push(...args);
      }
    } else if (INTERPRETERS.has(name) || (name === 'git' && GIT_WRITES.has(operands(args)[0] ?? '')) || name === 'patch') {
      result.opaque = true;
      result.opaqueWords.push(...args);
    }
  }
  return result;
}

/**
 * Path-like pieces of opaque words (`open('.ratchet/session.json','w')` yields `.ratchet/session.json`),
 * so inline code that names a state file is caught too.
 */
export function pathsIn(words: readonly string[]): string[] {
  const out = new Set<string>();
  for (const w of words) {
    out.add(w);
    for (const m of w.matchAll(/[A-Za-z0-9_.~/-]*[A-Za-z0-9_./-]/g)) if (m[0].length > 1) out.add(m[0]);
  }
  return [...out];
}
