/** One JSON document: `{findings, errorCount, warningCount}`, keys in a fixed order. */
import type { Finding } from '../findings.js';

export function formatJson(findings: readonly Finding[]): string {
  const errorCount = findings.filter((f) => f.severity === 'error').length;
  return `${JSON.stringify({ findings, errorCount, warningCount: findings.length - errorCount }, null, 2)}\n`;
}
