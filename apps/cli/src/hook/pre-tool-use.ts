/**
 * PreToolUse: refuse what the current state forbids, naming the `ratchet` command to run instead.
 * 1. Ratchet's state is written by `ratchet` only, whatever the tool and however the path is spelled.
 * 2. While the task is ORIENTING, PLANNING or POST_MORTEM, no project file is written except plans
 *    and notes (config `planningWrites`) and, in POST_MORTEM, the post-mortem itself.
 * 3. While a plan executes, tools outside the current step are allowed, noted or denied
 *    (config `strictness`: off | warn | enforce).
 * A state file that cannot be read denies every write, naming the file and place.
 */
import { compileGlob } from '@ratchet/plan-lint/glob';
import { StoreError } from '@ratchet/store';
import { currentStep, type Session } from '@ratchet/orchestrator/session-view';
import type { HookAnswer } from './answer.js';
import { bashWrites, pathsIn } from './bash.js';
import { ConfigError, loadHookConfig, type HookConfig } from './config.js';
import { corruptObligation, readTaskSession } from './obligations.js';
import type { HookPayload } from './payload.js';
import { insideProject, projectRoot, stateFileOf } from './state-files.js';
import { READ_ONLY_TOOLS, stepScope } from './step-tools.js';

const FILE_TOOLS: Record<string, string> = { Write: 'file_path', Edit: 'file_path', MultiEdit: 'file_path', NotebookEdit: 'notebook_path' };
/** Input keys other tools (MCP servers) name files with. */
const PATH_KEY = /^(?:path|paths|file|files|file_?path|filename|notebook_?path|dest(?:ination)?|target|to|from|source|new_?path|old_?path)$/i;
const WRITE_TOOL_NAME = /write|edit|create|delete|remove|move|rename|patch|save|append|replace|mkdir|upload/i;

interface ToolWrites {
  targets: string[];
  /** Words to search for state paths (inline interpreter code). */
  mentions: string[];
  /** A Bash command made only of `ratchet` calls. */
  ratchetOnly: boolean;
}

/** The files a tool call writes, as written in its input. */
export function toolWrites(tool: string, input: Record<string, unknown>): ToolWrites {
  const key = FILE_TOOLS[tool];
  if (key !== undefined) return { targets: typeof input[key] === 'string' ? [input[key]] : [], mentions: [], ratchetOnly: false };
  if (tool === 'Bash') {
    const command = typeof input.command === 'string' ? input.command : '';
    const w = bashWrites(command);
    return { targets: w.targets, mentions: w.opaque ? pathsIn(w.opaqueWords) : [], ratchetOnly: w.ratchetOnly };
  }
  if (READ_ONLY_TOOLS.has(tool) || tool.startsWith('mcp__ratchet__') || !WRITE_TOOL_NAME.test(tool)) return { targets: [], mentions: [], ratchetOnly: false };
  const targets: string[] = [];
  for (const [k, v] of Object.entries(input)) {
    if (!PATH_KEY.test(k)) continue;
    if (typeof v === 'string') targets.push(v);
    else if (Array.isArray(v)) targets.push(...v.filter((x): x is string => typeof x === 'string'));
  }
  return { targets, mentions: [], ratchetOnly: false };
}

/** How a state file is changed properly: the `ratchet` commands that own it. */
function stateCommand(rel: string): string {
  const key = rel.toLowerCase();
  if (key === '.ratchet/session.json') return 'run `ratchet run status` and the task/run command it names';
  if (key.startsWith('.ratchet/flows/')) return 'run `ratchet flow status --session <id>` and the flow command it names';
  if (key.startsWith('.ratchet/campaign') || key.startsWith('.ratchet/workspace') || key.startsWith('.ratchet/archive')) return 'use `ratchet campaign update-task <seq> <status>` or `ratchet workspace ...`';
  if (key.startsWith('.ratchet/goals')) return 'use `ratchet goals ...`, `ratchet actions ...` or `ratchet turn commit`';
  if (key.startsWith('.ratchet/memory')) return 'use `ratchet memory add-failure|add-pattern|feedback`';
  if (key.endsWith('lessons.jsonl')) return 'use `ratchet lessons extract|apply|resolve`';
  if (key.endsWith('plan_registry.json')) return 'use `ratchet plan registry register|deregister`';
  if (key.endsWith('activity.log.jsonl')) return 'every `ratchet` command logs its own action (`ratchet run done` for a step)';
  if (key.endsWith('action_types.json')) return 'file a proposal with `ratchet proposals submit` (a user reviews and merges it)';
  if (/\.log\.md(\.lock)?$/.test(key)) return 'use `ratchet jixo lock|task|log|unlock`';
  if (key === 'ratchet.config.json' || key.startsWith('.claude/settings')) return 'ask the user: the project config and its hooks are theirs to change';
  return 'use the `ratchet` command that owns it (`ratchet --help`)';
}

function denyState(rel: string): HookAnswer {
  return { kind: 'deny', reason: `Ratchet: ${rel} is Ratchet state; only \`ratchet\` writes it (a hand edit would walk around its gates). Instead, ${stateCommand(rel)}.` };
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

export function preToolUse(root: string, payload: HookPayload): HookAnswer {
  const tool = payload.toolName ?? '';
  const cwd = payload.cwd ?? root;
  const writes = toolWrites(tool, payload.toolInput);
  const project = projectRoot(root);

  // 1. State files, by any tool.
  for (const target of [...writes.targets, ...writes.mentions]) {
    const rel = stateFileOf(project, cwd, target);
    if (rel !== undefined) return denyState(rel);
  }
  if (writes.ratchetOnly || (writes.targets.length === 0 && READ_ONLY_TOOLS.has(tool))) return { kind: 'none' };

  let config: HookConfig;
  let session: Session | undefined;
  try {
    config = loadHookConfig(root);
    session = readTaskSession(root);
  } catch (err) {
    if (writes.targets.length === 0 && tool !== 'Bash') return { kind: 'none' };
    if (err instanceof ConfigError) return { kind: 'deny', reason: `Ratchet: ${err.message}. Nothing is written until the project config is repaired (ask the user).` };
    if (err instanceof StoreError) {
      const o = corruptObligation(root, err);
      return { kind: 'deny', reason: `Ratchet: ${o.what}. Nothing is written until it is repaired: ${o.command}.` };
    }
    throw err;
  }
  if (session === undefined) return { kind: 'none' };

  // 2. No writes before the plan is accepted (or while the post-mortem is due).
  if (PLANNING_STATES.has(session.state)) {
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

  // 3. While a plan executes: the tool must belong to the current step.
  if (session.state !== 'EXECUTING' || config.strictness === 'off') return { kind: 'none' };
  const step = currentStep(session);
  if (step === undefined || READ_ONLY_TOOLS.has(tool) || tool.startsWith('mcp__ratchet__')) return { kind: 'none' };
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
  return { kind: 'note', event: 'PreToolUse', context: `Ratchet (warning): ${message}` };
}
