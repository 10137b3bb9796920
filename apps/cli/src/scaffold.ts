/**
 * The files `ratchet init` adds to a repository. Each later capability registers its own files here
 * (plan registry, dialect, protocol sources), so init and quickstart grow together.
 */
import { readFile } from 'node:fs/promises';
import { FSM_DEFINITION_SCHEMA_URL } from '@ratchet/fsm-core';
import { AGENT_META_SCHEMA_URL } from '@ratchet/orchestrator';
import { DIALECT_SCHEMA_URL } from '@ratchet/plan-lint';
import { assetPath } from './paths.js';

export interface ScaffoldFile {
  /** Path relative to the repository root, with forward slashes. */
  path: string;
  /** Why the file is there, shown by `ratchet init`. */
  purpose: string;
  content: () => Promise<string>;
}


/** Protocol files ship with a repo-relative $schema; in a user's repository point at the published one. */
async function protocolAsset(name: string, schemaUrl: string): Promise<string> {
  const text = await readFile(assetPath('protocols', name), 'utf8');
  return text.replace(/"\$schema":\s*"[^"]*"/u, `"$schema": "${schemaUrl}"`);
}

const protocolFsm = (name: string): Promise<string> => protocolAsset(name, FSM_DEFINITION_SCHEMA_URL);

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
    content: () => Promise.resolve('# Written by `ratchet init`. Locks, temp files and the per-machine task session are transient.\n*.lock\n*.lock.break\n*.tmp\nsession.json\norientation.json\n'),
  },
];
