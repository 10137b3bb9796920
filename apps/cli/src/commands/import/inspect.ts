/**
 * What `ratchet import` finds for each system, file by file, sorted into three lists that say only
 * what is true: what Ratchet reads where it is (`readInPlace`, with the command that reads it, and
 * `checked` when the import parsed it with that command's own reader), what it converts (`convert`),
 * and what it ignores (`ignored`, with why: the originals' own code, their session state, prompts
 * Ratchet has its own form for). A file Ratchet reads that does not parse is a problem with its
 * place (and nothing is written); a file Ratchet ignores is never parsed, so it can block nothing.
 */
import { join } from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import { ftlArchiveEntry, listFtlArchive, readFtlCampaignFile, readWorkspace, PlanError, type FtlCampaignFile } from '@ratchet/campaign-dag';
import { loadDefinition } from '@ratchet/fsm-core';
import { jixoFileKind, parseJob, parseLog } from '@ratchet/jixo-log';
import { readJsonFile, readTextFile } from '@ratchet/store';
import { exists, findFiles, listFiles, type Problem, type System, type SystemReport } from './layouts.js';

/** An error from any package as a problem with its place (the packages' errors share path/line/column). */
export function problemOf(file: string, err: unknown): Problem[] {
  if (err instanceof PlanError) return err.problems.map((p) => ({ file, message: `${p.message} (at ${p.pointer || '/'})`, ...(p.line === undefined ? {} : { line: p.line }), ...(p.column === undefined ? {} : { column: p.column }) }));
  const e = err as { reason?: unknown; message?: unknown; line?: unknown; column?: unknown };
  const message = typeof e.reason === 'string' ? e.reason : err instanceof Error ? err.message : String(err);
  return [{ file, message, ...(typeof e.line === 'number' ? { line: e.line } : {}), ...(typeof e.column === 'number' ? { column: e.column } : {}) }];
}

const report = (system: System): SystemReport => ({ system, found: [], readInPlace: [], convert: [], ignored: [], problems: [], notes: [] });

/** A reader the import runs on a file Ratchet reads: its problems (none when it parses). */
type Check = (root: string, rel: string) => Promise<Problem[]>;

/** Record a file Ratchet reads; with `check`, parse it as that reader would (checked: true). */
async function read(r: SystemReport, root: string, rel: string, by: string, check?: Check): Promise<void> {
  if (check === undefined) {
    r.readInPlace.push({ path: rel, by, checked: false });
    return;
  }
  const problems = await check(root, rel).catch((err: unknown) => problemOf(rel, err));
  if (problems.length > 0) r.problems.push(...problems);
  else r.readInPlace.push({ path: rel, by, checked: true });
}

const ignore = (r: SystemReport, rel: string, why: string): void => void r.ignored.push({ path: rel, why });

/** JSONL: every bad line is reported (one bad line never hides the others), with its column and why. */
export async function checkJsonl(root: string, rel: string): Promise<Problem[]> {
  const { text } = await readTextFile(join(root, rel));
  const out: Problem[] = [];
  text.split(/\r?\n/).forEach((line, i) => {
    if (line.trim() === '') return;
    try {
      const v: unknown = JSON.parse(line);
      if (typeof v !== 'object' || v === null || Array.isArray(v)) out.push({ file: rel, line: i + 1, column: 1, message: 'a JSONL line must be a JSON object' });
    } catch (err) {
      const message = err instanceof Error ? err.message : String(err);
      const at = /at position (\d+)/.exec(message);
      const column = at === null ? 1 : Number(at[1]) + 1;
      // The originals' loggers appended without a line break now and then: name that, it is the fix.
      const joined = at !== null && /non-whitespace character after JSON/.test(message);
      out.push({ file: rel, line: i + 1, column, message: joined ? `two JSON values run together on one line (a line break is missing before column ${column})` : `not JSON: ${message}` });
    }
  });
  return out;
}

const checkJson: Check = async (root, rel) => {
  await readJsonFile(join(root, rel));
  return [];
};

/** An FSM definition, read by fsm-core as `ratchet fsm check` reads it: its errors, each at its place. */
const checkFsm: Check = async (root, rel) => {
  const doc = await readJsonFile(join(root, rel));
  return loadDefinition(doc.value)
    .diagnostics.filter((d) => d.severity === 'error')
    .map((d) => {
      const place = doc.locate(d.pointer);
      return { file: rel, message: `${d.message} (at ${d.pointer || '/'})`, ...(place === undefined ? {} : { line: place.line, column: place.column }) };
    });
};

const checkPlanRegistry: Check = async (root, rel) => {
  const { readRegistry } = await import('@ratchet/plan-lint/registry');
  await readRegistry(rel, root);
  return [];
};

const JULES_DIRS = ['tooling', 'knowledge_core', 'protocols', 'plans', 'logs', 'postmortems'];
const ORIGINAL_CODE = "the original's own code: Ratchet's packages do its work and nothing runs it";

/** Where each file of a Jules layout goes: read (by what, checked how) or ignored (why). */
async function classifyJules(r: SystemReport, root: string, rel: string): Promise<void> {
  const name = rel.slice(rel.lastIndexOf('/') + 1);
  const top = rel.includes('/') ? rel.slice(0, rel.indexOf('/')) : '';
  if (name === '.gitkeep') return ignore(r, rel, 'an empty placeholder');
  if (rel === 'AGENTS.md') return read(r, root, rel, 'ratchet protocol compile regenerates it from protocols/ (--check compares it)');
  if (rel === 'plan.txt' || top === 'plans') {
    return /\.(?:txt|plan)$/.test(name) ? read(r, root, rel, 'ratchet plan lint|analyze, ratchet run plan') : ignore(r, rel, 'not a plan file (plans are .txt or .plan)');
  }
  if ((top === '' || top === 'tooling') && /fsm[^/]*\.json$/.test(name)) return read(r, root, rel, 'ratchet fsm check|accept|render, and plans that name it with # FSM:', checkFsm);
  if (top === 'tooling') return ignore(r, rel, name.endsWith('.py') ? ORIGINAL_CODE : "the original's tooling (notes and generated files): not read by Ratchet");
  if (top === 'knowledge_core') {
    if (name === 'plan_registry.json') return read(r, root, rel, 'the plan registry: call_plan names in plan lint and run plan', checkPlanRegistry);
    if (name === 'lessons.jsonl') return read(r, root, rel, 'ratchet lessons list|apply', checkJsonl);
    if (name === 'agent_meta.json') return read(r, root, rel, 'ratchet task start (orientation L1: who the agent is)', checkJson);
    return read(r, root, rel, 'ratchet task start (orientation L2 summarises every knowledge_core artifact)', name.endsWith('.json') ? checkJson : undefined);
  }
  if (top === 'logs') return rel === 'logs/activity.log.jsonl' ? read(r, root, rel, 'the activity log: ratchet task and run commands append to it', checkJsonl) : ignore(r, rel, 'not the activity log (logs/activity.log.jsonl)');
  if (top === 'postmortems') return name.endsWith('.md') ? read(r, root, rel, 'ratchet lessons extract <file>; task start reviews the latest') : ignore(r, rel, 'not a post-mortem (*.md)');
  if (top === 'protocols') return classifyProtocol(r, root, rel, name);
  return ignore(r, rel, 'not part of what Ratchet reads');
}

/** protocol compile reads the top of its directory: sources, their prose, VERSION and protocol.schema.json. */
async function classifyProtocol(r: SystemReport, root: string, rel: string, name: string): Promise<void> {
  const dir = rel.slice(0, rel.lastIndexOf('/'));
  const compile = dir === 'protocols' ? 'ratchet protocol compile' : `ratchet protocol compile --protocols ${dir}`;
  if (/\.protocol\.json$/.test(name) || name === 'protocol.schema.json') return read(r, root, rel, compile, checkJson);
  if (/\.protocol\.ya?ml$/.test(name) || name === 'VERSION') return read(r, root, rel, compile);
  if (name.endsWith('.protocol.md') || /^\d+-[^/]+\.md$/.test(name)) return read(r, root, rel, `${compile} (prose paired with its protocol)`);
  return ignore(r, rel, 'not a protocol source (protocol compile reads *.protocol.json|yaml, their *.protocol.md prose, VERSION and protocol.schema.json)');
}

export async function inspectJules(root: string): Promise<SystemReport> {
  const r = report('jules');
  for (const top of ['AGENTS.md', 'plan.txt', 'fdc_fsm.json', 'research_fsm.json', 'fsm.json']) if ((await exists(join(root, top))) === 'file') r.found.push(top);
  for (const dir of JULES_DIRS) r.found.push(...(await listFiles(root, dir)));
  for (const rel of r.found) await classifyJules(r, root, rel);
  return r;
}

export async function inspectJixo(root: string): Promise<SystemReport> {
  const r = report('jixo');
  for (const rel of await listFiles(root, '.jixo')) {
    r.found.push(rel);
    const kind = jixoFileKind(rel);
    if (kind === undefined) {
      ignore(r, rel, 'not a JIXO job or log file (*.job.md, *.task.md, *.log.md)');
      continue;
    }
    const by = kind === 'job' ? "ratchet jixo run|triage (job file; *.task.md is JIXO v1's name)" : 'ratchet jixo task|log|check (log file, any JIXO version)';
    await read(r, root, rel, by, async () => {
      const { text } = await readTextFile(join(root, rel));
      const { diagnostics } = kind === 'job' ? parseJob(text) : parseLog(text);
      return diagnostics.filter((d) => d.severity === 'error').map((d) => ({ file: rel, line: d.line, column: d.column, message: `${d.message} (${d.rule})` }));
    });
  }
  if (r.readInPlace.length === 0 && r.problems.length === 0) r.notes.push('.jixo/ holds no *.log.md, *.job.md or *.task.md file');
  return r;
}

/** An FTL campaign file, parsed, or its problems. */
async function ftlCampaign(r: SystemReport, abs: string, rel: string): Promise<FtlCampaignFile | undefined> {
  try {
    return await readFtlCampaignFile(abs);
  } catch (err) {
    r.problems.push(...problemOf(rel, err));
    return undefined;
  }
}

export async function inspectFtl(root: string, stateDir: string, memoryPath: string): Promise<SystemReport> {
  const r = report('ftl');
  const ftl = join(root, '.ftl');
  const files = await listFiles(root, '.ftl');
  r.found.push(...files);
  // FTL's `complete` leaves a finished campaign in campaign.json AND in archive/<completed_at>.json:
  // one campaign, converted once (from the archive copy), the other named as the same campaign.
  const campaigns: { rel: string; file: FtlCampaignFile }[] = [];
  for (const abs of await listFtlArchive(ftl)) {
    const rel = `.ftl/archive/${abs.slice(abs.lastIndexOf('/') + 1)}`;
    const file = await ftlCampaign(r, abs, rel);
    if (file !== undefined) campaigns.push({ rel, file });
  }
  if (files.includes('.ftl/campaign.json')) {
    const file = await ftlCampaign(r, join(ftl, 'campaign.json'), '.ftl/campaign.json');
    if (file !== undefined) campaigns.push({ rel: '.ftl/campaign.json', file });
  }
  const chosen = new Map<string, { rel: string; file: FtlCampaignFile }>();
  for (const c of campaigns) {
    const id = c.file.campaign.id;
    const seen = chosen.get(id);
    if (seen === undefined) {
      chosen.set(id, c);
      continue;
    }
    // The later record of the same campaign wins (its completion, then its last task update); a tie
    // keeps the archive copy, listed first.
    const key = (x: FtlCampaignFile): string => `${ftlArchiveEntry(x).summary.completedAt}|${x.campaign.tasks.map((t) => t.updatedAt ?? '').sort().at(-1) ?? ''}`;
    const [keep, drop] = key(c.file) > key(seen.file) ? [c, seen] : [seen, c];
    chosen.set(id, keep);
    const same = isDeepStrictEqual(keep.file.raw, drop.file.raw);
    ignore(r, drop.rel, same ? `the same campaign as ${keep.rel} (FTL keeps a finished campaign in both): converted once, from there` : `an older copy of the campaign in ${keep.rel}, which is converted instead`);
  }
  for (const { rel, file } of [...chosen.values()].sort((a, b) => (a.rel < b.rel ? -1 : a.rel > b.rel ? 1 : 0))) {
    const active = file.campaign.status === 'active';
    r.convert.push({
      from: rel,
      to: active ? `${stateDir}/campaign.json` : `${stateDir}/archive/${file.campaign.id}.json`,
      how: active ? 'campaign-dag importFtlCampaign (the campaign state)' : 'campaign-dag importFtlCampaign (an archive entry: completed_at, the prose summary and task update times kept; find-similar reads it)',
      status: 'planned',
    });
  }
  for (const rel of files) {
    if (rel === '.ftl/campaign.json' || rel.startsWith('.ftl/archive/')) {
      if (rel.startsWith('.ftl/archive/') && !rel.endsWith('.json')) ignore(r, rel, 'not an archived campaign (*.json)');
      continue;
    }
    if (rel === '.ftl/memory.json') {
      try {
        await readJsonFile(join(root, rel));
        r.convert.push({ from: rel, to: memoryPath, how: 'ratchet memory import (gates, near-duplicate merge; a risky match regex is dropped with a warning, the entry kept)', status: 'planned' });
      } catch (err) {
        r.problems.push(...problemOf(rel, err));
      }
    } else if (rel.startsWith('.ftl/workspace/') && rel.endsWith('.xml')) {
      await read(r, root, rel, 'ratchet workspace list|show --workspace-dir .ftl/workspace', async () => {
        await readWorkspace(join(root, rel));
        return [];
      });
    } else if (rel.endsWith('/plan.json')) await read(r, root, rel, `ratchet campaign add-tasks ${rel}`, checkJson);
    else if (rel.startsWith('.ftl/cache/') || rel === '.ftl/exploration.json') ignore(r, rel, "FTL's explorer output for its planner: Ratchet runs no explorers (see campaign-dag's README)");
    else ignore(r, rel, 'not read by Ratchet');
  }
  return r;
}

/**
 * .claude/orchestration (skribblez2718/caii and its siblings): the original's step scripts, their
 * tests, step prompts and session state. Ratchet's flows replace the scripts and keep their own
 * sessions and step files, so none of it is read; the agents' memory files in .claude/memory are,
 * by the flow gates that are told their names.
 */
export async function inspectClaudeOrchestration(root: string): Promise<SystemReport> {
  const r = report('claude-orchestration');
  for (const rel of await listFiles(root, '.claude/orchestration')) {
    r.found.push(rel);
    const name = rel.slice(rel.lastIndexOf('/') + 1);
    if (name === '.gitkeep') ignore(r, rel, 'an empty placeholder');
    else if (name.endsWith('.py') || name === 'Makefile' || name.endsWith('.toml') || name.endsWith('.cfg')) ignore(r, rel, "the original's own code: Ratchet's flows run its steps and gates, and nothing runs it");
    else if (/\/state\//.test(rel)) ignore(r, rel, "the original's session state: a Ratchet flow session starts afresh (ratchet flow start)");
    else if (name.endsWith('.md')) ignore(r, rel, "the original's step prompts and notes: a Ratchet flow reads its own step files (protocols/flows/<name>/*.md); copy the ones you keep there");
    else ignore(r, rel, 'not read by Ratchet');
  }
  for (const rel of await listFiles(root, '.claude/memory')) {
    r.found.push(rel);
    if (rel.endsWith('-memory.md')) await read(r, root, rel, 'flow gates, once the flow settings name it (memoryFiles.agent: ".claude/memory/{task-id}-{role}-memory.md")');
    else ignore(r, rel, rel.endsWith('/.gitkeep') ? 'an empty placeholder' : 'not an agent memory file (*-memory.md)');
  }
  return r;
}

/** Where Frontal Cortex's users keep the registry: anywhere in the project (its one public repository: documentation/frontal-cortex/). */
export const REGISTRY_NAMES = ['action_types.yaml', 'action_types.yml', 'action_types.json'];
/** The project registry Ratchet finds without --registry. */
const RATCHET_REGISTRIES = new Set(['protocols/action_types.yaml', 'protocols/action_types.yml', 'protocols/action_types.json']);

export async function inspectFrontalCortex(root: string): Promise<SystemReport> {
  const r = report('frontal-cortex');
  const { readRegistryFile } = await import('@ratchet/goals');
  for (const rel of await findFiles(root, REGISTRY_NAMES)) {
    r.found.push(rel);
    const by = RATCHET_REGISTRIES.has(rel) ? 'ratchet goals|actions (the project registry, found there by default)' : `ratchet goals|actions --registry ${rel} (Ratchet looks in protocols/ by default)`;
    await read(r, root, rel, by, async () => {
      await readRegistryFile(join(root, rel));
      return [];
    });
  }
  for (const name of ['goals.yaml', 'goals.yml', 'goals.json']) {
    if ((await exists(join(root, name))) !== 'file') continue;
    r.found.push(name);
    ignore(r, name, 'Frontal Cortex had no implementation, so no goals file of its own; Ratchet keeps goals in .ratchet/goals.json (add them with ratchet goals add)');
  }
  return r;
}
