/**
 * Adding to a TOML file without rewriting it: Ratchet only appends whole tables it owns and, when
 * needed, one top-level key before the first table (TOML puts top-level keys there), so comments,
 * order and formatting of everything already in the file stay exactly as they were. The file is
 * read line by line for its table headers and top-level keys; nothing else is interpreted.
 */

export interface TomlShape {
  /** Header names, whitespace removed: `[permissions.ratchet]` -> `permissions.ratchet`. */
  tables: Set<string>;
  /** Top-level keys (before the first header) and their raw values. */
  topKeys: Map<string, string>;
  /** Each table's simple `key = value` lines (raw values), by header name. */
  values: Map<string, Map<string, string>>;
}

const HEADER = /^\s*\[\[?\s*([^\]]+?)\s*\]\]?\s*(?:#.*)?$/;
const KEY = /^\s*("(?:[^"\\]|\\.)*"|[A-Za-z0-9_-]+)\s*=\s*(.*?)\s*$/;

/** A header name without whitespace around its dots (quoted parts kept as written). */
export function tableName(header: string): string {
  return header.replace(/\s*\.\s*/g, '.').trim();
}

export function tomlShape(text: string): TomlShape {
  const tables = new Set<string>();
  const topKeys = new Map<string, string>();
  const values = new Map<string, Map<string, string>>();
  let current: Map<string, string> = topKeys;
  for (const line of text.split(/\r?\n/)) {
    const header = HEADER.exec(line);
    if (header !== null) {
      const name = tableName(header[1]!);
      tables.add(name);
      current = values.get(name) ?? new Map<string, string>();
      values.set(name, current);
      continue;
    }
    const key = KEY.exec(line);
    if (key !== null) current.set(key[1]!.replace(/^"|"$/g, ''), key[2]!);
  }
  return { tables, topKeys, values };
}

/** A raw TOML string value without its quotes (basic strings unescaped as JSON). */
export function unquote(raw: string | undefined): string | undefined {
  if (raw === undefined) return undefined;
  const value = raw.replace(/\s+#.*$/, '').trim();
  if (value.startsWith("'") && value.endsWith("'")) return value.slice(1, -1);
  if (value.startsWith('"') && value.endsWith('"')) {
    try {
      return JSON.parse(value) as string;
    } catch {
      return value.slice(1, -1);
    }
  }
  return value;
}

/**
 * `text` with `line` inserted before its first table header and the comment lines just above it
 * (at the end when it has no table).
 */
export function insertTopLevel(text: string, line: string): string {
  const lines = text.split('\n');
  let at = lines.findIndex((l) => HEADER.test(l));
  if (at < 0) return `${text}${text === '' || text.endsWith('\n') ? '' : '\n'}${line}\n`;
  while (at > 0 && /^\s*#/.test(lines[at - 1]!)) at--;
  lines.splice(at, 0, line, '');
  return lines.join('\n');
}

/** `text` with `block` appended after one blank line. */
export function appendBlock(text: string, block: string): string {
  if (text === '') return block;
  return `${text}${text.endsWith('\n') ? '' : '\n'}\n${block}`;
}

/** A TOML basic string. */
export function tomlString(value: string): string {
  return JSON.stringify(value);
}
