import { importStore, parseExport, readTextFile, type ExportRecord } from '@ratchet/store';
import { protectedEntry } from '../../protected-paths.js';
import type { Context } from '../../context.js';
import { CliError } from '../../errors.js';
import { EXIT_OK } from '../../exit-codes.js';
import { withInput } from '../../option-values.js';
import { displayPath, resolvePath } from '../../paths.js';
import { readStdinLimited } from '../../stdin.js';
import { storageOf } from '../../storage.js';
import { storeImportInput, type StoreImportInput } from './inputs.js';

/** An export is every document of a project: allow far more than one document's limit. */
const MAX_EXPORT_BYTES = 1024 * 1024 * 1024;

/**
 * An export holds Ratchet's state and nothing else: a record whose key is not a state file (the
 * project config, the hooks' settings, a protocol, a source file) is refused with its line, and
 * nothing is imported. Otherwise an import would be a way to write any file through Ratchet.
 */
function checkStateKeys(records: readonly ExportRecord[], shown: string): void {
  records.forEach((r, i) => {
    if (r.type !== 'document' && r.type !== 'log') return;
    const entry = protectedEntry(r.key);
    if (entry?.kind === 'state') return;
    const what = entry === undefined ? 'not one of Ratchet\'s state files' : `one of Ratchet's ${entry.kind === 'config' ? 'configuration' : 'rule'} files, which a store never holds`;
    throw new CliError(`${shown}:${i + 1}: key ${JSON.stringify(r.key)} is ${what}; nothing was imported`, { file: shown, line: i + 1, code: 'not-state' });
  });
}

/** `ratchet store import FILE` */
async function importCommand(ctx: Context, { file }: StoreImportInput): Promise<number> {
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
  checkStateKeys(records, shown);
  const backend = await storageOf(ctx);
  const counts = await importStore(backend, records);
  if (ctx.json) ctx.emitJson({ ok: true, file: shown, to: { kind: backend.kind, location: backend.location }, ...counts });
  else ctx.out(`imported ${counts.documents} documents, ${counts.logEntries} log entries, ${counts.queueItems} queue items into ${backend.kind} ${backend.location}`);
  return EXIT_OK;
}
export default withInput(storeImportInput, importCommand);
