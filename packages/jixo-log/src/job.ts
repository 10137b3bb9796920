/**
 * `*.job.md`: front matter (name, dirs, agents, model, useLog), the goal, and Clarification Request
 * blocks. The structure comes from the CommonMark parser the logs use (markdown-blocks.ts): a
 * `### JIXO: CLARIFICATION REQUEST` inside fenced code or a quote is not a block, and a setext
 * heading is told from a thematic break as CommonMark says.
 */
import { JixoParseError } from './errors.js';
import { keyPlace, normalizeText, splitFrontMatter, yamlExtra, yamlLine, type KeyPlace } from './front-matter.js';
import type { ParseResult } from './log.js';
import { MAX_NESTING, parseBlocks } from './markdown-blocks.js';
import type { Clarification, Diagnostic, JobFile, JobFrontMatter } from './types.js';

export const CLARIFICATION_HEADING = 'JIXO: CLARIFICATION REQUEST';
export const DEFAULT_TO_USER = 'To provide a more accurate result, I need clarification. I have proceeded with a default plan, but you can provide more detail below.';
export const RESPONSE_PLACEHOLDER = '<!-- Please fill in your answer here. after finished answer, remove this comment block. -->';

export function parseJob(text: string): ParseResult<JobFile> {
  const src = normalizeText(text);
  const { data, body, bodyLine, diagnostics, keyPlaces } = splitFrontMatter(src, false);
  const frontMatter = readJobFrontMatter(data ?? (Object.create(null) as Record<string, unknown>), diagnostics, keyPlaces);
  const { blocks: nodes, tooDeepAt } = parseBlocks(body.join('\n'));
  if (tooDeepAt !== undefined) diagnostics.push({ rule: 'nesting-too-deep', severity: 'error', message: `the Markdown nests more than ${MAX_NESTING / 2} lists or quotes deep here; what follows cannot be read`, line: bodyLine + tooDeepAt, column: 1 });
  // Line ranges [from, to) of the body that are clarification blocks (with their `---` lines).
  const cuts: { from: number; to: number }[] = [];
  const clarifications: Clarification[] = [];
  for (let i = 0; i < nodes.length; i++) {
    const node = nodes[i]!;
    if (node.type !== 'heading' || node.depth !== 3 || node.content.trim() !== CLARIFICATION_HEADING) continue;
    const prev = nodes[i - 1];
    const from = prev?.type === 'hr' && cuts.every((c) => c.to <= prev.start) ? prev.start : node.start;
    let to = body.length;
    let j = i + 1;
    for (; j < nodes.length; j++) {
      const n = nodes[j]!;
      // The closing `---`: a thematic break, or the underline of a setext heading (after a response
      // written as a plain paragraph), which then belongs to the block.
      if (n.type === 'hr' || (n.type === 'heading' && n.depth === 2 && n.markup === '-')) {
        to = n.end;
        break;
      }
      if (n.type === 'heading' && n.depth <= 3) {
        to = n.start;
        j--;
        break;
      }
    }
    i = j;
    const blockLine = bodyLine + node.start;
    const c = readBlock(body.slice(node.end, to).join('\n'), blockLine, diagnostics);
    if (c) {
      if (clarifications.some((x) => x.id === c.id)) diagnostics.push({ rule: 'duplicate-clarification-id', severity: 'error', message: `duplicate clarification ID "${c.id}"`, line: blockLine, column: 1 });
      clarifications.push(c);
    }
    cuts.push({ from, to });
  }
  const goal: string[] = [];
  let at = 0;
  for (const c of cuts) {
    goal.push(...body.slice(at, c.from));
    at = c.to;
  }
  goal.push(...body.slice(at));
  return { value: { frontMatter, goal: trimBlank(goal.join('\n')), clarifications }, diagnostics };
}

export function parseJobStrict(text: string, path?: string): JobFile {
  const { value, diagnostics } = parseJob(text);
  if (diagnostics.some((d) => d.severity === 'error')) throw new JixoParseError(path, diagnostics);
  return value;
}

function trimBlank(text: string): string {
  return text.replace(/^(?:[ \t]*\n)+/, '').replace(/\s+$/, '');
}

function readJobFrontMatter(data: Record<string, unknown>, diagnostics: Diagnostic[], keyPlaces: ReadonlyMap<string, KeyPlace>): JobFrontMatter {
  const fm: JobFrontMatter = { extra: {} };
  const bad = (key: string, message: string): void => {
    diagnostics.push({ rule: 'bad-front-matter', severity: 'error', message, ...keyPlace(keyPlaces, key) });
  };
  const strings = (key: string, value: unknown): string[] | undefined => {
    if (typeof value === 'string') return [value];
    if (Array.isArray(value) && value.every((v) => typeof v === 'string')) return value;
    bad(key, `front matter "${key}" must be a string or a list of strings`);
    return undefined;
  };
  for (const [key, value] of Object.entries(data)) {
    if (key === 'name' || key === 'model' || key === 'useLog') {
      if (typeof value === 'string') fm[key] = value;
      else if (value !== null) bad(key, `front matter "${key}" must be a string`);
    } else if (key === 'dirs' || key === 'dir') {
      const v = strings(key, value);
      if (v) fm.dirs = [...(fm.dirs ?? []), ...v];
    } else if (key === 'agents') {
      const v = strings(key, value);
      if (v) fm.agents = v;
    } else fm.extra[key] = value;
  }
  if (fm.name !== undefined && !/^[A-Za-z0-9][A-Za-z0-9._-]*$/.test(fm.name)) {
    diagnostics.push({ rule: 'bad-job-name', severity: 'error', message: `job name "${fm.name}" must be letters, digits, ".", "_" or "-" (it names the log file)`, ...keyPlace(keyPlaces, 'name') });
  }
  if (fm.useLog !== undefined && !/^[A-Za-z0-9][A-Za-z0-9._-]*$/.test(fm.useLog)) {
    diagnostics.push({ rule: 'bad-job-name', severity: 'error', message: `useLog "${fm.useLog}" must be letters, digits, ".", "_" or "-" (it names the log file)`, ...keyPlace(keyPlaces, 'useLog') });
  }
  return fm;
}

const LABEL = /^\*\*(ID|To User|Question|Response)\*\*:[ \t]*(.*)$/;

function readBlock(text: string, headingLine: number, diagnostics: Diagnostic[]): Clarification | undefined {
  const lines = text.split('\n');
  const parts: Record<string, string[]> = {};
  let current: string | undefined;
  // Text Ratchet would not write back (before the first label, or under a repeated one) is refused, not dropped.
  let ok = true;
  lines.forEach((line, i) => {
    const m = LABEL.exec(line);
    const at = headingLine + 1 + i;
    if (m) {
      current = m[1]!;
      if (parts[current] !== undefined) {
        diagnostics.push({ rule: 'duplicate-field', severity: 'error', message: `a second "**${current}**:" in this clarification request`, line: at, column: 1 });
        ok = false;
      }
      parts[current] = m[2] === '' ? [] : [m[2]!];
    } else if (current !== undefined) parts[current]!.push(line);
    else if (line.trim() !== '') {
      diagnostics.push({ rule: 'unknown-clarification-text', severity: 'error', message: 'text before "**ID**:" in a clarification request: move it under **Question** or **Response**', line: at, column: 1 });
      ok = false;
    }
  });
  if (!ok) return undefined;
  const id = (parts.ID ?? []).join(' ').trim();
  if (id === '') {
    diagnostics.push({ rule: 'missing-clarification-id', severity: 'error', message: 'clarification request without an "**ID**:" line', line: headingLine, column: 1 });
    return undefined;
  }
  const response = unbullet(stripClosing(parts.Response ?? []).join('\n').replace(/<!--[\s\S]*?-->/g, ''));
  return {
    id,
    toUser: trimBlank((parts['To User'] ?? []).join('\n')),
    question: unbullet(stripClosing(parts.Question ?? []).join('\n')),
    response,
    answered: response !== '',
  };
}

function stripClosing(lines: string[]): string[] {
  const out = [...lines];
  while (out.length > 0 && /^\s*(?:-{3,}\s*)?$/.test(out[out.length - 1]!)) out.pop();
  return out;
}

/** Lines of a bullet list back to plain lines (when every line is a "- " bullet); empty bullets go. */
function unbullet(text: string): string {
  const t = trimBlank(text);
  const lines = t.split('\n');
  if (!lines.every((l) => l.trim() === '' || l.startsWith('- ') || l.trim() === '-')) return t;
  return trimBlank(lines.map((l) => (l.startsWith('- ') ? l.slice(2) : l.trim() === '-' ? '' : l)).join('\n'));
}

function bullet(text: string): string {
  return text
    .split('\n')
    .map((l) => (l === '' ? '' : `- ${l}`))
    .join('\n');
}

export function serializeJob(job: JobFile): string {
  const fm = job.frontMatter;
  let head = '';
  if (fm.name !== undefined) head += yamlLine('name', fm.name);
  if (fm.dirs !== undefined) head += yamlLine('dirs', fm.dirs);
  if (fm.agents !== undefined) head += yamlLine('agents', fm.agents);
  if (fm.model !== undefined) head += yamlLine('model', fm.model);
  if (fm.useLog !== undefined) head += yamlLine('useLog', fm.useLog);
  head += yamlExtra(fm.extra);
  let out = head === '' ? '' : `---\n${head}---\n`;
  if (job.goal !== '') out += `${out === '' ? '' : '\n'}${job.goal}\n`;
  for (const c of job.clarifications) out += renderClarification(c);
  return out;
}

export function renderClarification(c: Clarification): string {
  const response = c.response === '' ? `- ${RESPONSE_PLACEHOLDER}` : bullet(c.response);
  return `\n---\n### ${CLARIFICATION_HEADING}\n**ID**: ${c.id}\n**To User**: ${c.toUser}\n\n**Question**:\n${bullet(c.question)}\n\n**Response**:\n${response}\n---\n`;
}
