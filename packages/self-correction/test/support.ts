import { mkdtemp, mkdir, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { LessonsError } from '../src/index.js';

export const NOW = '2030-01-02T03:04:05.000Z';

export async function tempDir(prefix = 'sc-'): Promise<string> {
  return mkdtemp(join(tmpdir(), prefix));
}

export async function writeFiles(root: string, files: Record<string, string>): Promise<void> {
  for (const [name, content] of Object.entries(files)) {
    await mkdir(dirname(join(root, name)), { recursive: true });
    await writeFile(join(root, name), content);
  }
}

export function postMortem(section: string, heading = '## 3. Corrective Actions & Lessons Learned'): string {
  return `# Post-Mortem: t1\n\n- **Task:** \`t1\`\n\n## 1. Summary\n\n**Lesson:** not in the section\n**Action:** add tool 'x' to protocol 'y'\n\n${heading}\n\n${section}\n\n## 4. Follow-ups\n\n**Lesson:** after the section\n`;
}

/** The LessonsError `fn` throws (anything else is rethrown; no error fails the test). */
export function refusal(fn: () => unknown): LessonsError {
  try {
    fn();
  } catch (err) {
    if (err instanceof LessonsError) return err;
    throw err;
  }
  throw new Error('expected a LessonsError');
}
