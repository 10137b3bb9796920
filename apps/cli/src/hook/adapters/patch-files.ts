/**
 * The files a patch in the apply_patch format touches (Codex's `apply_patch` tool, OpenCode's
 * `apply_patch`/`patch`): `*** Add File: <path>`, `*** Update File: <path>`, `*** Delete File:
 * <path>` and `*** Move to: <path>` header lines. Headers are matched after trimming, as Codex's
 * own parser does, so a spelling the harness would apply is never missed; a hunk line that happens
 * to look like a header only adds a target (a stricter answer), never hides one.
 */
export type PatchOp = 'add' | 'update' | 'delete' | 'move-to';

export interface PatchFile {
  op: PatchOp;
  path: string;
}

const HEADER = /^\*\*\* (Add File|Update File|Delete File|Move to): (.*)$/;
const OPS: Record<string, PatchOp> = { 'Add File': 'add', 'Update File': 'update', 'Delete File': 'delete', 'Move to': 'move-to' };

export function patchFiles(text: string): PatchFile[] {
  const files: PatchFile[] = [];
  for (const line of text.split(/\r?\n/)) {
    const m = HEADER.exec(line.trim());
    if (m === null) continue;
    const path = m[2]!.trim();
    if (path !== '') files.push({ op: OPS[m[1]!]!, path });
  }
  return files;
}
