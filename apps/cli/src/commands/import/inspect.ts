/**
 * What `ratchet import` finds for each system: every file of its layout, parsed by the package that
 * owns the format, so a broken one is a problem with its place (and nothing is written).
 */
import { join } from 'node:path';
import { listFtlArchive, readFtlCampaign, readWorkspace, PlanError } from '@ratchet/campaign-dag';
import { jixoFileKind, parseJob, parseLog } from '@ratchet/jixo-log';
import { readJsonFile, readTextFile } from '@ratchet/store';
import { exists, listFiles, type Problem, type System, type SystemReport } from './layouts.js';

/** An error from any package as a problem with its place (the packages' errors share path/line/column). */
export function problemOf(file: string, err: unknown): Problem[] {
  if (err instanceof PlanError) return err.problems.map((p) => ({ file, message: `${p.message} (at ${p.pointer || '/'})`, ...(p.line === undefined ? {} : { line: p.line }), ...(p.column === undefined ? {} : { column: p.column }) }));
  const e = err as { reason?: unknown; message?: unknown; line?: unknown; column?: unknown };
  const message = typeof e.reason === 'string' ? e.reason : err instanceof Error ? err.message : String(err);
  return [{ file, message, ...(typeof e.line === 'number' ? { line: e.line } : {}), ...(typeof e.column === 'number' ? { column: e.column } : {}) }];
}

const report = (system: System): SystemReport => ({ system, found: [], readInPlace: [], convert: [], problems: [], notes: [] });

/** JSONL: every bad line is reported (one bad line never hides the others). */
export async function checkJsonl(root: string, rel: string): Promise<Problem[]> {
  const { text } = await readTextFile(join(root, rel));
  const out: Problem[] = [];
  text.split(/\r?\n/).forEach((line, i) => {
    if (line.trim() === '') return;
    try {
      const v: unknown = JSON.parse(line);
      if (typeof v !== 'object' || v === null || Array.isArray(v)) out.push({ file: rel, line: i + 1, column: 1, message: 'a JSONL line must be a JSON object' });
    } catch (err) {
      out.push({ file: rel, line: i + 1, column: 1, message: `not JSON: ${err instanceof Error ? err.message : String(err)}` });
    }
  });
  return out;
}

export async function inspectJules(root: string): Promise<SystemReport> {
  const r = report('jules');
  for (const top of ['AGENTS.md', 'plan.txt', 'fdc_fsm.json', 'research_fsm.json', 'fsm.json']) if ((await exists(join(root, top))) === 'file') r.found.push(top);
  for (const dir of ['tooling', 'knowledge_core', 'protocols', 'plans', 'logs']) r.found.push(...(await listFiles(root, dir)));
  for (const f of r.found) r.readInPlace.push({ path: f, by: 'Ratchet reads the Jules layout where it is (plans, FSMs, protocols, knowledge_core)' });
  if (r.found.includes('logs/activity.log.jsonl')) r.problems.push(...(await checkJsonl(root, 'logs/activity.log.jsonl')));
  if (r.found.includes('knowledge_core/lessons.jsonl')) r.problems.push(...(await checkJsonl(root, 'knowledge_core/lessons.jsonl')));
  return r;
}

export async function inspectJixo(root: string): Promise<SystemReport> {
  const r = report('jixo');
  for (const rel of await listFiles(root, '.jixo')) {
    const kind = jixoFileKind(rel);
    if (kind === undefined) continue;
    r.found.push(rel);
    const { text } = await readTextFile(join(root, rel));
    const { diagnostics } = kind === 'job' ? parseJob(text) : parseLog(text);
    for (const d of diagnostics) if (d.severity === 'error') r.problems.push({ file: rel, line: d.line, column: d.column, message: `${d.message} (${d.rule})` });
    r.readInPlace.push({ path: rel, by: kind === 'job' ? 'ratchet jixo run|triage (job file; *.task.md is JIXO v1\'s name)' : 'ratchet jixo task|log|check (log file, any JIXO version)' });
  }
  if (r.found.length === 0) r.notes.push('.jixo/ holds no *.log.md, *.job.md or *.task.md file');
  return r;
}

export async function inspectFtl(root: string, stateDir: string, memoryPath: string): Promise<SystemReport> {
  const r = report('ftl');
  const ftl = join(root, '.ftl');
  if ((await exists(join(ftl, 'campaign.json'))) === 'file') {
    r.found.push('.ftl/campaign.json');
    try {
      const c = await readFtlCampaign(join(ftl, 'campaign.json'));
      r.convert.push({ from: '.ftl/campaign.json', to: c.status === 'active' ? `${stateDir}/campaign.json` : `${stateDir}/archive/${c.id}.json`, how: 'campaign-dag importFtlCampaign (the campaign state)', status: 'planned' });
    } catch (err) {
      r.problems.push(...problemOf('.ftl/campaign.json', err));
    }
  }
  for (const abs of await listFtlArchive(ftl)) {
    const rel = `.ftl/archive/${abs.slice(abs.lastIndexOf('/') + 1)}`;
    r.found.push(rel);
    try {
      const c = await readFtlCampaign(abs);
      r.convert.push({ from: rel, to: `${stateDir}/archive/${c.id}.json`, how: 'campaign-dag importFtlCampaign (an archive entry: find-similar reads it)', status: 'planned' });
    } catch (err) {
      r.problems.push(...problemOf(rel, err));
    }
  }
  for (const rel of await listFiles(root, '.ftl/workspace')) {
    if (!rel.endsWith('.xml')) continue;
    r.found.push(rel);
    try {
      await readWorkspace(join(root, rel));
      r.readInPlace.push({ path: rel, by: 'ratchet workspace list|show --workspace-dir .ftl/workspace' });
    } catch (err) {
      r.problems.push(...problemOf(rel, err));
    }
  }
  if ((await exists(join(ftl, 'memory.json'))) === 'file') {
    r.found.push('.ftl/memory.json');
    try {
      await readJsonFile(join(ftl, 'memory.json'));
      r.convert.push({ from: '.ftl/memory.json', to: memoryPath, how: 'ratchet memory import (gates, near-duplicate merge; a risky match regex is dropped with a warning, the entry kept)', status: 'planned' });
    } catch (err) {
      r.problems.push(...problemOf('.ftl/memory.json', err));
    }
  }
  return r;
}

export async function inspectClaudeOrchestration(root: string): Promise<SystemReport> {
  const r = report('claude-orchestration');
  for (const dir of ['.claude/orchestration', '.claude/memory']) {
    for (const rel of await listFiles(root, dir)) {
      r.found.push(rel);
      if (rel.endsWith('.json')) {
        try {
          await readJsonFile(join(root, rel));
        } catch (err) {
          r.problems.push(...problemOf(rel, err));
          continue;
        }
      }
      r.readInPlace.push({ path: rel, by: rel.endsWith('-memory.md') ? 'flow gates (set memoryFiles.agent to ".claude/memory/{task-id}-{role}-memory.md" in the flow settings)' : 'read where it is' });
    }
  }
  return r;
}

export async function inspectFrontalCortex(root: string): Promise<SystemReport> {
  const r = report('frontal-cortex');
  const { readRegistryFile } = await import('@ratchet/goals');
  for (const name of ['action_types.yaml', 'action_types.yml', 'action_types.json']) {
    if ((await exists(join(root, name))) !== 'file') continue;
    r.found.push(name);
    try {
      await readRegistryFile(join(root, name));
      r.readInPlace.push({ path: name, by: 'ratchet goals/actions (the action-type registry)' });
    } catch (err) {
      r.problems.push(...problemOf(name, err));
    }
  }
  for (const name of ['goals.yaml', 'goals.yml', 'goals.json']) if ((await exists(join(root, name))) === 'file') {
    r.found.push(name);
    r.readInPlace.push({ path: name, by: 'read where it is (Frontal Cortex had no implementation; only its documents)' });
  }
  return r;
}
