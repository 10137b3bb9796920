/**
 * PreToolUse: refuse what the current state forbids, naming the `ratchet` command to run instead.
 * 1. Ratchet's state, rules and configuration (protected-paths.ts) are written by `ratchet` only,
 *    whatever the tool and however the path is spelled.
 * 2. Who the agent is belongs to the harness: a shell command that sets RATCHET_ACTOR (or another
 *    variable the command layer trusts), answers a hook by hand, or runs a person's command (`doctor
 *    --accept`, `proposals merge`, ...) is refused. `ratchet` commands get every other check too.
 * 3. No task, flow or campaign claim active: no project file is written but plans and notes
 *    (config `requireTask`, on by default).
 * 4. While the task is ORIENTING, PLANNING or POST_MORTEM, no project file is written except plans
 *    and notes (config `planningWrites`) and, in POST_MORTEM, the post-mortem itself.
 * 5. While a plan executes, tools outside the current step are allowed, noted or denied
 *    (config `strictness`: off | warn | enforce).
 * A state file that cannot be read (edited, vanished, rolled back) denies every write, naming it.
 * These checks read what a command line says; where the OS sandbox is on (`ratchet init --claude`)
 * it is the boundary, and these are the messages the agent sees first.
 */
import { compileGlob } from '@ratchet/plan-lint/glob';
import { StoreError } from '@ratchet/store';
import { currentStep, type Session } from '@ratchet/orchestrator/session-view';
import type { HookAnswer } from './answer.js';
import { effectOf } from '../command-effects.js';
import { protectedEntry } from '../protected-paths.js';
import { bashWrites, pathsIn, simpleCommands } from './bash.js';
import { ConfigError, loadHookConfig, type HookConfig } from './config.js';
import { corruptObligation, readTaskSession } from './obligations.js';
import type { HookPayload } from './payload.js';
import { reasoningWriteGate } from './reasoning-gate.js';
import { insideProject, projectRoot, stateFileOf } from './state-files.js';
import { isRatchetTool } from './ratchet-tools.js';
import { READ_ONLY_TOOLS, stepScope } from './step-tools.js';

const FILE_TOOLS: Record<string, string> = { Write: 'file_path', Edit: 'file_path', MultiEdit: 'file_path', NotebookEdit: 'notebook_path' };
/** Input keys other tools (MCP servers) name files with. */
const PATH_KEY = /^(?:path|paths|file|files|file_?path|filename|notebook_?path|dest(?:ination)?|target|to|from|source|new_?path|old_?path)$/i;
const WRITE_TOOL_NAME = /write|edit|create|delete|remove|move|rename|patch|save|append|replace|mkdir|upload/i;

interface ToolWrites {
  targets: string[];
  /** Words to search for state paths (inline interpreter code). */
  mentions: string[];
  /** A shell command that writes files it does not name (inline code, scripts, git checkout). */
  opaque: boolean;
  /** A shell command made only of `ratchet` calls without redirection (it reports; it writes only through Ratchet). */
  ratchetOnly: boolean;
}

/** The files a tool call writes, as written in its input. */
export function toolWrites(tool: string, input: Record<string, unknown>): ToolWrites {
  const key = FILE_TOOLS[tool];
  if (key !== undefined) return { targets: typeof input[key] === 'string' ? [input[key]] : [], mentions: [], opaque: false, ratchetOnly: false };
  if (tool === 'Bash') {
    const command = typeof input.command === 'string' ? input.command : '';
    const w = bashWrites(command);
    return { targets: w.targets, mentions: w.opaque ? pathsIn(w.opaqueWords) : [], opaque: w.opaque, ratchetOnly: w.ratchetOnly };
  }
  if (READ_ONLY_TOOLS.has(tool) || isRatchetTool(tool) || !WRITE_TOOL_NAME.test(tool)) return { targets: [], mentions: [], opaque: false, ratchetOnly: false };
  const targets: string[] = [];
  for (const [k, v] of Object.entries(input)) {
    if (!PATH_KEY.test(k)) continue;
    if (typeof v === 'string') targets.push(v);
    else if (Array.isArray(v)) targets.push(...v.filter((x): x is string => typeof x === 'string'));
  }
  return { targets, mentions: [], opaque: false, ratchetOnly: false };
}

/** How a state file is changed properly: the `ratchet` commands that own it. */
function stateCommand(rel: string): string | undefined {
  const key = rel.toLowerCase();
  if (key === '.ratchet/session.json') return 'run `ratchet run status` and the task/run command it names';
  if (key.startsWith('.ratchet/flows/')) return 'run `ratchet flow status --session <id>` and the flow command it names';
  if (key.startsWith('.ratchet/campaign') || key.startsWith('.ratchet/workspace') || key.startsWith('.ratchet/archive')) return 'use `ratchet campaign update-task <seq> <status>` or `ratchet workspace ...`';
  if (key.startsWith('.ratchet/goals')) return 'use `ratchet goals ...`, `ratchet actions ...` or `ratchet turn commit`';
  if (key.startsWith('.ratchet/memory')) return 'use `ratchet memory add-failure|add-pattern|feedback`';
  if (key.endsWith('lessons.jsonl')) return 'use `ratchet lessons extract|apply`';
  if (key.endsWith('plan_registry.json')) return 'use `ratchet plan registry register|deregister`';
  if (key.endsWith('activity.log.jsonl')) return 'every `ratchet` command logs its own action (`ratchet run done` for a step)';
  if (key.endsWith('action_types.json')) return 'file a proposal with `ratchet proposals submit` (a user reviews and merges it)';
  return undefined;
}

const KIND_PHRASE = { state: 'Ratchet state', rules: 'one of the rule files Ratchet enforces', config: "the configuration that holds Ratchet's rails" } as const;

function denyState(rel: string): HookAnswer {
  const entry = protectedEntry(rel);
  const what = entry === undefined ? 'Ratchet state' : KIND_PHRASE[entry.kind];
  const how = stateCommand(rel) ?? entry?.how ?? 'use the `ratchet` command that owns it (`ratchet --help`)';
  return { kind: 'deny', reason: `Ratchet: ${rel} is ${what}; only Ratchet writes it (a hand edit would walk around its gates). Instead, ${how}.` };
}

/** Variables the command layer trusts to say who is acting and through which channel. */
const IDENTITY = /\b(?:RATCHET_ACTOR|RATCHET_VIA|RATCHET_TOOL_USE_ID|SANDBOX_RUNTIME|CLAUDECODE)\b/;

/**
 * A shell command that tries to be someone else: sets or unsets the identity variables, answers a
 * hook by hand (a fake Stop would spend the Stop budget), or runs a person's command.
 */
function impersonation(command: string): string | undefined {
  if (IDENTITY.test(command)) return 'who is acting is set by the harness (RATCHET_ACTOR and its kin are not the agent\'s to change)';
  for (const cmd of simpleCommands(command)) {
    if (!cmd.ratchet) continue;
    const words = cmd.words.slice(cmd.words.findIndex((w) => /(?:^|\/)ratchet(?:\.js)?$|^@ratchet\/cli/.test(w)) + 1);
    const positional = words.filter((w) => !w.startsWith('-'));
    if (positional[0] === 'hook') return '`ratchet hook` answers the harness, not the agent';
    const options: Record<string, unknown> = {};
    words.forEach((w, i) => {
      const m = /^--([a-z][a-z-]*)(?:=(.*))?$/.exec(w);
      if (m === null) return;
      const next = words[i + 1];
      // `--as user` as well as `--as=user`; a flag followed by another option is a switch.
      options[m[1]!.replace(/-([a-z])/g, (_, c: string) => c.toUpperCase())] = m[2] ?? (next !== undefined && !next.startsWith('-') ? next : true);
    });
    for (const n of [3, 2, 1]) {
      const path = positional.slice(0, n).join(' ');
      const { effect } = effectOf(path, options);
      if (effect === 'user') return `\`ratchet ${path}\`${options.accept !== undefined || options.restore !== undefined ? ' --accept/--restore' : ''} is a person's decision, run from their own terminal`;
    }
  }
  return undefined;
}

const PLANNING_STATES = new Set(['ORIENTING', 'PLANNING', 'POST_MORTEM', 'SELF_CORRECTING']);
/** Self-correction: the post-mortem is the one project file the agent writes (lessons and protocols change through `ratchet lessons`). */
const POST_MORTEM_STATES = new Set(['POST_MORTEM', 'SELF_CORRECTING']);

function phaseReason(session: Session): string {
  const id = session.taskId;
  if (session.state === 'ORIENTING') return `task ${id} is ORIENTING: no project file is written before orientation finishes. Run \`ratchet task start --task-id ${id}\`.`;
  if (session.state === 'PLANNING') return `task ${id} is PLANNING: no project file is written before a plan is accepted. Write the plan under plans/ and run \`ratchet run plan <plan-file>\`, then execute it step by step with \`ratchet run next\`.`;
  const pm = session.postMortem?.path ?? `postmortems/${id}.md`;
  return `task ${id} is ${session.state}: only the post-mortem ${pm} may be written now. Fill it in, extract and apply its lessons (\`ratchet lessons extract ${pm}\`, \`ratchet lessons apply\`), then run \`ratchet task submit --task-id ${id}\`.`;
}

export function preToolUse(root: string, payload: HookPayload, active: (session: Session | undefined) => boolean = () => true): HookAnswer {
  const tool = payload.toolName ?? '';
  const cwd = payload.cwd ?? root;
  const writes = toolWrites(tool, payload.toolInput);
  const project = projectRoot(root);

  // 1. State, rules and configuration, by any tool. Each distinct path once, directories resolved once (a long command
  // can name a hundred thousand files).
  const dirs = new Map<string, string>();
  for (const target of new Set([...writes.targets, ...writes.mentions])) {
    const rel = stateFileOf(project, cwd, target, dirs);
    if (rel !== undefined) return denyState(rel);
  }
  // 2. The agent's identity and a person's commands.
  if (tool === 'Bash' && typeof payload.toolInput.command === 'string') {
    const why = impersonation(payload.toolInput.command);
    if (why !== undefined) return { kind: 'deny', reason: `Ratchet: refused: ${why}.` };
  }
  if (writes.targets.length === 0 && (READ_ONLY_TOOLS.has(tool) || isRatchetTool(tool))) return { kind: 'none' };
  /** A shell command that names no file it writes and runs no opaque code: it may read and report. */
  const looksReadOnly = tool === 'Bash' && writes.targets.length === 0 && !writes.opaque;

  let config: HookConfig;
  let session: Session | undefined;
  try {
    config = loadHookConfig(root);
    session = readTaskSession(root);
  } catch (err) {
    // A shell that only looks (`ratchet doctor`, `ratchet run status`) may see what is broken.
    if (looksReadOnly || (writes.targets.length === 0 && tool !== 'Bash')) return { kind: 'none' };
    if (err instanceof ConfigError) return { kind: 'deny', reason: `Ratchet: ${err.message}. Nothing is written until the project config is repaired (ask the user).` };
    if (err instanceof StoreError) {
      const o = corruptObligation(root, err);
      return { kind: 'deny', reason: `Ratchet: ${o.what}. Nothing is written until it is repaired: ${o.command}.` };
    }
    throw err;
  }

  // 3. No task, flow or claim: nothing but plans and notes.
  if ((session === undefined || session.state === 'START' || session.state === 'DONE') && config.requireTask && !looksReadOnly && !active(session)) {
    // This session's reasoning flow (open, halted, or routed to a flow not started yet) says more
    // precisely what to do next than "start a task".
    const reasoning = reasoningWriteGate(root, project, cwd, payload.sessionId, tool, writes.targets, config);
    if (reasoning !== undefined) return reasoning;
    const allowed = config.planningWrites.map((g) => compileGlob(g));
    for (const target of writes.targets.length > 0 ? writes.targets : [undefined]) {
      const rel = target === undefined ? undefined : insideProject(project, cwd, target);
      if (rel === '' || (target !== undefined && rel === undefined)) continue;
      if (rel !== undefined && allowed.some((re) => re.test(rel))) continue;
      const what = rel === undefined ? `${tool} (it may write files)` : `${tool} of ${rel}`;
      return {
        kind: 'deny',
        reason:
          `Ratchet: ${what} refused: no task is active. Start one first: \`ratchet task start --task-id <id>\` (MCP tool task_start), ` +
          `or claim campaign work (\`ratchet campaign ready --claim <runner>\`), or start a flow. Plans and notes may be written now (${config.planningWrites.slice(0, 3).join(', ')}, ...).`,
      };
    }
    return { kind: 'none' };
  }

  // 4. No writes before the plan is accepted (or while the post-mortem is due).
  if (session !== undefined && PLANNING_STATES.has(session.state)) {
    const allowed = config.planningWrites.map((g) => compileGlob(g));
    for (const target of writes.targets) {
      const rel = insideProject(project, cwd, target);
      if (rel === undefined || rel === '') continue;
      if (POST_MORTEM_STATES.has(session.state) && rel === (session.postMortem?.path ?? `postmortems/${session.taskId}.md`)) continue;
      if (!POST_MORTEM_STATES.has(session.state) && allowed.some((re) => re.test(rel))) continue;
      return { kind: 'deny', reason: `Ratchet: ${tool} of ${rel} refused: ${phaseReason(session)}` };
    }
    return { kind: 'none' };
  }

  // 4a. No writes while this session's reasoning flow is open, or before the flow it routed to starts.
  const reasoning = reasoningWriteGate(root, project, cwd, payload.sessionId, tool, writes.targets, config);
  if (reasoning !== undefined) return reasoning;
  if (session === undefined) return { kind: 'none' };

  // 5. While a plan executes: the tool must belong to the current step (reporting with `ratchet` belongs to every step).
  if (session.state !== 'EXECUTING' || config.strictness === 'off') return { kind: 'none' };
  const step = currentStep(session);
  if (step === undefined || READ_ONLY_TOOLS.has(tool) || isRatchetTool(tool) || writes.ratchetOnly) return { kind: 'none' };
  const scope = stepScope(root, step.line);
  let fits: boolean;
  if (scope.allows === 'anything') fits = true;
  else if (scope.allows === 'bash') fits = tool === 'Bash';
  else if (scope.allows === 'write-path') {
    const own = insideProject(project, root, scope.path!);
    fits = writes.targets.length > 0 && writes.targets.every((t) => insideProject(project, cwd, t) === own);
  } else fits = false;
  if (fits) return { kind: 'none' };
  const message = `the current plan step is \`${step.line}\` (${step.planPath}, step ${step.index + 1}); ${tool}${writes.targets.length > 0 ? ` of ${writes.targets.join(', ')}` : ''} does not belong to it. Do the step, then \`ratchet run done\`; see it with \`ratchet run next\`.`;
  if (config.strictness === 'enforce') return { kind: 'deny', reason: `Ratchet: ${message}` };
  return { kind: 'note', event: 'pre-tool-use', context: `Ratchet (warning): ${message}` };
}
