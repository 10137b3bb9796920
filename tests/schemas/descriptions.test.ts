/**
 * Hover help: the formats people edit by hand describe every property in their shipped JSON Schema,
 * so an editor that follows `$schema` (or a `# yaml-language-server: $schema=` line) explains each
 * key where it is typed. A property added without a description fails here, naming its pointer.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { repoRoot } from '../helpers.js';

const HAND_EDITED = [
  'packages/goals/schemas/action-types.schema.json',
  'packages/plan-lint/schemas/dialect.schema.json',
  'packages/orchestrator/schemas/agent-meta.schema.json',
  'packages/campaign-dag/schemas/plan.schema.json',
];

/** JSON pointers of every declared property without a description (its own, or its $ref target's). */
function undescribed(schema: Record<string, unknown>): string[] {
  const defs = (schema.$defs ?? schema.definitions ?? {}) as Record<string, Record<string, unknown>>;
  const resolveRef = (node: Record<string, unknown>): Record<string, unknown> => {
    const ref = node.$ref;
    if (typeof ref !== 'string') return node;
    const target = defs[ref.replace(/^#\/(\$defs|definitions)\//, '')];
    return target === undefined ? node : target;
  };
  const missing: string[] = [];
  const seen = new Set<unknown>();
  const walk = (node: unknown, pointer: string): void => {
    if (typeof node !== 'object' || node === null || seen.has(node)) return;
    seen.add(node);
    const obj = node as Record<string, unknown>;
    const properties = obj.properties as Record<string, Record<string, unknown>> | undefined;
    for (const [key, value] of Object.entries(properties ?? {})) {
      const described = typeof value.description === 'string' || typeof resolveRef(value).description === 'string' || typeof resolveRef(value).title === 'string';
      if (!described) missing.push(`${pointer}/properties/${key}`);
    }
    for (const [key, value] of Object.entries(obj)) walk(value, `${pointer}/${key}`);
  };
  walk(schema, '');
  return missing;
}

describe('hand-edited formats describe every property', () => {
  test.each(HAND_EDITED)('%s', (file) => {
    const schema = JSON.parse(readFileSync(join(repoRoot, file), 'utf8')) as Record<string, unknown>;
    expect(undescribed(schema)).toEqual([]);
  });

  test('the check finds a property without a description', () => {
    expect(undescribed({ type: 'object', properties: { a: { type: 'string', description: 'x' }, b: { type: 'number' } } })).toEqual(['/properties/b']);
    expect(undescribed({ $defs: { T: { title: 'T', type: 'object' } }, properties: { t: { $ref: '#/$defs/T' } } })).toEqual([]);
  });
});
