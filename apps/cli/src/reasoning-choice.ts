/**
 * `ratchet init --reasoning-flow [flow]` / `--no-reasoning-flow`: the project's choice of whether
 * every prompt first runs a flow (the seed's reasoning protocol), written as `hooks.reasoningFlow`
 * in ratchet.config.json. Off unless chosen: it costs the agent a directive of context on every
 * prompt and holds Stop until the flow is advanced (README: "What Ratchet costs the agent").
 *
 * The one key is edited in place (the rest of the file keeps its bytes), under the file's lock; a
 * config that does not parse or validate is refused with its place and left as it is.
 */
import { join } from 'node:path';
import { editJsonText, withBom, type JsonTextOp } from '@ratchet/protocol-compiler';
import { NotFoundError, parseJson, readTextFile, withLock, writeFileAtomic } from '@ratchet/store';
import { CliError } from './errors.js';
import { CONFIG_FILE, CONFIG_SCHEMA_URL, configProblems } from './hook/config.js';

export type ChoiceOutcome = 'created' | 'updated' | 'unchanged' | 'would-create' | 'would-update';

export interface ReasoningChoice {
  path: string;
  outcome: ChoiceOutcome;
  /** The flow every prompt runs, or false for none. */
  value: string | false;
}

export async function chooseReasoningFlow(root: string, value: string | false, dryRun: boolean): Promise<ReasoningChoice> {
  const file = join(root, CONFIG_FILE);
  const decide = async (): Promise<ReasoningChoice> => {
    const current = await readConfigText(file);
    if (current === undefined) {
      if (dryRun) return { path: CONFIG_FILE, outcome: 'would-create', value };
      const text = `${JSON.stringify({ $schema: CONFIG_SCHEMA_URL, schemaVersion: 1, hooks: { reasoningFlow: value } }, null, 2)}\n`;
      await writeFileAtomic(file, text);
      return { path: CONFIG_FILE, outcome: 'created', value };
    }
    const parsed = parseJson(current, { path: CONFIG_FILE }) as Record<string, unknown>;
    const problems = configProblems(parsed);
    if (problems.length > 0) throw new CliError(`${CONFIG_FILE}: ${problems.join('; ')}; fix it, then run init again (nothing was changed)`, { code: 'bad-config', file: CONFIG_FILE });
    const hooks = parsed.hooks as Record<string, unknown> | undefined;
    if (hooks !== undefined && hooks.reasoningFlow === value) return { path: CONFIG_FILE, outcome: 'unchanged', value };
    if (dryRun) return { path: CONFIG_FILE, outcome: 'would-update', value };
    const op: JsonTextOp =
      hooks === undefined ? { op: 'add-member', pointer: '', key: 'hooks', value: { reasoningFlow: value } }
      : 'reasoningFlow' in hooks ? { op: 'replace', pointer: '/hooks/reasoningFlow', value }
      : { op: 'add-member', pointer: '/hooks', key: 'reasoningFlow', value };
    const wanted = { ...parsed, hooks: { ...hooks, reasoningFlow: value } };
    let next: string;
    try {
      next = editJsonText(current, [op]);
      // The in-place edit must mean exactly the intended document; otherwise write it plainly.
      if (JSON.stringify(JSON.parse(next.replace(/^\uFEFF/, ''))) !== JSON.stringify(wanted)) throw new Error('edit mismatch');
    } catch {
      next = `${JSON.stringify(wanted, null, 2)}\n`;
    }
    await writeFileAtomic(file, next);
    return { path: CONFIG_FILE, outcome: 'updated', value };
  };
  return dryRun ? decide() : withLock(file, decide);
}

async function readConfigText(file: string): Promise<string | undefined> {
  try {
    return withBom(await readTextFile(file));
  } catch (err) {
    if (err instanceof NotFoundError) return undefined;
    throw err;
  }
}
