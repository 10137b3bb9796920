/**
 * The plan vocabulary AGENTS.md lists: the dialects this project's plans are actually checked
 * against (the ones `run plan`/`plan lint` and `research plan` pick: the project's file, else the
 * bundled copy), each described by @ratchet/plan-lint. Loaded with the same loader as lint, so an
 * invalid dialect fails the compile instead of documenting a language lint would refuse.
 */
import { relative, sep } from 'node:path';
import { dialectVocabulary } from '@ratchet/plan-lint';
import type { PlanVocabulary } from '@ratchet/protocol-compiler';
import type { Context } from './context.js';
import { DEFAULT_DIALECT, RESEARCH_DIALECT, defaultDialectPath, loadDialectFile, researchDialectPath } from './plan-project.js';

const LANGUAGES: readonly { relPath: string; path: (root: string) => string; purpose: string }[] = [
  { relPath: DEFAULT_DIALECT, path: defaultDialectPath, purpose: 'Task plans: `ratchet plan lint` and `ratchet run plan` check them against this dialect.' },
  { relPath: RESEARCH_DIALECT, path: researchDialectPath, purpose: 'Research plans: `ratchet research plan` writes them in this dialect and checks them against it.' },
];

export function planVocabularies(ctx: Context): PlanVocabulary[] {
  return LANGUAGES.map(({ relPath, path, purpose }) => {
    const file = path(ctx.cwd);
    const dialect = loadDialectFile(ctx, file);
    // The bundled copy's absolute path differs per machine: naming it would make AGENTS.md drift.
    const own = relative(ctx.cwd, file).split(sep).join('/') === relPath;
    return {
      id: dialect.id,
      source: own ? relPath : `bundled ${relPath.slice(relPath.lastIndexOf('/') + 1)}`,
      purpose: own ? purpose : `${purpose} The project has no \`${relPath}\`, so it is the copy bundled with ratchet; add the file to change it.`,
      ...(dialect.description !== undefined ? { description: dialect.description } : {}),
      entries: dialectVocabulary(dialect),
    };
  });
}
