/**
 * `*.log.md`: parse into a LogFile and serialise it back canonically.
 *
 * The structure (sections, the Roadmap's nested checklist, Work Log entries) comes from a CommonMark
 * parser (markdown-it's block phase, see markdown-blocks.ts); the text of every part is taken from
 * the source lines, so whatever Ratchet does not understand is kept verbatim (notes, intros, unknown
 * sections, unknown front matter keys, extra lines of an entry).
 */
import { keyPlace, normalizeText, splitFrontMatter, yamlExtra, yamlLine, type KeyPlace } from './front-matter.js';
import { JixoParseError } from './errors.js';
import { MAX_NESTING, dedentLines, expandIndent, indentOf, itemContentColumn, parseBlocks, trimBlock, unindentFirst, type Block } from './markdown-blocks.js';
import { TASK_STATUSES, type Diagnostic, type ExtraSection, type LogFile, type LogFrontMatter, type PlannerRound, type RoadmapItem, type TaskStatus, type TasksExit, type WorkLogEntry } from './types.js';

export const ROADMAP = 'Roadmap';
export const WORK_LOG = 'Work Log';
export const PLACEHOLDER_TITLE = '_待定_';
/**
 * Headings JIXO v1/v2 wrote (its templates were Chinese): read as the Roadmap / Work Log and
 * written back as they were. Compared after dropping a trailing "(Roadmap)"-style gloss.
 */
export const ROADMAP_TITLES: readonly string[] = [ROADMAP, '工作计划', '工作路线图', '路线图'];
export const WORK_LOG_TITLES: readonly string[] = [WORK_LOG, '工作日志'];

export interface ParseResult<T> {
  value: T;
  diagnostics: Diagnostic[];
}

const STATUS_SET: ReadonlySet<string> = new Set(TASK_STATUSES);
const CHECKBOX = /^\[( |x|X)\](?:[ \t]+(.*))?$/;
const FIELD = /^(status|runner|leaseUntil|dependsOn):[ \t]*(.*)$/;
/** A lease time as Ratchet writes it (`Date#toISOString`), so a hand edit cannot make it ambiguous. */
const ISO_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d{1,3})?Z$/;
const LOG_HEADING = /^Log (\d+) @(\S+) \((.*)\)$/;
/** JIXO v3 (the `next/` rewrite): `### Log-11 @ 2025-06-16T06:44:46.032Z for runner-11`. */
const V3_LOG_HEADING = /^Log-(\d+) @ (.+?) for (\S+)$/;
/** JIXO v1/v2: a Work Log bullet `- 时间：`T`，执行者：`@docs`，第9次执行任务：` with sub-bullets. */
const V1_ENTRY = /^时间[：:]\s*`?([^`，,]*?)`?\s*[，,]\s*执行者[：:]\s*`?@?([^`，,]*?)`?\s*[，,]\s*第\s*(\d+)\s*次执行任务[：:]?\s*$/;
const ENTRY_FIELD = /^\*\*(Role|Objective|Result|Summary|Runner|Blocker)\*\*:[ \t]?(.*)$/;
const TASK_ID = /^(\d+(?:\.\d+)*)\.?(?=\s|$)/;
const BULLET_NOTE = /^[-*+](?:[ \t]|$)/;

/** The id of a roadmap item: its leading number (`1.2` of `1.2. Do x`), else its whole text. */
export function itemId(text: string): string {
  return TASK_ID.exec(text)?.[1] ?? text.trim();
}

/** Where a parse is: the body's lines, where they start in the file, what was found so far. */
interface Scope {
  lines: string[];
  /** File line (1-based) of lines[0]. */
  firstLine: number;
  diagnostics: Diagnostic[];
  seenIds: Set<string>;
}

/** Parse a log; diagnostics with severity "error" mean the file must not be rewritten. */
export function parseLog(text: string): ParseResult<LogFile> {
  const src = normalizeText(text);
  const { data, body, bodyLine, diagnostics, keyPlaces } = splitFrontMatter(src, false);
  // JIXO v1 wrote logs without front matter at first: read them (the first write adds it).
  if (src.split('\n', 1)[0] !== '---') diagnostics.push(warn('missing-front-matter', 'no YAML front matter (a JIXO v1 log): title and progress are taken as unset, and written on the first change', 1));
  const frontMatter = readFrontMatter(data ?? (Object.create(null) as Record<string, unknown>), diagnostics, data !== undefined && src.startsWith('---'), keyPlaces);
  const log: LogFile = { frontMatter, preamble: '', roadmapIntro: '', roadmap: [], roadmapOutro: '', workLogIntro: '', workLog: [], sections: [] };
  const scope: Scope = { lines: body, firstLine: bodyLine, diagnostics, seenIds: new Set() };
  const { blocks, tooDeepAt } = parseBlocks(body.join('\n'));
  if (tooDeepAt !== undefined) diagnostics.push(err('nesting-too-deep', `the Markdown nests more than ${MAX_NESTING / 2} lists or quotes deep here; what follows cannot be read`, bodyLine + tooDeepAt));

  // Level-2 headings at the top level split the body into sections.
  const heads = blocks.flatMap((b, i) => (b.type === 'heading' && b.depth === 2 ? [i] : []));
  const preambleEnd = blocks[heads[0]!]?.start ?? body.length;
  let sawRoadmap = false;
  let sawWorkLog = false;
  // JIXO v1's first logs were Work Log entries and nothing else: no section heading at all.
  const firstSection = heads.length === 0 ? undefined : sectionKind(blocks[heads[0]!]!.content.trim());
  const preambleBlocks = blocks.slice(0, heads[0] ?? blocks.length);
  if (firstSection === undefined && startsWithV1Entries(preambleBlocks, scope)) {
    log.roadmapTitle = '';
    log.workLogTitle = '';
    sawRoadmap = sawWorkLog = true;
    parseWorkLog(preambleBlocks, 0, preambleEnd, scope, log);
  } else log.preamble = trimBlock(body.slice(0, preambleEnd));
  for (let h = 0; h < heads.length; h++) {
    const heading = blocks[heads[h]!]!;
    const title = heading.content.trim();
    const inner = blocks.slice(heads[h]! + 1, heads[h + 1]);
    const end = blocks[heads[h + 1]!]?.start ?? body.length;
    const at = bodyLine + heading.start;
    if (sectionIs(title, ROADMAP_TITLES)) {
      if (sawRoadmap) diagnostics.push(err('duplicate-section', `a second "## ${ROADMAP}" section`, at));
      sawRoadmap = true;
      if (title !== ROADMAP) log.roadmapTitle = title;
      // JIXO v1 also wrote its Work Log entries straight after the plan and a `---` line, with no heading.
      const split = sawWorkLog ? -1 : headlessWorkLog(inner, scope);
      if (split < 0) parseRoadmap(inner, heading.end, end, scope, log);
      else {
        parseRoadmap(inner.slice(0, split), heading.end, inner[split]!.start, scope, log);
        sawWorkLog = true;
        log.workLogTitle = '';
        parseWorkLog(inner.slice(split + 1), inner[split]!.end, end, scope, log);
      }
    } else if (sectionIs(title, WORK_LOG_TITLES)) {
      if (sawWorkLog) diagnostics.push(err('duplicate-section', `a second "## ${WORK_LOG}" section`, at));
      sawWorkLog = true;
      if (title !== WORK_LOG) log.workLogTitle = title;
      parseWorkLog(inner, heading.end, end, scope, log);
    } else {
      log.sections.push({ title, body: trimBlock(body.slice(heading.end, end)) });
    }
  }
  // The end of the text (trailing blank lines are no place to point at).
  let last = body.length - 1;
  while (last > 0 && body[last]!.trim() === '') last--;
  const lastLine = bodyLine + Math.max(0, last);
  if (!sawRoadmap) diagnostics.push(err('missing-section', `missing section "## ${ROADMAP}"`, lastLine));
  if (!sawWorkLog) diagnostics.push(err('missing-section', `missing section "## ${WORK_LOG}"`, lastLine));
  return { value: log, diagnostics };
}

function sectionKind(title: string): 'roadmap' | 'work-log' | undefined {
  return sectionIs(title, ROADMAP_TITLES) ? 'roadmap' : sectionIs(title, WORK_LOG_TITLES) ? 'work-log' : undefined;
}

/** Whether the first block is a list whose first item is a JIXO v1 entry (`- 时间：...，第N次执行任务：`). */
function startsWithV1Entries(blocks: readonly Block[], scope: Scope): boolean {
  const first = blocks[0];
  return first?.type === 'bullet_list' && first.children[0] !== undefined && v1Entry(first.children[0], scope) !== null;
}

/**
 * In a v1 Roadmap section: the index of a `---` line followed by Work Log entries (its Work Log
 * without a heading), or -1. Only entries count: other text after the line stays the roadmap's.
 */
function headlessWorkLog(blocks: readonly Block[], scope: Scope): number {
  for (let i = 0; i < blocks.length; i++) {
    if (blocks[i]!.type === 'hr' && blocks[i]!.markup.startsWith('-') && startsWithV1Entries(blocks.slice(i + 1), scope)) return i;
  }
  return -1;
}

/** "工作日志" and "工作日志 (Work Log)" are the Work Log; the gloss in brackets is optional. */
function sectionIs(title: string, names: readonly string[]): boolean {
  const bare = title.replace(/\s*[(（][^)）]*[)）]\s*$/, '').trim();
  return names.includes(title) || names.includes(bare);
}

/** parseLog, throwing JixoParseError (with every diagnostic) when there is any error. */
export function parseLogStrict(text: string, path?: string): LogFile {
  const { value, diagnostics } = parseLog(text);
  if (diagnostics.some((d) => d.severity === 'error')) throw new JixoParseError(path, diagnostics);
  return value;
}

function err(rule: string, message: string, line: number, column = 1): Diagnostic {
  return { rule, severity: 'error', message, line, column };
}
function warn(rule: string, message: string, line: number, column = 1): Diagnostic {
  return { rule, severity: 'warning', message, line, column };
}

function readFrontMatter(data: Record<string, unknown>, diagnostics: Diagnostic[], present: boolean, keyPlaces: ReadonlyMap<string, KeyPlace>): LogFrontMatter {
  const fm: LogFrontMatter = { title: PLACEHOLDER_TITLE, progress: 0, extra: {} };
  const bad = (key: string, message: string): void => {
    const at = keyPlace(keyPlaces, key);
    diagnostics.push(err('bad-front-matter', message, at.line, at.column));
  };
  for (const [key, value] of Object.entries(data)) {
    switch (key) {
      case 'title':
        if (typeof value === 'string') fm.title = value;
        else bad(key, 'front matter "title" must be a string');
        break;
      case 'progress': {
        const p = parseProgress(value);
        if (p === undefined) bad(key, `front matter "progress" must be a number or "NN%", got ${JSON.stringify(value)}`);
        else fm.progress = p;
        break;
      }
      case 'createTime':
      case 'updateTime':
        if (typeof value === 'string') fm[key] = value;
        else if (value instanceof Date) fm[key] = value.toISOString();
        else bad(key, `front matter "${key}" must be a string`);
        break;
      case 'exit': {
        const e = readExit(value);
        if (e === undefined) bad(key, 'front matter "exit" must be {code: 0|1|2, reason, runner, time}');
        else fm.exit = e;
        break;
      }
      case 'planner': {
        const p = readPlanner(value);
        if (p === undefined) bad(key, 'front matter "planner" must be {runner, leaseUntil, since} with UTC times like 2030-01-01T00:00:00.000Z');
        else fm.planner = p;
        break;
      }
      default:
        fm.extra[key] = value;
    }
  }
  if (present && !('title' in data)) diagnostics.push(warn('missing-title', 'front matter has no "title"', 1));
  return fm;
}

/** Progress as the seed allows it: a number or "NN%", clamped to 0..1. */
export function parseProgress(value: unknown): number | undefined {
  let n: number | undefined;
  if (typeof value === 'number') n = value;
  else if (typeof value === 'string') {
    const m = /^\s*(-?\d+(?:\.\d+)?)\s*%\s*$/.exec(value);
    if (m) n = Number(m[1]) / 100;
    else if (/^\s*-?\d+(?:\.\d+)?\s*$/.test(value)) n = Number(value);
  }
  if (n === undefined || !Number.isFinite(n)) return undefined;
  return Math.min(1, Math.max(0, n));
}

function readPlanner(value: unknown): PlannerRound | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  const v = value as Record<string, unknown>;
  const time = (t: unknown): t is string => typeof t === 'string' && ISO_TIME.test(t) && Number.isFinite(Date.parse(t));
  if (typeof v.runner !== 'string' || v.runner === '' || !time(v.leaseUntil) || !time(v.since)) return undefined;
  return { runner: v.runner, leaseUntil: v.leaseUntil, since: v.since };
}

function readExit(value: unknown): TasksExit | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  const v = value as Record<string, unknown>;
  if ((v.code !== 0 && v.code !== 1 && v.code !== 2) || typeof v.reason !== 'string' || typeof v.runner !== 'string' || typeof v.time !== 'string') return undefined;
  return { code: v.code, reason: v.reason, runner: v.runner, time: v.time };
}


/** The Roadmap: the first bullet list of the section is the checklist; text around it is kept. */
function parseRoadmap(blocks: Block[], from: number, to: number, scope: Scope, log: LogFile): void {
  const { lines } = scope;
  const at = blocks.findIndex((b) => b.type === 'bullet_list');
  if (at < 0) {
    log.roadmapIntro = trimBlock(lines.slice(from, to));
    return;
  }
  const list = blocks[at]!;
  log.roadmapIntro = trimBlock(lines.slice(from, list.start));
  log.roadmapOutro = unindentFirst(trimBlock(lines.slice(list.end, to)));
  for (const later of blocks.slice(at + 1)) {
    // A second list of tasks (another bullet character starts a new list) would be invisible to triage.
    if (later.type === 'bullet_list' && later.children.some((item) => checkbox(item, itemHead(item, scope)) !== null)) {
      scope.diagnostics.push(err('split-roadmap', `a second checklist in "## ${ROADMAP}" (a different bullet starts a new list): its tasks would be ignored; make it part of the first list`, scope.firstLine + later.start));
    }
  }
  for (const node of list.children) {
    const item = toItem(node, scope, true);
    if (item) log.roadmap.push(item);
  }
}

/** An item's first line with tabs expanded, its indentation, and where its content starts. */
interface Head {
  line: string;
  indent: number;
  column: number;
}

function itemHead(node: Block, scope: Scope): Head {
  const line = expandIndent(scope.lines[node.start] ?? '');
  return { line, indent: indentOf(line), column: itemContentColumn(line) };
}

/** `[ ] text` / `[x] text` when the item's first block is a paragraph starting on the marker line. */
function checkbox(node: Block, head: Head): RegExpExecArray | null {
  if (node.firstType !== 'paragraph' || node.firstStart !== node.start) return null;
  return CHECKBOX.exec(head.line.slice(head.column).trimEnd());
}

/** True when a line in [from, to) has text. */
function hasText(lines: readonly string[], from: number, to: number): boolean {
  for (let i = from; i < to; i++) if (lines[i]!.trim() !== '') return true;
  return false;
}

const SEEN_STATUS = 1;
const SEEN_RUNNER = 2;
const SEEN_DEPENDS = 4;
const SEEN_LEASE = 8;

function toItem(node: Block, scope: Scope, top: boolean, head = itemHead(node, scope)): RoadmapItem | undefined {
  const { lines, diagnostics, firstLine } = scope;
  const lineNo = firstLine + node.start;
  const cb = checkbox(node, head);
  if (!cb) {
    if (top) diagnostics.push(err('not-a-checklist-item', `roadmap items must be checklist items ("- [ ] ..."), got "${(lines[node.start] ?? '').trim()}"`, lineNo, head.indent + 1));
    return undefined;
  }
  const text = (cb[2] ?? '').trim();
  const item: RoadmapItem = { id: itemId(text), text, checked: cb[1] !== ' ', notes: [], children: [] };
  // Lines of the item outside its sub-lists (a continued title, paragraphs, code, even link
  // definitions, which make no block) are kept as one note, after the sub-bullets.
  let blockNote = '';
  let seen = 0;
  let badStatus = false;
  let cursor = node.start + 1;
  for (let k = 0; k <= node.children.length; k++) {
    const list = node.children[k];
    const to = list === undefined ? node.end : list.start;
    if (hasText(lines, cursor, to)) {
      const gap = unindentFirst(trimBlock(dedentLines(lines.slice(cursor, to), head.column)));
      blockNote = blockNote === '' ? gap : `${blockNote}\n\n${gap}`;
    }
    if (list === undefined) break;
    cursor = list.end;
    for (const sub of list.children) {
      const subLine = firstLine + sub.start;
      const subHead = itemHead(sub, scope);
      if (checkbox(sub, subHead)) {
        const child = toItem(sub, scope, false, subHead);
        if (child) item.children.push(child);
        continue;
      }
      const f = sub.firstType === 'paragraph' && sub.firstStart === sub.start ? FIELD.exec(subHead.line.slice(subHead.column).trimEnd()) : null;
      if (!f) {
        item.notes.push(trimBlock(dedentLines(lines.slice(sub.start, sub.end), subHead.indent)));
        continue;
      }
      const name = f[1]!;
      const value = f[2]!.trim();
      const col = subHead.column + name.length + 3;
      if (hasText(lines, sub.start + 1, sub.end)) {
        diagnostics.push(err('field-continued', `task ${item.id}: "${name}" continues past its line (the next lines are read as part of it): put a blank line before that text, or make it a bullet of its own`, subLine, col));
        continue;
      }
      const bit = name === 'status' ? SEEN_STATUS : name === 'runner' ? SEEN_RUNNER : name === 'leaseUntil' ? SEEN_LEASE : SEEN_DEPENDS;
      if ((seen & bit) !== 0) {
        diagnostics.push(err('duplicate-field', `task ${item.id}: a second "${name}"`, subLine, subHead.indent + 1));
        continue;
      }
      seen |= bit;
      if (bit === SEEN_STATUS) {
        if (STATUS_SET.has(value)) item.status = value as TaskStatus;
        else {
          badStatus = true;
          diagnostics.push(err('unknown-status', `task ${item.id}: unknown status "${value}" (expected one of ${TASK_STATUSES.join(', ')})`, subLine, col));
        }
      } else if (bit === SEEN_RUNNER) {
        if (value !== '') item.runner = value;
      } else if (bit === SEEN_LEASE) {
        // A lease that does not read as a time must not silently become "never expires" (or "expired").
        if (ISO_TIME.test(value) && Number.isFinite(Date.parse(value))) item.leaseUntil = value;
        else diagnostics.push(err('bad-lease', `task ${item.id}: leaseUntil "${value}" is not a UTC time like 2030-01-01T00:00:00.000Z`, subLine, col));
      } else {
        item.dependsOn = value.split(',').map((d) => d.trim()).filter((d) => d !== '');
      }
    }
  }
  if (blockNote !== '') item.notes.push(blockNote);
  // A childless item without status is a task, unless its text is bold (`**Phase 2: ...**`): a phase planned but not yet filled.
  if (item.status === undefined && !badStatus && item.children.length === 0 && !/^(?:\d+(?:\.\d+)*\.?\s+)?\*\*.*\*\*$/.test(item.text)) {
    // JIXO v1/v2 roadmaps were plain checklists: the box was the status (a ticked task read as
    // Pending would be run again).
    item.status = item.checked ? 'Completed' : 'Pending';
    item.statusInferred = true;
    diagnostics.push(warn('missing-status', `task ${item.id} has no "status" sub-bullet: read as ${item.status} from its checkbox`, lineNo, head.indent + 1));
  }
  if (item.status !== undefined || badStatus) {
    if (scope.seenIds.has(item.id)) diagnostics.push(err('duplicate-task-id', `duplicate task id "${item.id}"`, lineNo, head.indent + 1));
    else scope.seenIds.add(item.id);
  }
  return item;
}

/** Where one Work Log entry starts: a `### Log` heading (current or v3 layout) or a v1 bullet. */
interface EntryStart {
  /** File-relative line (0-based, of the body) where the entry starts. */
  start: number;
  /** Index in the section's blocks of the block that starts it (the v1 entry's whole list). */
  index: number;
  heading?: { block: Block; m: RegExpExecArray; v3: boolean };
  v1?: { item: Block; m: RegExpExecArray };
}

/**
 * The Work Log: `### Log N @Job (time)` headings start entries, and so do the layouts of older JIXO
 * versions (v3 `### Log-N @ time for runner`, v1/v2 `- 时间：...，第N次执行任务：` bullets); anything
 * else is kept as text.
 */
function parseWorkLog(blocks: Block[], from: number, to: number, scope: Scope, log: LogFile): void {
  const { lines, diagnostics, firstLine } = scope;
  const starts: EntryStart[] = [];
  blocks.forEach((b, index) => {
    if (b.type === 'bullet_list') {
      // After a Ratchet entry, its field list and the v1 bullets below it make one Markdown list.
      for (const item of b.children) {
        const m = v1Entry(item, scope);
        if (m) starts.push({ start: item.start, index, v1: { item, m } });
      }
      return;
    }
    if (b.type !== 'heading' || b.depth !== 3) return;
    const title = b.content.trim();
    const m = LOG_HEADING.exec(title);
    const v3 = m ? null : V3_LOG_HEADING.exec(title);
    if (m ?? v3) starts.push({ start: b.start, index, heading: { block: b, m: (m ?? v3)!, v3: v3 !== null } });
    else diagnostics.push(warn('unknown-heading', `"${(lines[b.start] ?? '').trim()}" is not a "### Log N @Job (time)" heading: kept as text`, firstLine + b.start));
  });
  log.workLogIntro = trimBlock(lines.slice(from, starts[0]?.start ?? to));
  for (let h = 0; h < starts.length; h++) {
    const at = starts[h]!;
    const next = starts[h + 1];
    const end = next?.start ?? to;
    if (at.v1) {
      log.workLog.push(v1ToEntry(at.v1.item, at.v1.m, lines.slice(at.start, end), scope));
      continue;
    }
    const { block, m, v3 } = at.heading!;
    const inner = blocks.slice(at.index + 1, next === undefined ? blocks.length : next.v1 ? next.index + 1 : next.index);
    const entry: WorkLogEntry = v3
      ? { number: Number(m[1]), job: '', time: m[2]!, role: '', objective: '', result: '', summary: '', runner: m[3]!, extra: '' }
      : { number: Number(m[1]), job: m[2]!, time: m[3]!, role: '', objective: '', result: '', summary: '', extra: '' };
    const used = new Set<number>();
    const seen = new Set<string>();
    for (const b of inner) {
      if (b.type !== 'bullet_list') continue;
      for (const item of b.children) {
        if (item.start >= end) break;
        const { line, column } = itemHead(item, scope);
        const f = ENTRY_FIELD.exec(line.slice(column));
        if (!f) continue;
        const key = f[1]!.toLowerCase();
        if (seen.has(key)) {
          diagnostics.push(warn('duplicate-field', `Log ${entry.number}: a second "${f[1]}": kept as text`, firstLine + item.start));
          continue;
        }
        seen.add(key);
        (entry as unknown as Record<string, string>)[key] = trimBlock([f[2]!, ...dedentLines(lines.slice(item.start + 1, item.end), column)]);
        for (let i = item.start; i < item.end; i++) used.add(i);
      }
    }
    entry.extra = unindentFirst(trimBlock(lines.slice(block.end, end).filter((_, i) => !used.has(block.end + i))));
    for (const key of ['role', 'objective', 'result', 'summary']) {
      if (!seen.has(key)) diagnostics.push(warn('missing-field', `Log ${entry.number}: no "**${key[0]!.toUpperCase()}${key.slice(1)}**" line`, firstLine + block.start));
    }
    if (v3) entry.legacy = { format: 'v3', text: trimBlock(lines.slice(at.start, end)) };
    log.workLog.push(entry);
  }
}

/** The v1 heading line of a list item (`时间：...，执行者：...，第N次执行任务：`), or null. */
function v1Entry(item: Block, scope: Scope): RegExpExecArray | null {
  if (item.firstType !== 'paragraph' || item.firstStart !== item.start) return null;
  const { line, column } = itemHead(item, scope);
  return V1_ENTRY.exec(line.slice(column).trim());
}

/** A v1 entry: number, runner job and time from its line; its sub-bullets are the summary. */
function v1ToEntry(item: Block, m: RegExpExecArray, source: string[], scope: Scope): WorkLogEntry {
  // JIXO indented the sub-bullets by four spaces, not to the item's content column: strip what they share.
  const body = scope.lines.slice(item.start + 1, item.end).map(expandIndent);
  const shared = Math.min(...body.filter((l) => l.trim() !== '').map(indentOf));
  const summary = trimBlock(dedentLines(body, Number.isFinite(shared) ? shared : 0));
  return { number: Number(m[3]), job: m[2]!.trim(), time: m[1]!.trim(), role: '', objective: '', result: '', summary, extra: '', legacy: { format: 'v1', text: trimBlock(source) } };
}

/** Percent text as written in the file. */
export function formatProgress(progress: number): string {
  return `${Math.round(Math.min(1, Math.max(0, progress)) * 100)}%`;
}

/** The canonical text of a log. serialise(parse(canonical)) is the same bytes. */
export function serializeLog(log: LogFile): string {
  const fm = log.frontMatter;
  let out = '---\n';
  out += yamlLine('title', fm.title);
  out += yamlLine('progress', formatProgress(fm.progress));
  if (fm.createTime !== undefined) out += yamlLine('createTime', fm.createTime);
  if (fm.updateTime !== undefined) out += yamlLine('updateTime', fm.updateTime);
  if (fm.exit !== undefined) out += yamlLine('exit', { code: fm.exit.code, reason: fm.exit.reason, runner: fm.exit.runner, time: fm.exit.time });
  if (fm.planner !== undefined) out += yamlLine('planner', { runner: fm.planner.runner, leaseUntil: fm.planner.leaseUntil, since: fm.planner.since });
  out += yamlExtra(fm.extra);
  out += '---\n';
  if (log.preamble !== '') out += `\n${log.preamble}\n`;
  const roadmapParts: string[] = [];
  if (log.roadmapIntro !== '') roadmapParts.push(log.roadmapIntro);
  if (log.roadmap.length > 0) {
    const buf: string[] = [];
    for (const item of log.roadmap) renderItem(item, '', buf);
    roadmapParts.push(buf.join('\n'));
  }
  if (log.roadmapOutro !== '') roadmapParts.push(log.roadmapOutro);
  const logParts: string[] = [];
  if (log.workLogIntro !== '') logParts.push(log.workLogIntro);
  for (const e of log.workLog) logParts.push(renderEntry(e));
  const roadmapBody = roadmapParts.join('\n\n');
  const logBody = logParts.join('\n\n');
  // JIXO v1 layouts are written back as they came: a log of entries only (no Roadmap heading, for
  // as long as there is no plan), and entries after the plan and a `---` line, with no heading.
  const noRoadmap = log.roadmapTitle === '' && roadmapBody === '';
  const headless = log.workLogTitle === '' && (noRoadmap || log.roadmapTitle !== '') && logBody !== '';
  const sections: ExtraSection[] = [
    ...(noRoadmap ? [] : [{ title: log.roadmapTitle === '' || log.roadmapTitle === undefined ? ROADMAP : log.roadmapTitle, body: roadmapBody }]),
    ...(headless ? [] : [{ title: log.workLogTitle === '' || log.workLogTitle === undefined ? WORK_LOG : log.workLogTitle, body: logBody }]),
    ...log.sections,
  ];
  out += '\n';
  const rendered = sections.map((s) => `## ${s.title}\n${s.body === '' ? '' : `\n${s.body}\n`}`);
  if (headless) rendered.splice(noRoadmap ? 0 : 1, 0, noRoadmap ? `${logBody}\n` : `---\n\n${logBody}\n`);
  out += rendered.join('\n');
  return out;
}

function indentBlock(text: string, pad: string): string {
  return text
    .split('\n')
    .map((l) => (l === '' ? '' : pad + l))
    .join('\n');
}

function renderItem(item: RoadmapItem, pad: string, buf: string[]): void {
  buf.push(`${pad}- [${item.checked ? 'x' : ' '}] ${item.text}`.trimEnd());
  const sub = `${pad}  `;
  if (item.status !== undefined && item.statusInferred !== true) buf.push(`${sub}- status: ${item.status}`);
  if (item.runner !== undefined) buf.push(`${sub}- runner: ${item.runner}`);
  if (item.leaseUntil !== undefined) buf.push(`${sub}- leaseUntil: ${item.leaseUntil}`);
  if (item.dependsOn !== undefined) buf.push(`${sub}- dependsOn: ${item.dependsOn.join(', ')}`.trimEnd());
  for (const note of item.notes) if (BULLET_NOTE.test(note)) buf.push(indentBlock(note, sub));
  for (const child of item.children) renderItem(child, sub, buf);
  // Other blocks go last, after a blank line: next to a bullet they would continue it.
  for (const note of item.notes) if (!BULLET_NOTE.test(note)) buf.push('', indentBlock(note, sub));
}

function renderEntry(e: WorkLogEntry): string {
  // Entries are never edited once written: an older layout goes back as it came.
  if (e.legacy !== undefined) return e.legacy.text;
  const field = (name: string, value: string): string => `- **${name}**: ${value.split('\n').map((l, i) => (i === 0 || l === '' ? l : `  ${l}`)).join('\n')}`.trimEnd();
  let out = `### Log ${e.number} @${e.job} (${e.time})\n\n`;
  const fields = [field('Role', e.role), field('Objective', e.objective), field('Result', e.result), field('Summary', e.summary)];
  if (e.runner !== undefined) fields.push(field('Runner', e.runner));
  if (e.blocker !== undefined) fields.push(field('Blocker', e.blocker));
  out += fields.join('\n');
  if (e.extra !== '') out += `\n\n${e.extra}`;
  return out;
}
