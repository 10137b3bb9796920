/**
 * The plan vocabulary AGENTS.md lists: the dialects this project's plans are actually checked
 * against (the ones `run plan`/`plan lint` and `research plan` pick: the project's file, else the
 * bundled copy), each described by @ratchet/plan-lint. Loaded with the same loader as lint, so an
 * invalid dialect fails the compile instead of documenting a language lint would refuse.
 */
import { existsSync } from 'node:fs';
import { basename, join } from 'node:path';
import { dialectVocabulary } from '@ratchet/plan-lint';
import type { PlanVocabulary } from '@ratchet/protocol-compiler';
import type { Context } from './context.js';
import { assetPath } from './paths.js';
import { DEFAULT_DIALECT, RESEARCH_DIALECT, loadDialectFile } from './plan-project.js';

const LANGUAGES: readonly { relPath: string; purpose: string }[] = [
  { relPath: DEFAULT_DIALECT, purpose: 'Task plans: `ratchet plan lint` and `ratchet run plan` check them against this dialect.' },
  { relPath: RESEARCH_DIALECT, purpose: 'Research plans: `ratchet research plan` writes them in this dialect and checks them against it.' },
];

export function planVocabularies(ctx: Context): PlanVocabulary[] {
  return LANGUAGES.map(({ relPath, purpose }) => {
    // AGENTS.md describes the project's own file (else the bundled copy), never the copy a running
    // task pinned (rule-pins.ts): the compiled text must not change when a task starts.
    const live = join(ctx.cwd, relPath);
    const own = existsSync(live);
    const file = own ? live : assetPath('protocols', basename(relPath));
    const dialect = loadDialectFile(ctx, file);
    return {
      id: dialect.id,
      // The bundled copy's absolute path differs per machine: naming it would make AGENTS.md drift.
      source: own ? relPath : `bundled ${relPath.slice(relPath.lastIndexOf('/') + 1)}`,
      purpose: own ? purpose : `${purpose} The project has no \`${relPath}\`, so it is the copy bundled with ratchet; add the file to change it.`,
      ...(dialect.description !== undefined ? { description: dialect.description } : {}),
      entries: dialectVocabulary(dialect),
    };
  });
}
