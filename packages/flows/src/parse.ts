/**
 * Flow files (JSON or YAML) -> a checked Flow, or a FlowError naming the file and the place of the
 * first problem (all problems are on the error). YAML is loaded lazily: JSON flows never pay for it.
 */
import { dirname } from 'node:path';
import { locate, parseJson, readTextFileSync } from '@ratchet/store';
import { FlowError, type FlowProblem } from './errors.js';
import { resolveInside } from './template.js';
import type { Flow } from './types.js';
import { checkFlow } from './validate-flow.js';
import type * as Yaml from 'yaml';

/** Flow files larger than this are refused before reading (the built-in ones are a few KiB). */
export const FLOW_MAX_BYTES = 4 * 1024 * 1024;
const FORBIDDEN_KEYS = new Set(['__proto__', 'constructor', 'prototype']);

export type FlowFormat = 'json' | 'yaml';

export function formatOf(path: string): FlowFormat {
  return /\.ya?ml$/i.test(path) ? 'yaml' : 'json';
}

export interface ParseFlowOptions {
  /** Shown in errors. */
  path?: string;
  /** Default: from the path's extension (.yaml/.yml: YAML), else JSON. */
  format?: FlowFormat;
}

/** Parse and check flow text. Throws store errors for malformed JSON and FlowError for everything else. */
export async function parseFlow(text: string, options: ParseFlowOptions = {}): Promise<Flow> {
  const path = options.path ?? '<flow>';
  const format = options.format ?? formatOf(path);
  let value: unknown;
  let place: (pointer: string) => { line: number; column: number } | undefined;
  if (format === 'json') {
    value = parseJson(text, { path });
    place = (pointer) => locate(text, pointer);
  } else {
    const yaml = await parseYaml(text, path);
    value = yaml.value;
    place = yaml.place;
  }
  const { flow, problems } = checkFlow(value);
  if (flow === undefined) {
    const placed: FlowProblem[] = problems.map((p) => ({ ...p, ...place(p.pointer) }));
    const first = placed[0]!;
    const more = placed.length > 1 ? ` (and ${placed.length - 1} more problem${placed.length > 2 ? 's' : ''})` : '';
    throw new FlowError('invalid-flow', `invalid flow: ${first.message}${more}`, { path, line: first.line, column: first.column, pointer: first.pointer, problems: placed });
  }
  return flow;
}

export interface LoadedFlow {
  flow: Flow;
  /** Absolute path of the flow file. */
  path: string;
  /** Absolute path of each step's content file, by step id. */
  contents: Record<string, string>;
}

/** Read a flow file through the store's guarded reader, check it, and check its content files exist inside its directory. */
export async function loadFlowFile(path: string): Promise<LoadedFlow> {
  const file = readTextFileSync(path, { maxBytes: FLOW_MAX_BYTES });
  const flow = await parseFlow(file.text, { path: file.path });
  const dir = dirname(file.path);
  const contents: Record<string, string> = {};
  for (const [i, step] of flow.steps.entries()) {
    const pointer = `/steps/${i}/content`;
    // Placed only for an error: locating re-reads the JSON text, and every flow command loads a flow.
    const at = (): { line?: number; column?: number } => (formatOf(file.path) === 'json' ? (locate(file.text, pointer) ?? {}) : {});
    let abs: string;
    try {
      abs = resolveInside(dir, step.content, 'content');
    } catch (err) {
      throw new FlowError('invalid-flow', `step "${step.id}": ${(err as FlowError).reason} (content files live beside the flow)`, { path: file.path, ...at(), pointer });
    }
    try {
      readTextFileSync(abs, { maxBytes: FLOW_MAX_BYTES });
    } catch (err) {
      const why = (err as { reason?: string }).reason ?? String(err);
      throw new FlowError('missing-content', `step "${step.id}": content file ${step.content}: ${why}`, { path: file.path, ...at(), pointer });
    }
    contents[step.id] = abs;
  }
  return { flow, path: file.path, contents };
}

async function parseYaml(text: string, path: string): Promise<{ value: unknown; place: (pointer: string) => { line: number; column: number } | undefined }> {
  const { LineCounter, parseDocument, isMap, isSeq } = await loadYaml();
  const lineCounter = new LineCounter();
  const body = text.startsWith('\uFEFF') ? text.slice(1) : text;
  // The yaml library recurses once per nested collection: a couple of thousand nested block mappings
  // overflow the stack, which its parser throws and its composer reports as an error. Either way the
  // file's problem, said the same way, not an internal error.
  const tooDeep = 'YAML: the flow nests too deeply to read';
  let doc: Yaml.Document.Parsed;
  try {
    doc = parseDocument(body, { lineCounter, uniqueKeys: true, prettyErrors: false, strict: true });
  } catch (e) {
    if (!(e instanceof RangeError)) throw e;
    throw new FlowError('flow-parse-error', tooDeep, { path, line: 1, column: 1 });
  }
  const err = doc.errors.find((e) => e.message.includes('Maximum call stack size exceeded')) ?? doc.errors[0];
  if (err !== undefined) {
    const pos = lineCounter.linePos(err.pos[0]);
    const reason = err.message.includes('Maximum call stack size exceeded') ? tooDeep : `YAML: ${err.message.split('\n')[0] ?? err.code}`;
    throw new FlowError('flow-parse-error', reason, { path, line: pos.line, column: pos.col });
  }
  const place = (pointer: string): { line: number; column: number } | undefined => {
    const segments = pointer === '' ? [] : pointer.slice(1).split('/').map((s) => s.replace(/~1/g, '/').replace(/~0/g, '~'));
    for (let n = segments.length; n >= 0; n--) {
      let node: unknown = doc.contents;
      for (const seg of segments.slice(0, n)) {
        if (isMap(node)) node = node.get(seg, true);
        else if (isSeq(node)) node = node.get(Number(seg), true);
        else node = undefined;
      }
      const range = (node as { range?: [number, number, number] } | undefined)?.range;
      if (range) {
        const pos = lineCounter.linePos(range[0]);
        return { line: pos.line, column: pos.col };
      }
    }
    return undefined;
  };
  let value: unknown;
  try {
    value = doc.toJS({ maxAliasCount: 100 });
  } catch (e) {
    throw new FlowError('flow-parse-error', `YAML: ${(e as Error).message}`, { path });
  }
  const bad = forbiddenKey(value, '');
  if (bad !== undefined) {
    const at = place(bad.parent);
    throw new FlowError('flow-parse-error', `forbidden key "${bad.key}" (it could change object prototypes)`, { path, line: at?.line, column: at?.column, pointer: bad.parent });
  }
  return { value, place };
}

function forbiddenKey(value: unknown, pointer: string, depth = 0): { key: string; parent: string } | undefined {
  if (typeof value !== 'object' || value === null || depth > 200) return undefined;
  for (const [key, child] of Object.entries(value)) {
    if (!Array.isArray(value) && FORBIDDEN_KEYS.has(key)) return { key, parent: pointer };
    const found = forbiddenKey(child, `${pointer}/${key.replace(/~/g, '~0').replace(/\//g, '~1')}`, depth + 1);
    if (found) return found;
  }
  return undefined;
}

/**
 * yaml loaded on first use (most files are JSON). Node gives a CommonJS module's exports as named
 * exports of import(); esbuild's code-split bundles (the ratchet CLI) give them only as `default`.
 */
async function loadYaml(): Promise<typeof Yaml> {
  const mod = await import('yaml');
  return 'parseDocument' in mod ? mod : (mod as unknown as { default: typeof Yaml }).default;
}
