/**
 * SARIF 2.1.0 for GitHub code scanning: one run, the rule table as `tool.driver.rules`, artefact
 * URIs relative to `%SRCROOT%` (forward slashes, each segment percent-encoded so a `#`, `%`, space or
 * `:` in a file name stays part of the path), the call chain as `relatedLocations`. Valid against
 * the OASIS SARIF 2.1.0 schema (test/sarif-schema.test.ts) and within GitHub's upload limits: a run
 * over 25,000 results is rejected whole, so the log keeps the first `maxResults` (errors before
 * warnings) and says how many it left out in a tool execution notification.
 */
import { RULE_IDS, RULES, type Finding } from '../findings.js';

export const SARIF_SCHEMA = 'https://json.schemastore.org/sarif-2.1.0.json';
export const INFORMATION_URI = 'https://github.com/ratchet-dev/ratchet/tree/main/packages/plan-lint#readme';
/** GitHub code scanning rejects a SARIF run with more results than this. */
export const GITHUB_MAX_RESULTS = 25_000;

export interface SarifOptions {
  toolVersion: string;
  /** Absolute project root; written as `originalUriBaseIds.%SRCROOT%`. */
  root: string;
  /** Most results in the run (default GITHUB_MAX_RESULTS); the rest are counted in a notification. */
  maxResults?: number;
}

/** A project-relative path as a relative URI reference: `/`-separated, every segment percent-encoded. */
export function relativeUri(file: string): string {
  return file
    .replace(/\\/g, '/')
    .replace(/^\.\//, '')
    .split('/')
    .map((segment) => encodeURIComponent(segment))
    .join('/');
}

/** An absolute directory (POSIX or Windows) as a `file:` URI ending in `/`. */
export function directoryUri(dir: string): string {
  const segments = dir.replace(/\\/g, '/').split('/').filter((s) => s !== '');
  const encoded = segments.map((s, i) => (i === 0 && /^[A-Za-z]:$/.test(s) ? s : encodeURIComponent(s)));
  return `file:///${encoded.map((s) => `${s}/`).join('')}`;
}

export function toSarif(findings: readonly Finding[], options: SarifOptions): Record<string, unknown> {
  const ruleIndex = new Map(RULE_IDS.map((id, i) => [id, i]));
  const max = options.maxResults ?? GITHUB_MAX_RESULTS;
  const kept = findings.length <= max ? findings : [...findings.filter((f) => f.severity === 'error'), ...findings.filter((f) => f.severity !== 'error')].slice(0, max);
  const location = (file: string, line: number, column: number): Record<string, unknown> => ({
    physicalLocation: { artifactLocation: { uri: relativeUri(file), uriBaseId: '%SRCROOT%' }, region: { startLine: line, startColumn: column } },
  });
  const run: Record<string, unknown> = {
    tool: {
      driver: {
        name: 'ratchet plan-lint',
        informationUri: INFORMATION_URI,
        version: options.toolVersion,
        rules: RULE_IDS.map((id) => ({
          id,
          shortDescription: { text: RULES[id].description },
          defaultConfiguration: { level: RULES[id].severity },
        })),
      },
    },
    originalUriBaseIds: { '%SRCROOT%': { uri: directoryUri(options.root) } },
    results: kept.map((f) => {
      const result: Record<string, unknown> = {
        ruleId: f.ruleId,
        ruleIndex: ruleIndex.get(f.ruleId),
        level: f.severity,
        message: { text: f.chain && f.chain.length > 1 ? `${f.message} (via ${f.chain.slice(0, -1).join(' -> ')})` : f.message },
        locations: [location(f.file, f.line, f.column)],
      };
      if (f.callSites && f.callSites.length > 0) {
        result.relatedLocations = f.callSites.map((s, i) => ({
          id: i + 1,
          ...location(s.file, s.line, s.column),
          message: { text: `call_plan ${f.chain?.[i + 1] ?? ''} (call ${i + 1} of ${f.callSites!.length})` },
        }));
      }
      return result;
    }),
  };
  if (kept.length < findings.length) {
    const omitted = findings.length - kept.length;
    run.invocations = [
      {
        executionSuccessful: true,
        toolExecutionNotifications: [
          {
            level: 'warning',
            message: { text: `${omitted} of ${findings.length} findings left out: GitHub code scanning rejects a run with more than ${max} results. Run \`ratchet plan lint\` for all of them.` },
          },
        ],
      },
    ];
  }
  return { $schema: SARIF_SCHEMA, version: '2.1.0', runs: [run] };
}

export function formatSarif(findings: readonly Finding[], options: SarifOptions): string {
  return `${JSON.stringify(toSarif(findings, options), null, 2)}\n`;
}
