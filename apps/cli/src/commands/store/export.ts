import { EXPORT_FORMAT, exportStore, writeFileAtomic } from '@ratchet/store';
import type { Context } from '../../context.js';
import { EXIT_OK } from '../../exit-codes.js';
import { displayPath, resolvePath } from '../../paths.js';
import { withInput } from '../../option-values.js';
import { checkOwnedOutput, type OutputRule } from '../../owned-output.js';
import { storageOf } from '../../storage.js';
import { storeExportInput, type StoreExportInput } from './inputs.js';

/** An export file: JSON Lines whose first line is the export header; an earlier export may be replaced. */
const EXPORT_FILE: OutputRule = { flag: '--out', what: 'a store export (JSON Lines)', extensions: ['.jsonl', '.ndjson'], ownedIf: (head) => head.replace(/^\uFEFF/, '').startsWith(`{"type":"header","format":"${EXPORT_FORMAT}"`) };

/** `ratchet store export [--out FILE]` */
async function exportCommand(ctx: Context, input: StoreExportInput): Promise<number> {
  const out = input.out === undefined ? undefined : resolvePath(ctx, input.out);
  // Checked before the backend opens: a refused path writes nothing and costs no connection.
  if (out !== undefined) checkOwnedOutput(ctx, out, EXPORT_FILE);
  const backend = await storageOf(ctx);
  let lines = 0;
  if (out === undefined) {
    for await (const line of exportStore(backend)) {
      ctx.io.stdout(line);
      lines++;
    }
  } else {
    // Whole, then renamed into place: a failed export never leaves a file that looks complete.
    const chunks: string[] = [];
    for await (const line of exportStore(backend)) chunks.push(line);
    await writeFileAtomic(out, chunks.join(''), { createParentDirs: true });
    lines = chunks.length;
    if (ctx.json) ctx.emitJson({ ok: true, file: displayPath(ctx, out), records: lines - 2, from: { kind: backend.kind, location: backend.location } });
    else ctx.out(`exported ${lines - 2} record${lines === 3 ? '' : 's'} from ${backend.kind} ${backend.location} to ${displayPath(ctx, out)}`);
  }
  return EXIT_OK;
}
export default withInput(storeExportInput, exportCommand);
