/**
 * SARIF 2.1.0 for GitHub code scanning: one run, the rule table as `tool.driver.rules`, artefact
 * URIs relative to `%SRCROOT%` with forward slashes, the call chain as `relatedLocations`.
 */
import { RULE_IDS, RULES, type Finding } from '../findings.js';

export const SARIF_SCHEMA = 'https://json.schemastore.org/sarif-2.1.0.json';
export const INFORMATION_URI = 'https://github.com/ratchet-dev/ratchet/tree/main/packages/plan-lint#readme';

export interface SarifOptions {
  toolVersion: string;
  /** Absolute project root; written as `originalUriBaseIds.%SRCROOT%`. */
  root: string;
}

export function toSarif(findings: readonly Finding[], options: SarifOptions): Record<string, unknown> {
  const ruleIndex = new Map(RULE_IDS.map((id, i) => [id, i]));
  const rootUri = `file://${options.root.replace(/\\/g, '/').replace(/^([A-Za-z]:)/, '/$1').replace(/\/?$/, '/')}`;
  const uri = (file: string): string => file.replace(/\\/g, '/').replace(/^\.\//, '');
  const location = (file: string, line: number, column: number): Record<string, unknown> => ({
    physicalLocation: { artifactLocation: { uri: uri(file), uriBaseId: '%SRCROOT%' }, region: { startLine: line, startColumn: column } },
  });
  return {
    $schema: SARIF_SCHEMA,
    version: '2.1.0',
    runs: [
      {
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
        originalUriBaseIds: { '%SRCROOT%': { uri: rootUri } },
        results: findings.map((f) => {
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
      },
    ],
  };
}

export function formatSarif(findings: readonly Finding[], options: SarifOptions): string {
  return `${JSON.stringify(toSarif(findings, options), null, 2)}\n`;
}
