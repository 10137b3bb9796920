import { describe, expect, test } from 'vitest';
import { formatJson, formatSarif, formatStylish, RULE_IDS, toSarif, type Finding } from '../src/index.js';
import { lintCorpus } from './support.js';

const findings = lintCorpus('invalid/calls.plan');

describe('stylish', () => {
  test('grouped by file, line:col, severity, message, rule id, chain, summary', () => {
    const out = formatStylish(findings);
    const lines = out.split('\n');
    expect(lines[0]).toBe('invalid/calls.plan');
    expect(lines[1]).toMatch(/^ {2}3:11 {2}error {4}call_plan "nowhere": no registered plan .* {2}call-plan-not-found$/);
    expect(out).toContain('sub/bad.plan\n  2:1  error    create_file_with_block (write_op) is not allowed in state PLANNING');
    expect(out).toContain('(via invalid/calls.plan)  fsm-adherence');
    expect(lines.at(-2)).toBe('\u2716 5 problems (5 errors, 0 warnings)');
    expect(out).not.toContain('\u001b[');
  });

  test('colour only when asked; nothing for no findings', () => {
    expect(formatStylish(findings, { color: true })).toContain('\u001b[31m');
    expect(formatStylish([])).toBe('');
  });

  test('warnings are counted', () => {
    expect(formatStylish(lintCorpus('invalid/fs.plan'))).toContain('6 problems (5 errors, 1 warning)');
  });
});

describe('json', () => {
  test('round-trips the findings with counts', () => {
    expect(JSON.parse(formatJson(findings))).toEqual({ findings, errorCount: 5, warningCount: 0 });
  });
});

describe('sarif', () => {
  const log = toSarif(findings, { toolVersion: '0.1.0', root: '/work/project' }) as {
    $schema: string;
    version: string;
    runs: {
      tool: { driver: { name: string; informationUri: string; version: string; rules: { id: string; shortDescription: { text: string } }[] } };
      originalUriBaseIds: Record<string, { uri: string }>;
      results: {
        ruleId: string;
        ruleIndex: number;
        level: string;
        message: { text: string };
        locations: { physicalLocation: { artifactLocation: { uri: string; uriBaseId: string }; region: { startLine: number; startColumn: number } } }[];
        relatedLocations?: { id: number; physicalLocation: { artifactLocation: { uri: string }; region: { startLine: number } }; message: { text: string } }[];
      }[];
    }[];
  };

  test('envelope and driver', () => {
    expect(log.$schema).toBe('https://json.schemastore.org/sarif-2.1.0.json');
    expect(log.version).toBe('2.1.0');
    expect(log.runs).toHaveLength(1);
    const driver = log.runs[0]!.tool.driver;
    expect(driver.name).toBe('ratchet plan-lint');
    expect(driver.version).toBe('0.1.0');
    expect(driver.informationUri).toMatch(/^https:\/\//);
    expect(driver.rules.map((r) => r.id)).toEqual(RULE_IDS);
    for (const r of driver.rules) expect(r.shortDescription.text.length).toBeGreaterThan(0);
    expect(log.runs[0]!.originalUriBaseIds['%SRCROOT%']!.uri).toBe('file:///work/project/');
  });

  test('results: rule index, level, message, relative location, related locations for the chain', () => {
    const { results, tool } = log.runs[0]!;
    expect(results).toHaveLength(findings.length);
    for (const r of results) {
      expect(tool.driver.rules[r.ruleIndex]!.id).toBe(r.ruleId);
      expect(['error', 'warning', 'note']).toContain(r.level);
      expect(r.message.text.length).toBeGreaterThan(0);
      const loc = r.locations[0]!.physicalLocation;
      expect(loc.artifactLocation.uriBaseId).toBe('%SRCROOT%');
      expect(loc.artifactLocation.uri).not.toMatch(/^\/|\\/);
      expect(loc.region.startLine).toBeGreaterThanOrEqual(1);
      expect(loc.region.startColumn).toBeGreaterThanOrEqual(1);
    }
    const nested = results.find((r) => r.locations[0]!.physicalLocation.artifactLocation.uri === 'sub/bad.plan')!;
    expect(nested.relatedLocations).toEqual([
      { id: 1, physicalLocation: { artifactLocation: { uri: 'invalid/calls.plan', uriBaseId: '%SRCROOT%' }, region: { startLine: 7, startColumn: 1 } }, message: { text: 'call_plan sub/bad.plan (call 1 of 1)' } },
    ]);
    expect(results.filter((r) => r.relatedLocations !== undefined)).toHaveLength(1);
  });

  test('warnings map to level warning; windows paths become forward slashes', () => {
    const f: Finding = { ruleId: 'empty-glob', severity: 'warning', message: 'm', file: 'a\\b.plan', line: 1, column: 2 };
    const out = JSON.parse(formatSarif([f], { toolVersion: '1', root: 'C:\\proj' })) as typeof log;
    expect(out.runs[0]!.results[0]!.level).toBe('warning');
    expect(out.runs[0]!.results[0]!.locations[0]!.physicalLocation.artifactLocation.uri).toBe('a/b.plan');
    expect(out.runs[0]!.originalUriBaseIds['%SRCROOT%']!.uri).toBe('file:///C:/proj/');
  });
});
