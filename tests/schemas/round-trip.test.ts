/**
 * The shipped JSON Schemas accept what the runtime accepts and refuse what it refuses. The runtime
 * checks most formats with hand-written validators (no zod at start-up, see CONTRIBUTING), and the
 * JSON Schemas are generated from zod mirrors: the two can drift where JSON Schema cannot say what
 * zod said (a regex flag, a transform). Property: start from real documents (the examples and what
 * `ratchet quickstart` writes), mutate them the way people and agents break files (drop a key, add
 * one, change a type, empty a string, go negative), and compare the verdicts.
 *
 * Where the runtime is stricter on purpose, for rules a JSON Schema cannot express (a flow's steps
 * must all be reachable, names must be unique), the mutation that trips them is named in STRICTER.
 */
import { mkdirSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { campaignDocument } from '@ratchet/campaign-dag';
import { checkFlow, ledgerDocument, sessionDocument as flowSessionDocument } from '@ratchet/flows';
import { goalsDocument } from '@ratchet/goals';
import { memoryDocument } from '@ratchet/memory';
import { activityEntryValidator, agentMetaProblem, sessionDocument as taskSessionDocument } from '@ratchet/orchestrator';
import { loadDialect } from '@ratchet/plan-lint';
import { planRegistryDocument } from '@ratchet/plan-lint/registry';
import { checkLesson } from '@ratchet/self-correction';
import { openDocument, type DocumentDefinition } from '@ratchet/store';
import { beforeAll, describe, expect, test } from 'vitest';
import { refusalValidator } from '../../apps/cli/src/refusal-log.js';
import { ratchet, repoRoot, tempDir } from '../helpers.js';
import { SchemaRegistry } from './registry.js';

const U = 'https://unpkg.com/@ratchet';
const registry = new SchemaRegistry();

type Json = null | boolean | number | string | Json[] | { [k: string]: Json };
type Path = (string | number)[];

function paths(value: Json, at: Path = [], out: Path[] = []): Path[] {
  out.push(at);
  if (Array.isArray(value)) value.forEach((v, i) => paths(v, [...at, i], out));
  else if (value !== null && typeof value === 'object') for (const [k, v] of Object.entries(value)) paths(v, [...at, k], out);
  return out;
}

const OPS = ['delete', 'null', 'string', 'empty-string', 'number', 'negative', 'fraction', 'boolean', 'array', 'object', 'unknown-key'] as const;
type Op = (typeof OPS)[number];

const REPLACEMENT: Record<Exclude<Op, 'delete' | 'unknown-key'>, Json> = { null: null, string: 'x', 'empty-string': '', number: 7, negative: -3, fraction: 1.5, boolean: true, array: [], object: {} };

/** `value` with `op` applied at `path` (a copy); the root is only ever given an unknown key. */
function mutate(value: Json, path: Path, op: Op): Json {
  const copy = structuredClone(value);
  if (path.length === 0) {
    if (op === 'unknown-key' && copy !== null && typeof copy === 'object' && !Array.isArray(copy)) copy.surprise = 1;
    return copy;
  }
  let parent: Json = copy;
  for (const key of path.slice(0, -1)) parent = (parent as Record<string | number, Json>)[key]!;
  const last = path[path.length - 1]!;
  const target = (parent as Record<string | number, Json>)[last]!;
  if (op === 'unknown-key') {
    if (target !== null && typeof target === 'object' && !Array.isArray(target)) target.surprise = 1;
  } else if (op === 'delete') {
    if (Array.isArray(parent)) parent.splice(Number(last), 1);
    else delete (parent as Record<string, Json>)[String(last)];
  } else (parent as Record<string | number, Json>)[last] = REPLACEMENT[op];
  return copy;
}

interface Format {
  name: string;
  schema: string;
  seeds: () => Json[];
  /** The runtime's verdict: true when Ratchet reads the value. */
  accepts: (value: Json) => boolean;
  /** Why a (path, op) the runtime refuses may pass the schema: a rule JSON Schema cannot state. */
  stricter?: (path: Path, op: Op) => boolean;
}

let scratch = '';
let tour = '';
let counter = 0;

/** The runtime verdict for a document: write it as a file and read it the way the CLI does. */
function readsAsDocument(definition: DocumentDefinition<object>): (value: Json) => boolean {
  return (value) => {
    const file = join(scratch, `doc-${counter++}.json`);
    writeFileSync(file, `${JSON.stringify(value, null, 2)}\n`);
    try {
      openDocument(file, definition).readSync();
      return true;
    } catch {
      return false;
    }
  };
}

const json = (path: string): Json => JSON.parse(readFileSync(path, 'utf8')) as Json;
const jsonl = (path: string): Json[] =>
  readFileSync(path, 'utf8')
    .split('\n')
    .filter((l) => l.trim() !== '')
    .map((l) => JSON.parse(l) as Json);

const formats: Format[] = [
  {
    name: 'memory.json',
    schema: `${U}/memory/schemas/memory.schema.json`,
    seeds: () => [json(join(tour, '.ratchet/memory.json')), json(join(repoRoot, 'examples/memory/hand-edited-memory.json'))],
    accepts: readsAsDocument(memoryDocument),
    // Names are unique across failures and patterns; a related name must exist.
    stricter: (path) => ['name', 'related', 'related_typed'].some((k) => path.includes(k)),
  },
  {
    name: 'campaign.json',
    schema: `${U}/campaign-dag/schemas/campaign.schema.json`,
    // The archive keeps the campaign as it was when completed, without the live file's envelope.
    seeds: () => [json(join(tour, '.ratchet/archive', readdirSync(join(tour, '.ratchet/archive')).find((f) => f.endsWith('.json'))!))].map((a) => ({ $schema: `${U}/campaign-dag/schemas/campaign.schema.json`, schemaVersion: 1, ...((a as { campaign: Record<string, Json> }).campaign ?? {}) })),
    accepts: readsAsDocument(campaignDocument),
    // The graph: dependencies name existing tasks (deleting one leaves them dangling), no cycles, unique seqs.
    stricter: (path, op) => ['depends', 'seq', 'blockedBy'].some((k) => path.includes(k)) || (op === 'delete' && path.length === 2 && path[0] === 'tasks'),
  },
  {
    name: 'task session',
    schema: `${U}/orchestrator/schemas/session.schema.json`,
    seeds: () => [json(join(tour, '.ratchet/session.json'))],
    accepts: readsAsDocument(taskSessionDocument({ taskId: 'none', state: 'START', stack: [], history: [], createdAt: '1970-01-01T00:00:00.000Z', updatedAt: '1970-01-01T00:00:00.000Z' })),
  },
  {
    name: 'agent meta',
    schema: `${U}/orchestrator/schemas/agent-meta.schema.json`,
    // Ratchet's own (what init writes) and Jules' shape (model_name, knowledge_cutoff).
    seeds: () => [json(join(tour, 'knowledge_core/agent_meta.json')), { model_name: 'Jules', knowledge_cutoff: '2024-06', version: '1.0', capabilities: ['bash'] }],
    accepts: (v) => agentMetaProblem(v) === undefined,
  },
  {
    name: 'activity log entry',
    schema: `${U}/orchestrator/schemas/activity-log-entry.schema.json`,
    seeds: () => jsonl(join(tour, 'logs/activity.log.jsonl')).slice(0, 6),
    accepts: (v) => activityEntryValidator.safeParse(v).success,
  },
  {
    name: 'refusal log entry (refusals.log.jsonl line)',
    schema: `${U}/cli/schemas/refusal-log-entry.schema.json`,
    seeds: () => jsonl(join(tour, '.ratchet/refusals.log.jsonl')),
    accepts: (v) => refusalValidator.safeParse(v).success,
    // The time must parse as a date (the schema says only "a string").
    stricter: (path) => path[0] === 'time',
  },
  {
    name: 'flow session',
    schema: `${U}/flows/schemas/flow-session.schema.json`,
    seeds: () => readdirSync(join(tour, '.ratchet/flows')).filter((f) => f.endsWith('.json')).map((f) => json(join(tour, '.ratchet/flows', f))),
    accepts: readsAsDocument(flowSessionDocument),
    // A finished session has no current step and an unfinished one has one: status decides.
    stricter: (path) => ['current', 'status'].some((k) => path.includes(k)),
  },
  {
    name: 'flow artifact ledger',
    schema: `${U}/flows/schemas/flow-artifacts.schema.json`,
    seeds: () => [json(join(tour, '.ratchet/flow-artifacts.json'))],
    accepts: readsAsDocument(ledgerDocument),
  },
  {
    name: 'flow definition',
    schema: `${U}/flows/schemas/flow.schema.json`,
    seeds: () => ['develop-feature', 'reasoning'].map((f) => json(join(repoRoot, `protocols/flows/${f}.flow.json`))),
    accepts: (v) => checkFlow(v).problems.length === 0,
    // Step graph rules: ids unique and named by next/loopTo/targets, every step reachable, the first LINEAR, skill gates.
    stricter: (path) => ['id', 'next', 'loopTo', 'remediationTarget', 'start', 'type', 'kind', 'agent', 'skip', 'agentGate', 'transitionGate', 'learningsGate', 'artifact', 'steps', 'content', 'branches', 'requires', 'values'].some((k) => path.includes(k)),
  },
  {
    name: 'plan dialect',
    schema: `${U}/plan-lint/schemas/dialect.schema.json`,
    seeds: () => ['fdc', 'research'].map((f) => json(join(repoRoot, `protocols/${f}.dialect.json`))),
    accepts: (v) => loadDialect(v).problems.length === 0,
    // Patterns must compile and commands be unique; the close command must be defined.
    stricter: (path) => ['match', 'close', 'name', 'commands'].some((k) => path.includes(k)),
  },
  {
    name: 'goals state',
    schema: `${U}/goals/schemas/goals-state.schema.json`,
    seeds: () => [json(join(tour, '.ratchet/goals.json'))],
    accepts: readsAsDocument(goalsDocument),
    // Ids unique and referenced ids existing; the audit trail's versions in order.
    stricter: (path) => ['id', 'goal_id', 'action_id', 'question_id', 'story_id', 'version', 'audit', 'lineage_ids', 'turns', 'proposals'].some((k) => path.includes(k)),
  },
  {
    name: 'plan registry',
    schema: `${U}/plan-lint/schemas/plan-registry.schema.json`,
    seeds: () => [json(join(tour, 'knowledge_core/plan_registry.json'))],
    accepts: readsAsDocument(planRegistryDocument),
  },
  {
    name: 'lesson (lessons.jsonl line)',
    schema: `${U}/self-correction/schemas/lesson.schema.json`,
    seeds: () => jsonl(join(tour, 'knowledge_core/lessons.jsonl')),
    accepts: (v) => checkLesson(v) === undefined,
    // An action's parameters depend on its type.
    stricter: (path) => path.includes('action'),
  },
];

describe('shipped schemas and runtime validators agree (property)', () => {
  beforeAll(() => {
    scratch = tempDir('ratchet-roundtrip-');
    mkdirSync(scratch, { recursive: true });
    tour = join(tempDir('ratchet-roundtrip-tour-'), 'tour');
    const q = ratchet(['quickstart', '--dir', tour]);
    if (q.status !== 0) throw new Error(`quickstart failed: ${q.stderr}`);
  }, 300_000);

  test.each(formats.map((f) => [f.name, f] as const))('%s', (_name, format) => {
    const seeds = format.seeds();
    expect(seeds.length).toBeGreaterThan(0);
    // The seeds themselves: both accept.
    for (const seed of seeds) {
      expect(format.accepts(seed), `runtime refuses a seed of ${format.name}`).toBe(true);
      expect(registry.check(format.schema, seed)).toEqual([]);
    }
    const disagreements: string[] = [];
    let refusedByBoth = 0;
    const samples = fc.sample(
      fc.nat({ max: seeds.length - 1 }).chain((s) => {
        const all = paths(seeds[s]!);
        return fc.record({ seed: fc.constant(s), path: fc.constantFrom(...all), op: fc.constantFrom(...OPS) });
      }),
      { numRuns: 250, seed: 20261125 },
    );
    for (const { seed, path, op } of samples) {
      const value = mutate(seeds[seed]!, path, op);
      const runtime = format.accepts(value);
      const schema = registry.check(format.schema, value);
      if (!runtime && schema.length > 0) refusedByBoth++;
      if (runtime && schema.length > 0) disagreements.push(`runtime reads it, schema refuses: ${op} at /${path.join('/')}: ${schema.slice(0, 2).join('; ')}`);
      if (!runtime && schema.length === 0 && format.stricter?.(path, op) !== true) disagreements.push(`schema accepts, runtime refuses: ${op} at /${path.join('/')}`);
    }
    expect([...new Set(disagreements)]).toEqual([]);
    // The mutations do break files: a property that never saw a refusal would prove nothing.
    expect(refusedByBoth).toBeGreaterThan(10);
  });
});
