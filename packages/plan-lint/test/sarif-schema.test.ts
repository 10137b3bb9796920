/**
 * The SARIF output against the official OASIS SARIF 2.1.0 JSON Schema (rtm.5, the schema GitHub's
 * docs link; shipped in the npm package @microsoft/jest-sarif, so the test runs offline), plus the
 * fields and limits GitHub code scanning itself requires of an upload.
 */
import { createRequire } from 'node:module';
import { readFileSync } from 'node:fs';
import AjvDraft04 from 'ajv-draft-04';
import ajvFormats from 'ajv-formats';
import { describe, expect, test } from 'vitest';
import { GITHUB_MAX_RESULTS, lintPlan, RULE_IDS, toSarif, type Finding } from '../src/index.js';
import { fdc, lintCorpus, memoryHost } from './support.js';

const require = createRequire(import.meta.url);
const schema = JSON.parse(readFileSync(require.resolve('@microsoft/jest-sarif/lib/schemas/sarif-2.1.0-rtm.5.json'), 'utf8')) as Record<string, unknown>;
// unicodeRegExp off: the schema's `language` pattern is not valid with the u flag (JSON Schema regexes are plain ECMA-262).
// CommonJS modules: their `default` export is the class / plugin under both tsc (NodeNext) and vitest.
const ajv = new AjvDraft04.default({ allErrors: true, strict: false, unicodeRegExp: false });
ajvFormats.default(ajv);
const validate = ajv.compile(schema);

interface SarifLog {
  version: string;
  runs: {
    tool: { driver: { name: string; rules: { id: string }[] } };
    results: {
      ruleId: string;
      ruleIndex: number;
      level: string;
      message: { text: string };
      locations: { physicalLocation: { artifactLocation: { uri: string; uriBaseId?: string }; region: { startLine: number; startColumn: number } } }[];
      relatedLocations?: unknown[];
    }[];
    invocations?: { executionSuccessful: boolean; toolExecutionNotifications: { message: { text: string } }[] }[];
  }[];
}

function sarif(findings: readonly Finding[], root = '/work/project', maxResults?: number): SarifLog {
  // Through JSON text, as a file on disk would be read.
  const log = JSON.parse(JSON.stringify(toSarif(findings, { toolVersion: '0.1.0', root, ...(maxResults !== undefined ? { maxResults } : {}) }))) as SarifLog;
  const ok = validate(log);
  expect(validate.errors ?? [], JSON.stringify(validate.errors?.slice(0, 3))).toEqual([]);
  expect(ok).toBe(true);
  return log;
}

/** What GitHub code scanning needs of every upload (docs: "SARIF support for code scanning" and its limits page). */
function expectGithubAccepts(log: SarifLog): void {
  expect(log.version).toBe('2.1.0');
  expect(log.runs.length).toBeGreaterThanOrEqual(1);
  expect(log.runs.length).toBeLessThanOrEqual(20);
  for (const run of log.runs) {
    expect(run.tool.driver.name.length).toBeGreaterThan(0);
    expect(run.tool.driver.rules.length).toBeLessThanOrEqual(25_000);
    expect(run.results.length).toBeLessThanOrEqual(GITHUB_MAX_RESULTS);
    const ids = new Set(run.tool.driver.rules.map((r) => r.id));
    for (const r of run.results) {
      expect(ids.has(r.ruleId)).toBe(true);
      expect(run.tool.driver.rules[r.ruleIndex]!.id).toBe(r.ruleId);
      expect(['none', 'note', 'warning', 'error']).toContain(r.level);
      expect(r.message.text.length).toBeGreaterThan(0);
      expect(r.locations.length).toBeGreaterThanOrEqual(1);
      expect(r.locations.length).toBeLessThanOrEqual(1000);
      expect((r.relatedLocations ?? []).length).toBeLessThanOrEqual(1000);
      for (const { physicalLocation: p } of r.locations) {
        // Repository-relative: no scheme, no leading slash, no backslash.
        expect(p.artifactLocation.uri).not.toMatch(/^[a-z][a-z0-9+.-]*:|^\/|\\/i);
        expect(p.region.startLine).toBeGreaterThanOrEqual(1);
      }
    }
  }
}

describe('SARIF 2.1.0 (official schema) and GitHub code scanning', () => {
  test('the schema is the OASIS SARIF 2.1.0 one and it rejects a broken log (the validator is live)', () => {
    expect(String(schema.title)).toContain('SARIF) Version 2.1.0');
    expect(validate({ version: '2.1.0', runs: [{ tool: { driver: {} } }] })).toBe(false);
    expect(validate({ version: '2.0.0', runs: [] })).toBe(false);
  });

  test.each(['invalid/calls.plan', 'invalid/fs.plan', 'invalid/indent.plan', 'invalid/malformed.plan', 'sub/cycle-a.plan', 'valid/basic.plan'])('%s: valid, and what GitHub requires', (entry) => {
    const log = sarif(lintCorpus(entry));
    expectGithubAccepts(log);
    expect(log.runs[0]!.tool.driver.rules.map((r) => r.id)).toEqual(RULE_IDS);
  });

  test('file names with spaces, #, %, : and non-ASCII stay one relative URI; Windows roots become file URIs', () => {
    const odd = ['my plans/fix #12.plan', '100%.plan', 'a:b.plan', 'planné/été.plan'];
    const findings: Finding[] = odd.map((file) => ({ ruleId: 'empty-plan', severity: 'error', message: 'the plan has no commands', file, line: 1, column: 1 }));
    for (const root of ['/work/my project', 'C:\\Users\\me\\proj']) {
      const log = sarif(findings, root);
      expectGithubAccepts(log);
      const uris = log.runs[0]!.results.map((r) => r.locations[0]!.physicalLocation.artifactLocation.uri);
      expect(uris).toEqual(['my%20plans/fix%20%2312.plan', '100%25.plan', 'a%3Ab.plan', 'plann%C3%A9/%C3%A9t%C3%A9.plan']);
      expect(uris.map((u) => u.split('/').map(decodeURIComponent).join('/'))).toEqual(odd);
    }
    const roots = ['/work/my project', 'C:\\Users\\me\\proj'].map((root) => (toSarif([], { toolVersion: '1', root }).runs as { originalUriBaseIds: Record<string, { uri: string }> }[])[0]!.originalUriBaseIds['%SRCROOT%']!.uri);
    expect(roots).toEqual(['file:///work/my%20project/', 'file:///C:/Users/me/proj/']);
  });

  test("over GitHub's 25,000-result limit: errors first, the rest counted in a notification", () => {
    // A real plan with 30,000 missing-file reads and a warning: far past what an upload may carry.
    const lines = ['set_plan x', 'plan_step_complete go', 'for_each_file nothing/*', '  read_file {file}'];
    for (let i = 0; i < 30_000; i++) lines.push(`read_file missing/${i}.ts`);
    lines.push('run_in_bash_session close');
    const { findings } = lintPlan({ entry: 'big.plan', root: '/p', host: memoryHost({ 'big.plan': lines.join('\n') }), files: [], ...fdc });
    expect(findings).toHaveLength(30_001);
    expect(findings[0]!.severity).toBe('warning'); // the empty glob on line 3 sorts first
    const run = (toSarif(findings, { toolVersion: '1', root: '/p' }) as unknown as SarifLog).runs[0]!;
    expect(run.results).toHaveLength(GITHUB_MAX_RESULTS);
    expect(run.results.every((r) => r.level === 'error')).toBe(true);
    expect(run.invocations![0]!.toolExecutionNotifications[0]!.message.text).toMatch(/^5001 of 30001 findings left out/);
    // The same cut, small enough for the schema's uniqueItems checks: valid, and within the limits.
    const small = sarif(findings.slice(0, 150), '/p', 100);
    expectGithubAccepts(small);
    expect(small.runs[0]!.results).toHaveLength(100);
    expect(small.runs[0]!.invocations![0]).toMatchObject({ executionSuccessful: true });
    // Under the limit nothing is left out and there is no notification.
    expect(sarif(findings.slice(0, 150), '/p').runs[0]!.invocations).toBeUndefined();
  });
});
