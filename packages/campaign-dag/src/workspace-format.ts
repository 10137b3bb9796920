/**
 * FTL's workspace XML: the types, a deterministic serializer with real escaping, and a parser
 * (fast-xml-parser, loaded lazily so campaign commands never pay for it). A delivery containing
 * `<`, `&`, `]]>` or a carriage return survives a round trip; DOCTYPE/ENTITY declarations are refused
 * (no entity expansion from a file a builder wrote).
 */
import { CampaignError } from './errors.js';
import { formatSeq } from './seq.js';
import { SLUG_PATTERN, type Idioms, type Task } from './types.js';

export const WORKSPACE_SCHEMA_VERSION = '1.0';
export const WORKSPACE_STATUSES = ['active', 'complete', 'blocked'] as const;
export type WorkspaceStatus = (typeof WORKSPACE_STATUSES)[number];

/** A failure from memory (or a sibling's block) as the workspace's `<prior_knowledge>` receives it. */
export interface PriorFailure {
  name: string;
  trigger: string;
  fix: string;
  cost: number;
  /** A regex that recognises the failure in output (FTL's `match`); carried, never run here. */
  match?: string;
  source?: string[];
}

export interface PriorPattern {
  name: string;
  trigger?: string;
  insight: string;
  saved: number;
  source?: string[];
}

/** The input `workspace create` takes from memory (the CLI composes @ratchet/memory into it). */
export interface PriorKnowledge {
  failures: PriorFailure[];
  patterns: PriorPattern[];
}

export interface InjectedFailure extends PriorFailure {
  /** true: from memory (feedback is tracked); false: a sibling failure of this campaign (ephemeral). */
  injected: boolean;
}

export interface InjectedPattern extends PriorPattern {
  injected: boolean;
}

export interface LineageEntry {
  seq: number;
  /** The parent's workspace file stem (e.g. `001_spec_complete`), empty when it had none. */
  workspace: string;
  priorDelivery: string;
}

/** A slice of existing code the builder should read first (FTL's `<code_context path lines>`). */
export interface CodeContext {
  /** Project-relative path. */
  path: string;
  /** Which lines, as written (e.g. `10-42`); absent for the whole excerpt. */
  lines?: string;
  content: string;
}

export interface Utilized {
  name: string;
  type: 'failure' | 'pattern';
}

/**
 * One workspace, parsed. This is what `readCampaignWorkspaces` returns (memory observe consumes it).
 * The task's own fields are typed as the task's (`preflight` is always present here: an empty list).
 */
export interface WorkspaceRecord extends Pick<Task, 'seq' | 'slug' | 'delta' | 'verify' | 'budget'> {
  /** `001_slug`: the file stem without the status. */
  id: string;
  status: WorkspaceStatus;
  /**
   * Which attempt at the task this workspace is (`attempt="2"` on `<workspace>`); absent for the
   * first. A retried task gets a new workspace with the next number; the failed one is kept as
   * `{seq}_{slug}_blocked.{attempt}.xml`.
   */
  attempt?: number;
  /**
   * Who held the task when the workspace was made (`runner="..."`), and how often the task had
   * changed hands by then (`round`: given back; `takeovers`: leases lost to another runner). A
   * workspace whose holder no longer holds the task is a lost attempt: the new holder starts anew.
   * Absent on workspaces made before a claim (and on FTL's).
   */
  runner?: string;
  round?: number;
  takeovers?: number;
  /** Set by `readCampaignWorkspaces` on a lost attempt (`{seq}_{slug}_lost.{n}.xml`): history nobody finished. */
  lost?: boolean;
  campaign: string;
  schemaVersion: string;
  createdAt: string;
  updatedAt?: string;
  objective: string;
  preflight: string[];
  /** Code to read first; absent when there is none. */
  codeContext?: CodeContext[];
  framework: string | null;
  idioms: Idioms;
  priorKnowledge: { failures: InjectedFailure[]; patterns: InjectedPattern[] };
  lineage: LineageEntry[];
  /** The builder's delivery; for a blocked workspace `BLOCKED: <reason>`. */
  delivered: string;
  /** The reason of a blocked workspace (the delivery after `BLOCKED:`). */
  blockedReason?: string;
  /** Which injected entries the builder says it used (`<memory_utilization>`). */
  utilization: Utilized[];
}

/** `001_slug_active.xml` */
export function workspaceFileName(seq: number, slug: string, status: WorkspaceStatus): string {
  return `${formatSeq(seq)}_${slug}_${status}.xml`;
}

export const WORKSPACE_FILE_PATTERN = /^(\d{1,9})_([A-Za-z0-9][A-Za-z0-9._-]*)_(active|complete|blocked)\.xml$/;

/** The most attempts a task can have (the number is part of a file name). */
export const MAX_ATTEMPT = 999_999;

/**
 * `003_route_blocked.1.xml`: a failed earlier attempt at task 003, kept when the task was retried.
 * History, not a live workspace: it never matches WORKSPACE_FILE_PATTERN (nor the reverse).
 */
export function attemptFileName(seq: number, slug: string, attempt: number): string {
  return `${formatSeq(seq)}_${slug}_blocked.${attempt}.xml`;
}

export const ATTEMPT_FILE_PATTERN = /^(\d{1,9})_([A-Za-z0-9][A-Za-z0-9._-]*)_blocked\.([1-9]\d{0,5})\.xml$/;

/**
 * `003_route_lost.1.xml`: attempt 1 at task 003, kept when the task changed hands before its holder
 * finished (its lease ran out and another runner took it over, or the claim was given back). History
 * like a failed attempt, but not a failure: no sibling ever learns from it.
 */
export function lostFileName(seq: number, slug: string, attempt: number): string {
  return `${formatSeq(seq)}_${slug}_lost.${attempt}.xml`;
}

export const LOST_FILE_PATTERN = /^(\d{1,9})_([A-Za-z0-9][A-Za-z0-9._-]*)_lost\.([1-9]\d{0,5})\.xml$/;

// XML 1.0 refuses these characters even as references; lone surrogates are not text either.
// eslint-disable-next-line no-control-regex -- matching control characters is the point
const INVALID_XML_CHARS = /[\x00-\x08\x0B\x0C\x0E-\x1F\uFFFE\uFFFF]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** Refuse text XML cannot carry (control characters, lone surrogates): binary does not belong in a workspace. */
export function checkXmlText(text: string, what: string): void {
  const m = INVALID_XML_CHARS.exec(text);
  if (m) throw new CampaignError('invalid-argument', `${what} contains a character XML cannot carry (U+${m[0].charCodeAt(0).toString(16).toUpperCase().padStart(4, '0')} at offset ${m.index})`);
}

export function escapeText(s: string): string {
  return s.replace(/[&<>\r]/g, (c) => (c === '&' ? '&amp;' : c === '<' ? '&lt;' : c === '>' ? '&gt;' : '&#13;'));
}

export function escapeAttr(s: string): string {
  return s.replace(/[&<>"\r\n\t]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', '\r': '&#13;', '\n': '&#10;', '\t': '&#9;' })[c]!);
}

const el = (indent: string, name: string, text: string, attrs = ''): string => `${indent}<${name}${attrs}>${escapeText(text)}</${name}>`;
const attrs = (pairs: [string, string | number | boolean | undefined][]): string =>
  pairs
    .filter(([, v]) => v !== undefined)
    .map(([k, v]) => ` ${k}="${escapeAttr(String(v))}"`)
    .join('');

/** The record as XML, in FTL's element order. Deterministic: same record, same bytes. */
export function serializeWorkspace(r: WorkspaceRecord): string {
  const texts: [string, string][] = [
    ['objective', r.objective],
    ['verify', r.verify],
    ['delivered', r.delivered],
    ...r.delta.map((d): [string, string] => ['delta', d]),
    ...(r.codeContext ?? []).flatMap((c): [string, string][] => [['code_context path', c.path], ['code_context', c.content]]),
    ...r.priorKnowledge.failures.flatMap((f): [string, string][] => [['failure trigger', f.trigger], ['failure fix', f.fix], ['failure name', f.name]]),
    ...r.priorKnowledge.patterns.flatMap((p): [string, string][] => [['pattern insight', p.insight], ['pattern name', p.name]]),
    ...r.lineage.map((l): [string, string] => ['prior delivery', l.priorDelivery]),
  ];
  for (const [what, text] of texts) checkXmlText(text, what);
  const out = ['<?xml version="1.0" encoding="UTF-8"?>'];
  out.push(`<workspace${attrs([['id', r.id], ['status', r.status], ['_schema_version', r.schemaVersion], ['created_at', r.createdAt], ['updated_at', r.updatedAt], ['campaign', r.campaign], ['seq', formatSeq(r.seq)], ['slug', r.slug], ['attempt', r.attempt === undefined || r.attempt === 1 ? undefined : r.attempt], ['runner', r.runner], ['round', r.round === undefined || r.round === 0 ? undefined : r.round], ['takeovers', r.takeovers === undefined || r.takeovers === 0 ? undefined : r.takeovers]])}>`);
  out.push(el('  ', 'objective', r.objective));
  out.push('  <implementation>');
  for (const d of r.delta) out.push(el('    ', 'delta', d));
  out.push(el('    ', 'verify', r.verify));
  if (r.budget !== undefined) out.push(el('    ', 'budget', String(r.budget)));
  for (const p of r.preflight) out.push(el('    ', 'preflight', p));
  out.push('  </implementation>');
  for (const c of r.codeContext ?? []) out.push(el('  ', 'code_context', c.content, attrs([['path', c.path], ['lines', c.lines]])));
  out.push(`  <idioms${attrs([['framework', r.framework ?? undefined]])}>`);
  for (const x of r.idioms.required) out.push(el('    ', 'required', x));
  for (const x of r.idioms.forbidden) out.push(el('    ', 'forbidden', x));
  out.push('  </idioms>');
  out.push('  <prior_knowledge>');
  for (const f of r.priorKnowledge.failures) {
    out.push(`    <failure${attrs([['name', f.name], ['cost', f.cost], ['injected', f.injected]])}>`);
    out.push(el('      ', 'trigger', f.trigger));
    out.push(el('      ', 'fix', f.fix));
    if (f.match !== undefined) out.push(el('      ', 'match', f.match));
    for (const s of f.source ?? []) out.push(el('      ', 'source', s));
    out.push('    </failure>');
  }
  for (const p of r.priorKnowledge.patterns) {
    out.push(`    <pattern${attrs([['name', p.name], ['saved', p.saved], ['injected', p.injected]])}>`);
    if (p.trigger !== undefined) out.push(el('      ', 'trigger', p.trigger));
    out.push(el('      ', 'insight', p.insight));
    for (const s of p.source ?? []) out.push(el('      ', 'source', s));
    out.push('    </pattern>');
  }
  out.push('  </prior_knowledge>');
  out.push('  <lineage>');
  for (const l of r.lineage) {
    out.push(`    <parent${attrs([['seq', formatSeq(l.seq)], ['workspace', l.workspace]])}>`);
    out.push(el('      ', 'prior_delivery', l.priorDelivery));
    out.push('    </parent>');
  }
  out.push('  </lineage>');
  out.push(el('  ', 'delivered', r.delivered));
  out.push('  <memory_utilization>');
  for (const u of r.utilization) out.push(`    <utilized${attrs([['name', u.name], ['type', u.type]])}/>`);
  out.push('  </memory_utilization>');
  out.push('</workspace>');
  return `${out.join('\n')}\n`;
}

type Node = Record<string, unknown>;
const REPEATED = new Set(['delta', 'preflight', 'code_context', 'required', 'forbidden', 'failure', 'pattern', 'parent', 'utilized', 'source']);

/** Parse workspace XML. Throws `invalid-workspace` with line and column for anything malformed. */
export async function parseWorkspace(text: string, path: string): Promise<WorkspaceRecord> {
  const fail = (reason: string, line?: number, column?: number): never => {
    throw new CampaignError('invalid-workspace', reason, { path, ...(line === undefined ? {} : { line }), ...(column === undefined ? {} : { column }) });
  };
  const body = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  const decl = /<!(DOCTYPE|ENTITY)/i.exec(body);
  if (decl) {
    const before = body.slice(0, decl.index).split('\n');
    fail(`${decl[1]!.toUpperCase()} declarations are not allowed in a workspace`, before.length, before[before.length - 1]!.length + 1);
  }
  // Only XML's five entities and character references: the parser would keep any other name as
  // text, so a file that says `&nope;` would be rewritten as if it meant those six characters.
  const entity = /&(?!(?:amp|lt|gt|quot|apos|#[0-9]{1,7}|#x[0-9A-Fa-f]{1,6});)([^\s;<&]{0,40};?)/.exec(body);
  if (entity) {
    const before = body.slice(0, entity.index).split('\n');
    fail(`undefined entity "&${entity[1]!}": a workspace may use only &amp; &lt; &gt; &quot; &apos; and character references`, before.length, before[before.length - 1]!.length + 1);
  }
  const { XMLParser, XMLValidator } = await import('fast-xml-parser');
  const valid = XMLValidator.validate(body);
  if (valid !== true) fail(`not well-formed XML: ${valid.err.msg}`, valid.err.line, valid.err.col);
  const parser = new XMLParser({
    ignoreAttributes: false,
    attributeNamePrefix: '@',
    trimValues: false,
    parseTagValue: false,
    parseAttributeValue: false,
    processEntities: true,
    // Decodes character references (&#13;); named ones other than XML's five were refused above.
    htmlEntities: true,
    alwaysCreateTextNode: true,
    ignoreDeclaration: true,
    isArray: (name) => REPEATED.has(name),
  });
  let doc: Node;
  try {
    doc = parser.parse(body) as Node;
  } catch (err) {
    // The parser's own limits (nesting depth, entity expansion) throw plain errors: report them as the file's problem.
    return fail(`cannot read the workspace: ${err instanceof Error ? err.message : String(err)}`);
  }
  const ws = doc.workspace as Node | undefined;
  if (typeof ws !== 'object' || ws === null || Array.isArray(ws)) return fail('the root element must be <workspace>');
  const attr = (n: Node | undefined, name: string): string | undefined => {
    const v = n?.[`@${name}`];
    return typeof v === 'string' ? v : undefined;
  };
  const child = (n: Node | undefined, name: string): Node | undefined => {
    const v = n?.[name];
    return Array.isArray(v) ? (v[0] as Node | undefined) : (v as Node | undefined);
  };
  const children = (n: Node | undefined, name: string): Node[] => {
    const v = n?.[name];
    return Array.isArray(v) ? (v as Node[]) : v === undefined ? [] : [v as Node];
  };
  const textOf = (n: Node | undefined): string => {
    const v = n?.['#text'];
    return typeof v === 'string' ? v : typeof v === 'number' || typeof v === 'boolean' ? String(v) : '';
  };
  const status = attr(ws, 'status');
  if (!(WORKSPACE_STATUSES as readonly (string | undefined)[]).includes(status)) fail(`<workspace status> must be active, complete or blocked, found ${JSON.stringify(status ?? null)}`);
  const id = attr(ws, 'id') ?? '';
  // Ratchet writes `001_slug`; FTL itself wrote `001-slug`.
  const idMatch = /^(\d{1,9})[_-](.+)$/.exec(id);
  const seqText = attr(ws, 'seq') ?? idMatch?.[1];
  if (seqText === undefined || !/^\d{1,9}$/.test(seqText)) return fail(`<workspace> needs a seq (attribute seq or an id like 001_slug), found id ${JSON.stringify(id)}`);
  // The slug names the workspace file: one that is not a task slug (a path, 10,000 characters) is
  // the file's problem here, not a rename that fails or leaves the directory later.
  const slug = attr(ws, 'slug') ?? idMatch?.[2] ?? '';
  if (slug !== '' && !SLUG_PATTERN.test(slug)) fail(`<workspace slug> must be 1-64 letters, digits, ".", "_" or "-" (it names the workspace file), found ${JSON.stringify(slug.length > 80 ? `${slug.slice(0, 80)}...` : slug)}`);
  const impl = child(ws, 'implementation');
  const idioms = child(ws, 'idioms');
  const pk = child(ws, 'prior_knowledge');
  const number = (s: string | undefined, what: string): number => {
    const n = Number(s);
    if (s === undefined || s.trim() === '' || !Number.isFinite(n)) fail(`${what} must be a number, found ${JSON.stringify(s ?? null)}`);
    return n;
  };
  const sources = (n: Node): string[] => children(n, 'source').map(textOf);
  const failures: InjectedFailure[] = children(pk, 'failure').map((f) => {
    const out: InjectedFailure = { name: attr(f, 'name') ?? '', trigger: textOf(child(f, 'trigger')), fix: textOf(child(f, 'fix')), cost: number(attr(f, 'cost'), '<failure cost>'), injected: attr(f, 'injected') !== 'false' };
    // FTL wrote the failure as text content: keep it as the trigger when there are no child elements.
    if (child(f, 'trigger') === undefined && textOf(f).trim() !== '') out.trigger = textOf(f).trim();
    const match = child(f, 'match');
    if (match !== undefined) out.match = textOf(match);
    const src = sources(f);
    if (src.length > 0) out.source = src;
    return out;
  });
  const patterns: InjectedPattern[] = children(pk, 'pattern').map((p) => {
    const out: InjectedPattern = { name: attr(p, 'name') ?? '', insight: textOf(child(p, 'insight')), saved: number(attr(p, 'saved') ?? '0', '<pattern saved>'), injected: attr(p, 'injected') !== 'false' };
    if (child(p, 'insight') === undefined && textOf(p).trim() !== '') out.insight = textOf(p).trim();
    const trigger = child(p, 'trigger');
    if (trigger !== undefined) out.trigger = textOf(trigger);
    const src = sources(p);
    if (src.length > 0) out.source = src;
    return out;
  });
  const lineage: LineageEntry[] = children(child(ws, 'lineage'), 'parent').map((p) => {
    const seqAttr = attr(p, 'seq');
    if (seqAttr !== undefined) return { seq: number(seqAttr, '<parent seq>'), workspace: attr(p, 'workspace') ?? '', priorDelivery: textOf(child(p, 'prior_delivery')) };
    // FTL wrote the parent as its file stem in the text, `<parent>001_spec_complete</parent>`, with no seq attribute.
    const stem = textOf(p).trim();
    const m = /^(\d{1,9})_[A-Za-z0-9._-]*?_(?:active|complete|blocked)$/.exec(stem);
    if (!m) return fail(`<parent> needs a seq attribute or a workspace stem like 001_slug_complete as its text, found ${JSON.stringify(stem.length > 80 ? `${stem.slice(0, 80)}...` : stem)}`);
    return { seq: Number(m[1]), workspace: stem, priorDelivery: textOf(child(p, 'prior_delivery')) };
  });
  const utilization: Utilized[] = children(child(ws, 'memory_utilization'), 'utilized').map((u) => ({ name: attr(u, 'name') ?? '', type: attr(u, 'type') === 'pattern' ? 'pattern' : 'failure' }));
  const delivered = textOf(child(ws, 'delivered'));
  const budgetText = impl === undefined ? undefined : child(impl, 'budget');
  const record: WorkspaceRecord = {
    id: idMatch ? id : `${formatSeq(Number(seqText))}_${attr(ws, 'slug') ?? ''}`,
    seq: Number(seqText),
    slug,
    status: status as WorkspaceStatus,
    campaign: attr(ws, 'campaign') ?? '',
    schemaVersion: attr(ws, '_schema_version') ?? WORKSPACE_SCHEMA_VERSION,
    createdAt: attr(ws, 'created_at') ?? '',
    objective: textOf(child(ws, 'objective')),
    delta: children(impl, 'delta').map(textOf),
    verify: textOf(child(impl, 'verify')),
    preflight: children(impl, 'preflight').map(textOf),
    framework: attr(idioms, 'framework') ?? null,
    idioms: { required: children(idioms, 'required').map(textOf), forbidden: children(idioms, 'forbidden').map(textOf) },
    priorKnowledge: { failures, patterns },
    lineage,
    delivered,
    utilization,
  };
  const updatedAt = attr(ws, 'updated_at');
  if (updatedAt !== undefined) record.updatedAt = updatedAt;
  const attempt = attr(ws, 'attempt');
  if (attempt !== undefined) {
    if (!/^[1-9]\d{0,5}$/.test(attempt)) fail(`<workspace attempt> must be an attempt number from 1 to ${MAX_ATTEMPT}, found ${JSON.stringify(attempt)}`);
    if (attempt !== '1') record.attempt = Number(attempt);
  }
  const runner = attr(ws, 'runner');
  if (runner !== undefined) record.runner = runner;
  for (const key of ['round', 'takeovers'] as const) {
    const v = attr(ws, key);
    if (v === undefined) continue;
    if (!/^\d{1,9}$/.test(v)) fail(`<workspace ${key}> must be a whole number, found ${JSON.stringify(v)}`);
    if (v !== '0') record[key] = Number(v);
  }
  const codeContext = children(ws, 'code_context').map((c): CodeContext => {
    const out: CodeContext = { path: attr(c, 'path') ?? '', content: textOf(c) };
    const lines = attr(c, 'lines');
    if (lines !== undefined) out.lines = lines;
    return out;
  });
  if (codeContext.length > 0) record.codeContext = codeContext;
  if (budgetText !== undefined) record.budget = number(textOf(budgetText), '<budget>');
  const blocked = /^\s*BLOCKED:\s*([\s\S]*)$/.exec(delivered);
  if (blocked) record.blockedReason = blocked[1]!.trim();
  return record;
}
