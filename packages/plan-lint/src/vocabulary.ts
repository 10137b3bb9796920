/**
 * A dialect as the words a plan author may write: every command with the shape of its arguments and
 * one line on what it means, derived from the dialect data alone (its `description`, file effect,
 * argument indexes, `when` overrides and close symbol), plus the plan language's own directives.
 * The CLI lists it in AGENTS.md, so the list an agent reads is the one lint checks against: editing
 * the dialect and recompiling changes it, and a stale AGENTS.md fails `protocol compile --check`.
 */
import { describeMatch, type Dialect, type DialectAction } from './dialect.js';

export interface VocabularyEntry {
  /** How a line starts: the command and its arguments, e.g. `rename_file <from> <to>`, `run_in_bash_session close`. */
  usage: string;
  /** One line, Markdown: the dialect's description and what lint holds the line to. */
  meaning: string;
}

/** Every command of the dialect (sorted, each `when` override after its command), then the directives. */
export function dialectVocabulary(dialect: Dialect): VocabularyEntry[] {
  const out: VocabularyEntry[] = [];
  for (const command of [...dialect.commands.values()].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))) {
    out.push({ usage: `${command.name}${argumentShape(command.base)}`, meaning: meaningOf(dialect, command.base, command.description, command.doneMessage) });
    for (const w of command.when) out.push({ usage: `${command.name} ${w.usage ?? describeMatch(w.source)}`, meaning: meaningOf(dialect, w.action, undefined) });
  }
  return [...out, ...DIRECTIVES];
}

/** The plan language's own lines: the same in every dialect (README: "The plan language"). */
const DIRECTIVES: readonly VocabularyEntry[] = [
  {
    usage: 'for_each_file <glob>',
    meaning: 'Repeat the block indented 2 spaces below it once per file the glob matches at this point of the plan (files earlier steps create included), in sorted order; `{file}` in the block is that file, and in nested blocks `{file1}`, `{file2}`, ... are the files of the enclosing blocks, outermost first.',
  },
  {
    usage: 'call_plan <name-or-path>',
    meaning: 'Run another plan (a plan registry name or a project-relative path) to its end, then go on with the next line.',
  },
];

/** ` <file>`, ` <from> <to>`, ` <arg> <file>`; ` [args...]` for a command that names no file. */
function argumentShape(action: DialectAction): string {
  if (action.path === undefined) return ' [args...]';
  const words: string[] = [];
  for (let i = 0; i <= Math.max(action.path, action.to ?? -1); i++) words.push(i === action.path ? (action.effect === 'move' ? '<from>' : '<file>') : i === action.to ? '<to>' : '<arg>');
  return ` ${words.join(' ')}`;
}

const EFFECT_MEANING: Record<string, string> = {
  read: 'Reads `<file>`, which must exist at this point of the plan.',
  create: 'Creates `<file>`, which must not exist yet.',
  write: 'Writes `<file>`, creating or overwriting it.',
  edit: 'Edits `<file>`, which must exist at this point of the plan.',
  delete: 'Deletes `<file>`, which must exist at this point of the plan.',
  move: 'Moves `<from>` to `<to>`: `<from>` must exist, `<to>` must not.',
};

function meaningOf(dialect: Dialect, action: DialectAction, description: string | undefined, doneMessage?: string): string {
  const parts: string[] = [];
  if (description !== undefined && description.trim() !== '') parts.push(sentence(description));
  if (action.effect !== undefined) parts.push(EFFECT_MEANING[action.effect]!);
  if (doneMessage !== undefined) parts.push(`Its step is reported with \`ratchet run done --message "<${doneMessage.replace(/\s+/g, ' ').trim()}>"\`.`);
  if (action.symbol === dialect.close) parts.push(dialect.afterClose.length > 0 ? 'Closes the plan: every plan ends with it (or with a command allowed right after it).' : 'Closes the plan: every plan ends with it.');
  if (dialect.afterClose.includes(action.symbol)) parts.push('Allowed only after the close command, at the end of the plan.');
  parts.push(`FSM symbol \`${action.symbol}\`.`);
  return parts.join(' ');
}

/** One line ending with a full stop: a description is a line in a list, whatever the JSON held. */
function sentence(text: string): string {
  const line = text.replace(/\s+/g, ' ').trim();
  return /[.!?]$/.test(line) ? line : `${line}.`;
}
