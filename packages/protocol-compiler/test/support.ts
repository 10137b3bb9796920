import { mkdtemp, mkdir, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';

export async function tempDir(prefix = 'pc-'): Promise<string> {
  return mkdtemp(join(tmpdir(), prefix));
}

export async function writeFiles(root: string, files: Record<string, string | Uint8Array>): Promise<void> {
  for (const [name, content] of Object.entries(files)) {
    await mkdir(dirname(join(root, name)), { recursive: true });
    await writeFile(join(root, name), content);
  }
}

export function protocolJson(id: string, extra: Record<string, unknown> = {}, indent: string | number = 2): string {
  return `${JSON.stringify({ protocol_id: id, description: `The ${id} protocol.`, rules: [{ rule_id: `${id}-rule`, description: `Follow ${id}.`, enforcement: 'Review.' }], ...extra }, null, indent)}\n`;
}
