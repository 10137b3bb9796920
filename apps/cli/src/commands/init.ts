import { mkdir, readFile, readdir, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import type { Context } from '../context.js';
import { EXIT_OK } from '../exit-codes.js';
import { withInput } from '../option-values.js';
import { SCAFFOLD } from '../scaffold.js';
import { chooseReasoningFlow } from '../reasoning-choice.js';
import { initInput, type InitInput } from './init-inputs.js';

type Outcome = 'created' | 'would-create' | 'unchanged' | 'kept' | 'skipped';

/** `ratchet init`: add Ratchet's files to the repository at --cwd. Existing files are never touched. */
async function init(ctx: Context, { dryRun, claude: wantClaude, harnesses, reasoningFlow }: InitInput): Promise<number> {
  const results: { path: string; outcome: Outcome; purpose: string }[] = [];
  const ids = await protocolIds(join(ctx.cwd, 'protocols'));
  for (const file of SCAFFOLD) {
    const target = join(ctx.cwd, file.path);
    const content = await file.content();
    const owner = file.protocolBase === undefined ? undefined : ids.get(await shippedProtocolId(file.protocolBase));
    if (owner !== undefined && owner !== `${file.protocolBase}.protocol.json`) {
      // The repository already defines this protocol (the original Jules layout names its files
      // differently): a second source with the same id would only break the compile.
      results.push({ path: file.path, outcome: 'skipped', purpose: `protocols/${owner} already defines this protocol's id` });
      continue;
    }
    const existing = await readFile(target, 'utf8').catch((err: NodeJS.ErrnoException) => {
      if (err.code === 'ENOENT') return undefined;
      throw err;
    });
    let outcome: Outcome;
    if (existing !== undefined) outcome = existing === content ? 'unchanged' : 'kept';
    else if (dryRun) outcome = 'would-create';
    else {
      await mkdir(dirname(target), { recursive: true });
      // 'wx': if something appeared since we looked, leave it alone rather than clobber it.
      try {
        await writeFile(target, content, { flag: 'wx' });
        outcome = 'created';
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
        outcome = 'kept';
      }
    }
    results.push({ path: file.path, outcome, purpose: file.purpose });
  }
  const claude = wantClaude ? await (await import('../claude-settings.js')).wireClaude(ctx.cwd, dryRun, ctx.io.env) : undefined;
  const { setUpHarness } = harnesses.length > 0 ? await import('../harness-setup/index.js') : { setUpHarness: undefined };
  const setups = [];
  for (const harness of harnesses) setups.push(await setUpHarness!(ctx.cwd, harness, dryRun));
  const choice = reasoningFlow === undefined ? undefined : await chooseReasoningFlow(ctx.cwd, reasoningFlow, dryRun);
  if (ctx.json) {
    const harnessJson = setups.map((h) => ({ harness: h.harness, files: h.files, notes: h.notes, boundary: h.info.boundary, trustStep: h.info.trustStep }));
    ctx.emitJson({ ok: true, root: ctx.cwd, dryRun, files: results, ...(claude === undefined ? {} : { claude }), ...(setups.length === 0 ? {} : { harnesses: harnessJson }), ...(choice === undefined ? {} : { reasoningFlow: choice }) });
    return EXIT_OK;
  }
  if (claude !== undefined) {
    const verb = dryRun ? 'would add' : 'added';
    if (claude.plugin) ctx.out(`plugin      the Ratchet plugin is enabled: its hooks and MCP server are used (none added to ${claude.path} or .mcp.json)`);
    else {
      ctx.out(
        claude.added.length === 0
          ? `up to date  ${claude.path}  — Ratchet's Claude Code hooks are already there`
          : `${verb}  ${claude.path}  — hooks for ${claude.added.join(', ')} calling \`ratchet hook <event>\``,
      );
      ctx.out(claude.mcpServer ? `${verb}  .mcp.json  — Ratchet's MCP server (the agent's tools for every state change)` : 'up to date  .mcp.json  — a server named ratchet is already there');
    }
    for (const line of claude.boundary) ctx.out(`${verb}  ${claude.path}  — ${line}`);
    if (claude.boundary.length === 0) ctx.out(`up to date  ${claude.path}  — the sandbox keeps Ratchet's files read-only to the agent's shell`);
    for (const warning of claude.warnings) ctx.note(`warning: ${warning}`);
    if (claude.boundary.some((l) => l.startsWith('sandbox.enabled'))) {
      ctx.note("The sandbox needs bubblewrap and socat on Linux (`sudo apt-get install bubblewrap socat`); nothing on macOS. With failIfUnavailable, Claude Code refuses to run shell commands without it.");
    }
  }
  for (const h of setups) {
    for (const f of h.files) ctx.out(`${HARNESS_LABEL[f.action]}  ${f.path}  — ${h.info.title}: ${f.what}`);
    for (const n of h.notes) ctx.note(n);
    // Said once, when the hooks are new: until this step the harness skips them without a warning.
    if (h.addedHooks && !dryRun) {
      ctx.out(`\nTrust step for ${h.info.title}: ${h.info.trustStep}`);
      ctx.out(
        h.info.boundary === 'sandbox'
          ? `${h.info.title}'s own sandbox keeps Ratchet's state read-only to the agent's commands and file tools; the agent changes it through Ratchet's hooks and MCP server (install @ratchet/mcp-server).`
          : `${h.info.title} has no sandbox Ratchet configures: the agent's shell has your rights. The hooks refuse the writes they see, and Ratchet detects a state file changed behind its back afterwards (\`ratchet doctor\`).`,
      );
    }
  }
  const label: Record<Outcome, string> = {
    created: 'created  ',
    'would-create': 'would create',
    unchanged: 'up to date',
    kept: 'kept (yours differs; not overwritten)',
    skipped: 'skipped (already there)',
  };
  for (const r of results) ctx.out(`${label[r.outcome]}  ${r.path}  — ${r.purpose}`);
  if (choice !== undefined) {
    const what = choice.value === false ? 'hooks.reasoningFlow: false — prompts start no flow' : `hooks.reasoningFlow: "${choice.value}" — every prompt first runs flow ${choice.value} (a prompt starting with "-b " skips it)`;
    ctx.out(`${HARNESS_LABEL[choice.outcome]}  ${choice.path}  — ${what}`);
  }
  if (!dryRun && results.some((r) => r.outcome === 'created')) ctx.out('\nNext: `ratchet protocol compile` writes the protocols into AGENTS.md; `ratchet task start --task-id <id>` starts a task.');
  const kept = results.filter((r) => r.outcome === 'kept').length;
  if (kept > 0) ctx.note(`${kept} existing file${kept === 1 ? '' : 's'} left as they were; compare with \`ratchet init --dry-run --json\`.`);
  return EXIT_OK;
}
export default withInput(initInput, init);

const HARNESS_LABEL: Record<string, string> = {
  created: 'created  ',
  updated: 'updated  ',
  unchanged: 'up to date',
  'would-create': 'would create',
  'would-update': 'would update',
  kept: 'kept (not Ratchet\'s; not overwritten)',
};

/** protocol_id -> file name, for every `*.protocol.json` in the repository's protocols directory that parses. */
async function protocolIds(dir: string): Promise<Map<string, string>> {
  const ids = new Map<string, string>();
  const names = await readdir(dir).catch(() => [] as string[]);
  for (const name of names.filter((n) => n.endsWith('.protocol.json')).sort()) {
    try {
      const value = JSON.parse(await readFile(join(dir, name), 'utf8')) as { protocol_id?: unknown } | null;
      if (typeof value?.protocol_id === 'string' && !ids.has(value.protocol_id)) ids.set(value.protocol_id, name);
    } catch {
      // A source that does not parse defines nothing here; `ratchet protocol compile` reports it with its place.
    }
  }
  return ids;
}

async function shippedProtocolId(base: string): Promise<string> {
  const shipped = SCAFFOLD.find((f) => f.protocolBase === base && f.path.endsWith('.protocol.json'));
  const value = JSON.parse(shipped === undefined ? '{}' : await shipped.content()) as { protocol_id?: unknown };
  return typeof value.protocol_id === 'string' ? value.protocol_id : base;
}
