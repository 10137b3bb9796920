import { readFile } from 'node:fs/promises';
import { parseLogStrict, type LogFile } from '../src/index.js';

export * from '../src/index.js';

export async function readFileAndParse(path: string): Promise<LogFile> {
  return parseLogStrict(await readFile(path, 'utf8'), path);
}
