// What the conformance kit does not cover for documents on PostgreSQL: the column holds exactly
// the caller's JSON text, the size limit counts UTF-8 bytes, and concurrent creators of a missing
// document serialize (the kit's process test rarely hits that window; this test always does).
import { DocumentTooLargeError } from '@ratchet/store';
import { afterAll, expect, it } from 'vitest';
import { closeBackends, describePg, freshProject, openBackend, withClient } from './support/postgres.js';

afterAll(closeBackends);

describePg('documents on PostgreSQL', () => {
  it('stores the JSON text itself (not jsonb): NUL escapes, CRLF, BOM, unicode keys and key order survive', async () => {
    const project = freshProject();
    const backend = openBackend({ project });
    const value = { z: 1, 'ключ': 'значение 🎉', nul: 'a\u0000b', crlf: 'line\r\nline', bom: '\uFEFFtext', '': 'empty key', dup: { b: 1, a: 2 } };
    await backend.documents.update('.ratchet/campaign.json', () => value);
    const read = await backend.documents.get('.ratchet/campaign.json');
    expect(JSON.stringify(read?.value)).toBe(JSON.stringify(value));
    const rows = await withClient((c) =>
      c.query<{ value: string; type: string }>(
        `SELECT value, pg_typeof(value)::text AS type FROM ratchet_documents WHERE project = $1 AND key = '.ratchet/campaign.json'`,
        [project],
      ),
    );
    expect(rows.rows).toEqual([{ value: JSON.stringify(value), type: 'text' }]);
  });

  it('the size limit counts UTF-8 bytes, not characters', async () => {
    const backend = openBackend({ maxDocumentBytes: 1000 });
    // 'é' is 2 UTF-8 bytes: 600 of them are over 1000 bytes though under 1000 characters.
    const err = await backend.documents.update('big.json', () => ({ s: 'é'.repeat(600) })).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(DocumentTooLargeError);
    expect((err as DocumentTooLargeError).size).toBeGreaterThan(1200);
    expect(await backend.documents.update('ok.json', () => ({ s: 'é'.repeat(400) }))).toMatchObject({ revision: 1 });
  });

  it('a second creator of a missing document waits for the first and builds on its write', async () => {
    const project = freshProject();
    const first = openBackend({ project });
    const second = openBackend({ project });
    let release!: () => void;
    const held = new Promise<void>((r) => (release = r));
    let firstInside!: () => void;
    const inside = new Promise<void>((r) => (firstInside = r));
    const increment = (d: { value: { n?: unknown } } | undefined): { n: number } => ({ n: ((d?.value.n as number | undefined) ?? 0) + 1 });
    // The first creator is inside its update (no row exists yet) when the second one starts.
    const a = first.documents.update('new.json', async (d) => {
      firstInside();
      await held;
      return increment(d);
    });
    await inside;
    const b = second.documents.update('new.json', (d) => increment(d));
    await new Promise((r) => setTimeout(r, 300));
    release();
    expect(await a).toMatchObject({ revision: 1, value: { n: 1 } });
    expect(await b).toMatchObject({ revision: 2, value: { n: 2 } });
    expect(await first.documents.get('new.json')).toMatchObject({ revision: 2, value: { n: 2 } });
  });
});
