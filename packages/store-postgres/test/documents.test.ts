// What the conformance kit does not cover for documents on PostgreSQL: the column holds exactly
// the caller's JSON text, and the size limit counts UTF-8 bytes.
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
});
