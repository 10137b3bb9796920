/** Orientation inputs as the original Jules system wrote them (test/fixtures/jules/). */
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { readAgentMeta, scanActivityLog } from '../src/index.js';

const JULES = fileURLToPath(new URL('./fixtures/jules/', import.meta.url));

describe('Jules orientation inputs', () => {
  it('agent_meta.json with model_name (no name) is valid L1 input; its other keys are kept', async () => {
    const root = mkdtempSync(join(tmpdir(), 'ratchet-jules-meta-'));
    mkdirSync(join(root, 'knowledge_core'));
    copyFileSync(join(JULES, 'agent_meta.json'), join(root, 'knowledge_core/agent_meta.json'));
    const meta = await readAgentMeta(root);
    expect(meta).toMatchObject({ name: 'Jules', model_name: 'Jules', knowledge_cutoff: '2024-06', version: '4.0.0' });
  });

  it('the original activity log: every line not a JSON object is reported with its line, the rest counted', () => {
    const { entries, problems } = scanActivityLog(readFileSync(join(JULES, 'activity.log.jsonl'), 'utf8'), 'logs/activity.log.jsonl');
    expect(entries).toBe(1);
    expect(problems.map((p) => p.line)).toEqual([2]);
    expect(problems[0]!.message).toContain('after the end of the JSON value');
    expect(scanActivityLog('\uFEFF{"a":1}\r\n\r\n[1]\n{"__proto__": {}}\n{broken\n').problems.map((p) => p.line)).toEqual([3, 4, 5]);
  });
});
