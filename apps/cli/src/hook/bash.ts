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
 *
 * Every step is linear in the command's length: a hook has seconds, and a command can be hundreds of
 * KB (generated file lists, inline scripts). No `push(...list)` (a spread of 100k+ words overflows
 * the stack), no `slice(1)` per dropped word, no regex that backtracks over a long word.
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
    if (!SPECIAL.has(c)) {
      // A run of ordinary characters joins the word in one slice, not one concatenation per character.
      let j = i + 1;
      while (j < command.length && !SPECIAL.has(command[j]!)) j++;
      word += command.slice(i, j);
      inWord = true;
      i = j - 1;
    } else if (c === '\\') {
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
      let from = j;
      for (; j < command.length && command[j] !== '"'; j++) {
        if (command[j] === '\\' && j + 1 < command.length) {
          word += command.slice(from, j) + command[j + 1]!;
          j++;
          from = j + 1;
        }
      }
      word += command.slice(from, j);
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

/** Characters the tokenizer's branches look at; anything else is part of a word as it stands. */
const SPECIAL = new Set(['\\', "'", '"', ' ', '\t', '#', ';', '\n', '|', '&', '(', ')', '`', '{', '}', '$', '>', '<']);

/** Shell words that start a compound command or negate one: what follows is a command. */
const RESERVED = new Set(['if', 'then', 'else', 'elif', 'fi', 'do', 'done', 'while', 'until', '!', 'case', 'esac']);
const WRAPPERS = new Set(['sudo', 'env', 'command', 'nohup', 'time', 'nice', 'exec', 'builtin', 'stdbuf', 'timeout', 'xargs']);

function finish(rawWords: string[], redirects: string[]): SimpleCommand {
  // Drop leading reserved words (`if`, `then`, `!`, ...), VAR=value assignments and wrappers (with
  // their options): move an index, copy once.
  let i = 0;
  for (;;) {
    if (i < rawWords.length && RESERVED.has(rawWords[i]!)) i++;
    else if (i < rawWords.length && /^[A-Za-z_][A-Za-z0-9_]*=/.test(rawWords[i]!)) i++;
    else if (i < rawWords.length && WRAPPERS.has(base(rawWords[i]!))) {
      // `timeout`'s duration is an operand, wherever the wrapper stands (`sudo timeout 5 rm x`).
      const timeout = base(rawWords[i]!) === 'timeout';
      i++;
      while (i < rawWords.length && rawWords[i]!.startsWith('-')) i++;
      if (timeout && i < rawWords.length && /^\d/.test(rawWords[i]!)) i++;
    } else break;
  }
  const words = i === 0 ? rawWords : rawWords.slice(i);
  return { words, redirects, ratchet: isRatchet(words) };
}

/** `list.push(...items)` without the spread: a spread of 100k+ items overflows the call stack. */
function pushAll(list: string[], items: readonly string[]): void {
  for (const item of items) list.push(item);
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
    pushAll(result.targets, cmd.redirects.filter((r) => !r.startsWith('/dev/')));
    if (!cmd.ratchet || cmd.redirects.length > 0) result.ratchetOnly = false;
    if (cmd.ratchet || cmd.words.length === 0) continue;
    const [first, ...args] = cmd.words;
    const name = base(first!);
    if (WRITE_ALL.has(name)) pushAll(result.targets, operands(args));
    else if (WRITE_LAST.has(name)) {
      const ops = operands(args);
      if (ops.length > 0) result.targets.push(ops[ops.length - 1]!);
      const t = args.findIndex((a) => a === '-t' || a === '--target-directory');
      if (t >= 0 && args[t + 1] !== undefined) result.targets.push(args[t + 1]!);
    } else if (IN_PLACE.has(name) && args.some((a) => a === '-i' || a.startsWith('-i') || a === '--in-place' || a.startsWith('--in-place=') || /^-[a-zA-Z]*i/.test(a))) {
      pushAll(result.targets, operands(args));
      result.opaque = true;
      pushAll(result.opaqueWords, args);
    } else if (name === 'dd') {
      for (const a of args) if (a.startsWith('of=')) result.targets.push(a.slice(3));
    } else if (SHELLS.has(name)) {
      const c = args.indexOf('-c');
      if (c >= 0 && args[c + 1] !== undefined && depth < MAX_DEPTH) {
        const inner = bashWrites(args[c + 1]!, depth + 1);
        pushAll(result.targets, inner.targets);
        result.opaque ||= inner.opaque;
        pushAll(result.opaqueWords, inner.opaqueWords);
        if (!inner.ratchetOnly) result.ratchetOnly = false;
      } else {
        // Running a script: what it writes cannot be seen from here.
        result.opaque = true;
        pushAll(result.opaqueWords, args);
      }
    } else if (INTERPRETERS.has(name) || (name === 'git' && GIT_WRITES.has(operands(args)[0] ?? '')) || name === 'patch') {
      result.opaque = true;
      pushAll(result.opaqueWords, args);
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
    // Each maximal run of path characters, less its trailing `~`s, when two or more are left. (The
    // regex /[A-Za-z0-9_.~/-]*[A-Za-z0-9_./-]/g found the same pieces, but backtracked over every
    // start in a run of `~`: quadratic.)
    for (let i = 0; i < w.length; ) {
      if (!isPathChar(w.charCodeAt(i))) {
        i++;
        continue;
      }
      let end = i;
      while (end < w.length && isPathChar(w.charCodeAt(end))) end++;
      let last = end;
      while (last > i && w.charCodeAt(last - 1) === TILDE) last--;
      if (last - i > 1) out.add(w.slice(i, last));
      i = end;
    }
  }
  return [...out];
}

const TILDE = 0x7e;

/** [A-Za-z0-9_.~/-] */
function isPathChar(c: number): boolean {
  return (c >= 0x61 && c <= 0x7a) || (c >= 0x41 && c <= 0x5a) || (c >= 0x30 && c <= 0x39) || c === 0x5f || c === 0x2e || c === TILDE || c === 0x2f || c === 0x2d;
}
