/**
 * The files `ratchet init` adds to a repository. Each later capability registers its own files here
 * (plan registry, dialect, protocol sources), so init and quickstart grow together.
 */
import { readFile } from 'node:fs/promises';
import { FSM_DEFINITION_SCHEMA_URL } from '@ratchet/fsm-core';
import { AGENT_META_SCHEMA_URL } from '@ratchet/orchestrator';
import { DIALECT_SCHEMA_URL } from '@ratchet/plan-lint';
import { COMPILE_CONFIG_SCHEMA_URL } from '@ratchet/protocol-compiler';
import { assetPath } from './paths.js';

export interface ScaffoldFile {
  /** Path relative to the repository root, with forward slashes. */
  path: string;
  /** Why the file is there, shown by `ratchet init`. */
  purpose: string;
  content: () => Promise<string>;
  /** For Ratchet's protocol sources and their prose: the base name (`04-fdc`) of the protocol. */
  protocolBase?: string;
}


/** Protocol files ship with a repo-relative $schema; in a user's repository point at the published one. */
async function protocolAsset(name: string, schemaUrl: string): Promise<string> {
  const text = await readFile(assetPath('protocols', name), 'utf8');
  return text.replace(/"\$schema":\s*"[^"]*"/u, `"$schema": "${schemaUrl}"`);
}

const protocolFsm = (name: string): Promise<string> => protocolAsset(name, FSM_DEFINITION_SCHEMA_URL);

/** A protocol file as Ratchet ships it (sources point at the project's own `./protocol.schema.json`). */
const asShipped = (name: string) => (): Promise<string> => readFile(assetPath('protocols', name), 'utf8');

/**
 * Ratchet's own protocol set, the starting point of a project's AGENTS.md: it describes the
 * workflow the other scaffolded files drive (orientation, plans checked against the FDC machine,
 * the plan registry, post-mortems and self-correction, research), naming `ratchet` commands.
 * The project edits, removes or adds sources; `ratchet protocol compile` renders what is there.
 * A test keeps this list equal to the repository's protocols/.
 */
export const PROTOCOL_SET: readonly { base: string; prose: boolean; purpose: string }[] = [
  { base: '00-aorp-header', prose: true, purpose: 'the protocol set itself: identity and version' },
  { base: '01-core-directive', prose: false, purpose: 'the mandatory first action of every task' },
  { base: '02-decidability', prose: false, purpose: 'plans must be decidable: bounded, checked before they run' },
  { base: '03-orientation-cascade', prose: false, purpose: 'orientation at task start (ratchet task start)' },
  { base: '04-fdc', prose: true, purpose: 'the Finite Development Cycle: plans linted against the FDC machine' },
  { base: '05-standing-orders', prose: true, purpose: 'standing orders that hold across every task' },
  { base: '06-cfdc', prose: true, purpose: 'hierarchical plans (call_plan) and their depth limit' },
  { base: '07-plan-registry', prose: true, purpose: 'plans found by name in the plan registry' },
  { base: '08-self-correction', prose: true, purpose: 'post-mortem -> lessons -> protocol updates -> recompile' },
  { base: '09-research', prose: true, purpose: 'the research cycle for unknowns' },
  { base: '10-flows', prose: true, purpose: 'reasoning before work, skills through their agents, goals across turns' },
];

const PROTOCOL_FILES: readonly ScaffoldFile[] = PROTOCOL_SET.flatMap(({ base, prose, purpose }) => [
  { path: `protocols/${base}.protocol.json`, purpose: `protocol source: ${purpose}`, content: asShipped(`${base}.protocol.json`), protocolBase: base },
  ...(prose ? [{ path: `protocols/${base}.protocol.md`, purpose: `prose of ${base}, compiled with it`, content: asShipped(`${base}.protocol.md`), protocolBase: base }] : []),
]);

/**
 * The built-in flows and their step files, so a project sees, edits and reviews what its agents run
 * (a project flow hides the built-in one of the same name). A test keeps this list equal to the
 * repository's protocols/flows/.
 */
export const FLOW_SET: readonly { name: string; purpose: string; contents: readonly string[] }[] = [
  {
    name: 'reasoning',
    purpose: 'the reasoning protocol (steps 0-8) every request goes through before work',
    contents: [
      'step-0-johari-discovery.md',
      'step-1-semantic-understanding.md',
      'step-2-chain-of-thought.md',
      'step-3-tree-of-thought.md',
      'step-3b-skill-detection.md',
      'step-4-task-routing.md',
      'step-5-self-consistency.md',
      'step-6-socratic-interrogation.md',
      'step-7-constitutional-critique.md',
      'step-8-knowledge-transfer.md',
    ],
  },
  {
    name: 'develop-feature',
    purpose: 'a composite skill: phases run by agents, gated by their memory files',
    contents: ['phase-0-clarification.md', 'phase-1-research.md', 'phase-2-analysis.md', 'phase-3-synthesis.md', 'phase-4-generation.md', 'phase-5-validation.md'],
  },
];

const FLOW_FILES: readonly ScaffoldFile[] = FLOW_SET.flatMap(({ name, purpose, contents }) => [
  { path: `protocols/flows/${name}.flow.json`, purpose: `flow: ${purpose} (\`ratchet flow start ${name}\`)`, content: () => readFile(assetPath('protocols', 'flows', `${name}.flow.json`), 'utf8') },
  ...contents.map((file) => ({ path: `protocols/flows/${name}/${file}`, purpose: `what step ${file.replace(/\.md$/, '')} of ${name} asks of the agent`, content: () => readFile(assetPath('protocols', 'flows', name, file), 'utf8') })),
]);

export const SCAFFOLD: readonly ScaffoldFile[] = [
  {
    path: 'protocols/fdc.fsm.json',
    purpose: 'the plan language: which command sequences a plan may contain',
    content: () => protocolFsm('fdc.fsm.json'),
  },
  {
    path: 'protocols/orchestrator.fsm.json',
    purpose: 'the task lifecycle the orchestrator drives (orienting, planning, executing, ...)',
    content: () => protocolFsm('orchestrator.fsm.json'),
  },
  {
    path: 'protocols/research.fsm.json',
    purpose: 'the deep-research cycle (gathering, synthesizing, reporting)',
    content: () => protocolFsm('research.fsm.json'),
  },
  {
    path: 'protocols/fdc.dialect.json',
    purpose: 'plan commands -> FSM symbols and file effects (bring your own tools here)',
    content: () => protocolAsset('fdc.dialect.json', DIALECT_SCHEMA_URL),
  },
  {
    path: 'protocols/research.dialect.json',
    purpose: 'the research plan dialect',
    content: () => protocolAsset('research.dialect.json', DIALECT_SCHEMA_URL),
  },
  {
    path: 'protocols/protocol.schema.json',
    purpose: 'what a protocol source must look like (yours to extend); `ratchet protocol compile` validates against it',
    content: asShipped('protocol.schema.json'),
  },
  {
    path: 'protocols/VERSION',
    purpose: 'the version of your protocol set (semver), shown in the compiled AGENTS.md',
    content: asShipped('VERSION'),
  },
  {
    path: 'protocols/compile.json',
    purpose: 'which files `ratchet protocol compile` writes the protocols into (AGENTS.md; add CLAUDE.md, ...)',
    content: () => protocolAsset('compile.json', COMPILE_CONFIG_SCHEMA_URL),
  },
  ...PROTOCOL_FILES,
  ...FLOW_FILES,
  {
    path: '.claude/memory/.gitkeep',
    purpose: "where the flows' agents write their memory files (the gates read them there)",
    content: () => Promise.resolve(''),
  },
  {
    path: 'knowledge_core/agent_meta.json',
    purpose: 'who the agent is: `ratchet task start` reads it first (orientation level 1); edit it',
    content: () =>
      Promise.resolve(
        `${JSON.stringify(
          {
            $schema: AGENT_META_SCHEMA_URL,
            name: 'coding-agent',
            version: '1.0.0',
            description: 'The agent working in this repository. Orientation level 1: it reads this before planning.',
            capabilities: ['read and write files', 'run shell commands'],
            limitations: ['plans must pass `ratchet plan lint` before they run'],
          },
          null,
          2,
        )}\n`,
      ),
  },
  {
    path: '.ratchet/.gitignore',
    purpose: "Ratchet's state directory; lock and temp files are never committed",
    content: () =>
      Promise.resolve(
        '# Written by `ratchet init`. Locks, temp files, kept copies and the per-machine task session are transient.\n' +
          '# Commit a state file with its <file>.digest record, or neither.\n*.lock\n*.lock.break\n*.tmp\n*.prev\n*.rejected-*\nsession.json\nsession.json.*\norientation.json\n',
      ),
  },
];
