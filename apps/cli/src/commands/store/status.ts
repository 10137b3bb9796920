import type { Context } from '../../context.js';
import { EXIT_OK } from '../../exit-codes.js';
import { storageOf } from '../../storage.js';

/** `ratchet store status` */
export default async function status(ctx: Context): Promise<number> {
  const backend = await storageOf(ctx);
  const [documents, logs, queues] = await Promise.all([backend.documents.list(), backend.logs.list(), backend.queues.list()]);
  if (ctx.json) {
    ctx.emitJson({ ok: true, kind: backend.kind, location: backend.location, maxDocumentBytes: backend.limits.maxDocumentBytes, documents, logs, queues });
    return EXIT_OK;
  }
  ctx.out(`store: ${backend.kind} at ${backend.location}`);
  ctx.out(`${documents.length} document${documents.length === 1 ? '' : 's'}, ${logs.length} log${logs.length === 1 ? '' : 's'}, ${queues.length} queue${queues.length === 1 ? '' : 's'}`);
  for (const key of documents) ctx.out(`  document ${key}`);
  for (const key of logs) ctx.out(`  log      ${key}`);
  for (const key of queues) ctx.out(`  queue    ${key}`);
  return EXIT_OK;
}
