import { importStore, parseExport, readTextFile } from '@ratchet/store';
import type { Context } from '../../context.js';
import { CliError } from '../../errors.js';
import { EXIT_OK } from '../../exit-codes.js';
import { displayPath, resolvePath } from '../../paths.js';
import { readStdinLimited } from '../../stdin.js';
import { storageOf } from '../../storage.js';

/** An export is every document of a project: allow far more than one document's limit. */
const MAX_EXPORT_BYTES = 1024 * 1024 * 1024;

/** `ratchet store import FILE` */
export default async function importCommand(ctx: Context, args: string[]): Promise<number> {
  const [file] = args;
  if (file === undefined) throw new CliError('import needs the export file (or "-" for standard input)');
  let text: string;
  let shown: string;
  if (file === '-') {
    shown = '<stdin>';
    text = await readStdinLimited(ctx, MAX_EXPORT_BYTES, 'the export');
  } else {
    const abs = resolvePath(ctx, file);
    shown = displayPath(ctx, abs);
    text = (await readTextFile(abs, { maxBytes: MAX_EXPORT_BYTES })).text;
  }
  // Parsed and checked whole before the backend is even opened: a bad file writes nothing.
  const records = parseExport(text, shown);
  const backend = await storageOf(ctx);
  const counts = await importStore(backend, records);
  if (ctx.json) ctx.emitJson({ ok: true, file: shown, to: { kind: backend.kind, location: backend.location }, ...counts });
  else ctx.out(`imported ${counts.documents} documents, ${counts.logEntries} log entries, ${counts.queueItems} queue items into ${backend.kind} ${backend.location}`);
  return EXIT_OK;
}
