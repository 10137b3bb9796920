import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { loadDefinition, type Machine } from '@ratchet/fsm-core';
import { loadDialect, lintPlan, type Dialect, type Finding, type LintOptions } from '../src/index.js';

export const PROTOCOLS = fileURLToPath(new URL('../../../protocols/', import.meta.url));
export const CORPUS = fileURLToPath(new URL('./corpus/', import.meta.url));

export function loadProtocol(id: 'fdc' | 'research'): { machine: Machine; dialect: Dialect } {
  const { machine } = loadDefinition(JSON.parse(readFileSync(`${PROTOCOLS}${id}.fsm.json`, 'utf8')));
  if (!machine) throw new Error(`bad ${id} fsm`);
  const { dialect, problems } = loadDialect(JSON.parse(readFileSync(`${PROTOCOLS}${id}.dialect.json`, 'utf8')), machine);
  if (!dialect) throw new Error(JSON.stringify(problems));
  return { machine, dialect };
}

export const fdc = loadProtocol('fdc');

/** The project the corpus plans run against. */
export const PROJECT_FILES = ['src/a.ts', 'src/b.ts', 'docs/intro.md', 'docs/guide/deep.md', 'README.md'];

export const corpusHost = {
  readPlan(rel: string): string | undefined {
    try {
      return readFileSync(`${CORPUS}${rel}`, 'utf8');
    } catch {
      return undefined;
    }
  },
};

export function memoryHost(plans: Record<string, string>): LintOptions['host'] {
  return { readPlan: (rel) => (Object.hasOwn(plans, rel) ? plans[rel] : undefined) };
}

export function lintCorpus(entry: string, extra: Partial<LintOptions> = {}): Finding[] {
  return lintPlan({ entry, root: CORPUS, host: corpusHost, files: PROJECT_FILES, ...fdc, registry: { helper: 'sub/helper.plan', escape: '../../x.plan' }, ...extra }).findings;
}

/** `ruleId@line` (and `@file` when not the entry): compact, exact expectations. */
export function brief(findings: readonly Finding[], entry?: string): string[] {
  return findings.map((f) => `${f.ruleId}@${f.file === entry ? '' : `${f.file}:`}${f.line}:${f.column}`);
}
