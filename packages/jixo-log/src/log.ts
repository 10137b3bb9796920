/**
 * `*.log.md`: parse into a LogFile and serialise it back canonically.
 *
 * Structure is found by a line scanner that follows CommonMark for the constructs this format uses
 * (ATX level-2/3 headings at column 0, fenced code at column 0, list items nested by indentation).
 * mdast-util-from-markdown costs about 1 ms per list item on our machines (20 s for a 5,000-task
 * roadmap), far over the 100 ms budget, so it serves as the job-file parser and as the oracle the
 * property tests compare this scanner against. Whatever the scanner does not understand is kept
 * verbatim (notes, intros, unknown sections, unknown front matter keys).
 */
import { normalizeText, splitFrontMatter, yamlExtra, yamlLine } from './front-matter.js';
import { JixoParseError } from './errors.js';
import { TASK_STATUSES, type Diagnostic, type ExtraSection, type LogFile, type LogFrontMatter, type RoadmapItem, type TaskStatus, type TasksExit, type WorkLogEntry } from './types.js';

export const ROADMAP = 'Roadmap';
export const WORK_LOG = 'Work Log';
export const PLACEHOLDER_TITLE = '_待定_';

export interface ParseResult<T> {
  value: T;
  diagnostics: Diagnostic[];
}

const STATUS_SET: ReadonlySet<string> = new Set(TASK_STATUSES);
/** Indent of a list item line (`  - x` -> 2), or -1 when the line is not one. Hand-rolled: it runs on every line. */
function itemIndent(line: string): number {
  let n = 0;
  while (line.charCodeAt(n) === 32) n++;
  const c = line.charCodeAt(n);
  return (c === 45 || c === 42 || c === 43) && line.charCodeAt(n + 1) === 32 ? n : -1;
}
const CHECKBOX = /^\[( |x|X)\](?: (.*))?$/;
const FIELD = /^(status|runner|dependsOn):[ \t]*(.*)$/;
const LOG_HEADING = /^Log (\d+) @(\S+) \((.*)\)$/;
const ENTRY_FIELD = /^- \*\*(Role|Objective|Result|Summary)\*\*:[ \t]?(.*)$/;
const TASK_ID = /^(\d+(?:\.\d+)*)\.?(?=\s|$)/;

/** The id of a roadmap item: its leading number (`1.2` of `1.2. Do x`), else its whole text. */
export function itemId(text: string): string {
  return TASK_ID.exec(text)?.[1] ?? text.trim();
}

/** Parse a log; diagnostics with severity "error" mean the file must not be rewritten. */
export function parseLog(text: string): ParseResult<LogFile> {
  const src = normalizeText(text);
  const { data, body, bodyLine, diagnostics } = splitFrontMatter(src, true);
  const frontMatter = readFrontMatter(data ?? Object.create(null) as Record<string, unknown>, diagnostics, data !== undefined);
  seenIds = new Set();
  const log: LogFile = { frontMatter, preamble: '', roadmapIntro: '', roadmap: [], roadmapOutro: '', workLogIntro: '', workLog: [], sections: [] };

  // Split the body into level-2 sections (outside fenced code).
  const starts: { title: string; index: number }[] = [];
  let fence: string | undefined;
  for (let i = 0; i < body.length; i++) {
    const line = body[i]!;
    fence = nextFence(fence, line);
    if (fence === undefined && line.startsWith('## ')) starts.push({ title: headingText(line.slice(3)), index: i });
    else if (fence === undefined && line === '##') starts.push({ title: '', index: i });
  }
  log.preamble = trimBlock(body.slice(0, starts[0]?.index ?? body.length));
  let sawRoadmap = false;
  let sawWorkLog = false;
  for (let s = 0; s < starts.length; s++) {
    const { title, index } = starts[s]!;
    const end = starts[s + 1]?.index ?? body.length;
    const lines = body.slice(index + 1, end);
    const firstLine = bodyLine + index + 1;
    if (title === ROADMAP) {
      if (sawRoadmap) diagnostics.push(err('duplicate-section', `a second "## ${ROADMAP}" section`, bodyLine + index));
      sawRoadmap = true;
      parseRoadmap(lines, firstLine, log, diagnostics);
    } else if (title === WORK_LOG) {
      if (sawWorkLog) diagnostics.push(err('duplicate-section', `a second "## ${WORK_LOG}" section`, bodyLine + index));
      sawWorkLog = true;
      parseWorkLog(lines, firstLine, log, diagnostics);
    } else {
      log.sections.push({ title, body: trimBlock(lines) });
    }
  }
  const lastLine = bodyLine + Math.max(0, body.length - 1);
  if (!sawRoadmap) diagnostics.push(err('missing-section', `missing section "## ${ROADMAP}"`, lastLine));
  if (!sawWorkLog) diagnostics.push(err('missing-section', `missing section "## ${WORK_LOG}"`, lastLine));
  seenIds = undefined;
  return { value: log, diagnostics };
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

function readFrontMatter(data: Record<string, unknown>, diagnostics: Diagnostic[], present: boolean): LogFrontMatter {
  const fm: LogFrontMatter = { title: PLACEHOLDER_TITLE, progress: 0, extra: {} };
  for (const [key, value] of Object.entries(data)) {
    switch (key) {
      case 'title':
        if (typeof value === 'string') fm.title = value;
        else diagnostics.push(err('bad-front-matter', 'front matter "title" must be a string', 2));
        break;
      case 'progress': {
        const p = parseProgress(value);
        if (p === undefined) diagnostics.push(err('bad-front-matter', `front matter "progress" must be a number or "NN%", got ${JSON.stringify(value)}`, 2));
        else fm.progress = p;
        break;
      }
      case 'createTime':
      case 'updateTime':
        if (typeof value === 'string') fm[key] = value;
        else if (value instanceof Date) fm[key] = value.toISOString();
        else diagnostics.push(err('bad-front-matter', `front matter "${key}" must be a string`, 2));
        break;
      case 'exit': {
        const e = readExit(value);
        if (e === undefined) diagnostics.push(err('bad-front-matter', 'front matter "exit" must be {code: 0|1|2, reason, runner, time}', 2));
        else fm.exit = e;
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

function readExit(value: unknown): TasksExit | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  const v = value as Record<string, unknown>;
  if ((v.code !== 0 && v.code !== 1 && v.code !== 2) || typeof v.reason !== 'string' || typeof v.runner !== 'string' || typeof v.time !== 'string') return undefined;
  return { code: v.code, reason: v.reason, runner: v.runner, time: v.time };
}

/** Track fenced code at column 0: returns the open fence marker, or undefined outside a fence. */
function nextFence(open: string | undefined, line: string): string | undefined {
  const c = line.charCodeAt(0);
  if (c !== 96 && c !== 126) return open;
  const m = /^(`{3,}|~{3,})/.exec(line);
  if (!m) return open;
  if (open === undefined) return m[1]!;
  return m[1]![0] === open[0] && m[1]!.length >= open.length && line.slice(m[1]!.length).trim() === '' ? undefined : open;
}

function headingText(raw: string): string {
  return raw.replace(/\s+#+\s*$/, '').trim();
}

function trimBlock(lines: string[]): string {
  let a = 0;
  let b = lines.length;
  while (a < b && lines[a]!.trim() === '') a++;
  while (b > a && lines[b - 1]!.trim() === '') b--;
  return lines.slice(a, b).join('\n');
}

interface Node {
  indent: number;
  text: string;
  /** Index of the item line within the section. */
  start: number;
  /** One past the last line of this item and its descendants. */
  end: number;
  children: Node[];
  /** Lines between the item line and its first child (continuations). */
  own: number[];
}

function indentOf(line: string): number {
  let n = 0;
  while (n < line.length && line[n] === ' ') n++;
  return n;
}

function parseRoadmap(lines: string[], firstLine: number, log: LogFile, diagnostics: Diagnostic[]): void {
  let first = -1;
  let fence: string | undefined;
  for (let i = 0; i < lines.length; i++) {
    fence = nextFence(fence, lines[i]!);
    const ind = itemIndent(lines[i]!);
    if (fence === undefined && ind >= 0 && ind <= 3) {
      first = i;
      break;
    }
  }
  if (first < 0) {
    log.roadmapIntro = trimBlock(lines);
    return;
  }
  log.roadmapIntro = trimBlock(lines.slice(0, first));
  // The list runs until a non-blank line at column 0 that is not an item.
  let end = lines.length;
  for (let i = first; i < lines.length; i++) {
    const line = lines[i]!;
    if (line.length > 0 && line.charCodeAt(0) !== 32 && line.trim() !== '' && itemIndent(line) < 0) {
      end = i;
      break;
    }
  }
  log.roadmapOutro = trimBlock(lines.slice(end));
  const roots: Node[] = [];
  const stack: Node[] = [];
  for (let i = first; i < end; i++) {
    const line = lines[i]!;
    const ind = itemIndent(line);
    if (ind >= 0) {
      const node: Node = { indent: ind, text: line.slice(ind + 2), start: i, end: i + 1, children: [], own: [] };
      while (stack.length > 0 && stack[stack.length - 1]!.indent >= node.indent) stack.pop();
      const parent = stack[stack.length - 1];
      if (parent) parent.children.push(node);
      else roots.push(node);
      stack.push(node);
      for (const s of stack) s.end = i + 1;
    } else {
      const top = stack[stack.length - 1];
      if (top === undefined) continue;
      if (line.trim() !== '') {
        // A continuation belongs to the deepest open item it is indented under.
        const ind = indentOf(line);
        while (stack.length > 1 && stack[stack.length - 1]!.indent >= ind) stack.pop();
      }
      if (line.trim() === '') continue;
      stack[stack.length - 1]!.own.push(i);
      for (const s of stack) s.end = i + 1;
    }
  }
  for (const node of roots) {
    const item = toItem(node, lines, firstLine, diagnostics, true);
    if (item) log.roadmap.push(item);
  }
}

function dedent(lines: string[], by: number): string {
  return trimBlock(lines.map((l) => (indentOf(l) >= by ? l.slice(by) : l.trimStart())));
}

function toItem(node: Node, lines: string[], firstLine: number, diagnostics: Diagnostic[], top: boolean): RoadmapItem | undefined {
  const lineNo = firstLine + node.start;
  const cb = CHECKBOX.exec(node.text);
  if (!cb) {
    if (top) diagnostics.push(err('not-a-checklist-item', `roadmap items must be checklist items ("- [ ] ..."), got "- ${node.text}"`, lineNo, node.indent + 1));
    return undefined;
  }
  const text = (cb[2] ?? '').trim();
  const item: RoadmapItem = { id: itemId(text), text, checked: cb[1] !== ' ', notes: [], children: [] };
  let badStatus = false;
  if (node.own.length > 0) item.notes.push(dedent(node.own.map((i) => lines[i]!), node.indent + 2));
  for (const child of node.children) {
    const childLine = firstLine + child.start;
    if (CHECKBOX.test(child.text)) {
      const sub = toItem(child, lines, firstLine, diagnostics, false);
      if (sub) item.children.push(sub);
      continue;
    }
    const f = FIELD.exec(child.text);
    if (f && child.children.length === 0 && child.own.length === 0) {
      const value = f[2]!.trim();
      if (f[1] === 'status') {
        if (item.status !== undefined) diagnostics.push(err('duplicate-field', `task ${item.id}: a second "status"`, childLine, child.indent + 3));
        else if (STATUS_SET.has(value)) item.status = value as TaskStatus;
        else {
          badStatus = true;
          diagnostics.push(err('unknown-status', `task ${item.id}: unknown status "${value}" (expected one of ${TASK_STATUSES.join(', ')})`, childLine, child.indent + 11));
        }
      } else if (f[1] === 'runner') {
        if (value !== '') item.runner = value;
      } else {
        const deps = value.split(',').map((d) => d.trim()).filter((d) => d !== '');
        item.dependsOn = deps;
      }
      continue;
    }
    item.notes.push(dedent(lines.slice(child.start, child.end), child.indent));
  }
  // A childless item without status is a task, unless its text is bold (`**Phase 2: ...**`): a phase planned but not yet filled.
  if (item.status === undefined && !badStatus && item.children.length === 0 && !/^(?:\d+(?:\.\d+)*\.?\s+)?\*\*.*\*\*$/.test(text)) {
    diagnostics.push(warn('missing-status', `task ${item.id} has no "status" sub-bullet: read as Pending`, lineNo, node.indent + 1));
    item.status = 'Pending';
  }
  if (item.status !== undefined && seenIds !== undefined) {
    if (seenIds.has(item.id)) diagnostics.push(err('duplicate-task-id', `duplicate task id "${item.id}"`, lineNo));
    else seenIds.add(item.id);
  }
  return item;
}

// Task ids seen so far in the current parse (parsing is synchronous, so one module-level set is safe).
let seenIds: Set<string> | undefined;

function parseWorkLog(lines: string[], firstLine: number, log: LogFile, diagnostics: Diagnostic[]): void {
  const heads: number[] = [];
  let fence: string | undefined;
  for (let i = 0; i < lines.length; i++) {
    fence = nextFence(fence, lines[i]!);
    if (fence === undefined && LOG_HEADING.test(lines[i]!.startsWith('### ') ? headingText(lines[i]!.slice(4)) : '')) heads.push(i);
    else if (fence === undefined && lines[i]!.startsWith('### ')) diagnostics.push(warn('unknown-heading', `"${lines[i]}" is not a "### Log N @Job (time)" heading: kept as text`, firstLine + i));
  }
  log.workLogIntro = trimBlock(lines.slice(0, heads[0] ?? lines.length));
  for (let h = 0; h < heads.length; h++) {
    const start = heads[h]!;
    const end = heads[h + 1] ?? lines.length;
    const m = LOG_HEADING.exec(headingText(lines[start]!.slice(4)))!;
    const entry: WorkLogEntry = { number: Number(m[1]), job: m[2]!, time: m[3]!, role: '', objective: '', result: '', summary: '', extra: '' };
    const extra: string[] = [];
    const seen = new Set<string>();
    let current: { key: string; lines: string[] } | undefined;
    const flush = (): void => {
      if (!current) return;
      const value = trimBlock(current.lines.map((l, i) => (i === 0 ? l : indentOf(l) >= 2 ? l.slice(2) : l.trimStart())));
      (entry as unknown as Record<string, string>)[current.key] = value;
      current = undefined;
    };
    for (let i = start + 1; i < end; i++) {
      const line = lines[i]!;
      const f = ENTRY_FIELD.exec(line);
      if (f) {
        flush();
        const key = f[1]!.toLowerCase();
        if (seen.has(key)) {
          diagnostics.push(warn('duplicate-field', `Log ${entry.number}: a second "${f[1]}": kept as text`, firstLine + i));
          extra.push(line);
          continue;
        }
        seen.add(key);
        current = { key, lines: [f[2]!] };
      } else if (current && (line.startsWith('  ') || (line.trim() === '' && nextIsIndented(lines, i + 1, end)))) {
        current.lines.push(line);
      } else {
        flush();
        extra.push(line);
      }
    }
    flush();
    entry.extra = trimBlock(extra);
    for (const key of ['role', 'objective', 'result', 'summary']) {
      if (!seen.has(key)) diagnostics.push(warn('missing-field', `Log ${entry.number}: no "**${key[0]!.toUpperCase()}${key.slice(1)}**" line`, firstLine + start));
    }
    log.workLog.push(entry);
  }
}

function nextIsIndented(lines: string[], from: number, end: number): boolean {
  for (let i = from; i < end; i++) {
    if (lines[i]!.trim() === '') continue;
    return lines[i]!.startsWith('  ');
  }
  return false;
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
  const sections: ExtraSection[] = [{ title: ROADMAP, body: roadmapParts.join('\n\n') }, { title: WORK_LOG, body: logParts.join('\n\n') }, ...log.sections];
  out += '\n';
  out += sections.map((s) => `## ${s.title}\n${s.body === '' ? '' : `\n${s.body}\n`}`).join('\n');
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
  if (item.status !== undefined) buf.push(`${sub}- status: ${item.status}`);
  if (item.runner !== undefined) buf.push(`${sub}- runner: ${item.runner}`);
  if (item.dependsOn !== undefined) buf.push(`${sub}- dependsOn: ${item.dependsOn.join(', ')}`.trimEnd());
  for (const note of item.notes) buf.push(indentBlock(note, sub));
  for (const child of item.children) renderItem(child, sub, buf);
}

function renderEntry(e: WorkLogEntry): string {
  const field = (name: string, value: string): string => `- **${name}**: ${value.split('\n').map((l, i) => (i === 0 || l === '' ? l : `  ${l}`)).join('\n')}`.trimEnd();
  let out = `### Log ${e.number} @${e.job} (${e.time})\n\n`;
  out += [field('Role', e.role), field('Objective', e.objective), field('Result', e.result), field('Summary', e.summary)].join('\n');
  if (e.extra !== '') out += `\n\n${e.extra}`;
  return out;
}
