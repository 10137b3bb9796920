/**
 * Which tool calls belong to the plan step being executed. The step's command is looked up in the
 * project's dialect (raw data: its `effect`, `path` and `symbol`; the FSM is not needed here): a
 * file step allows writing its own file, a shell step allows Bash, a read step allows reading.
 * Reading, and `ratchet` itself, always belong (an agent must be able to look and to report).
 */
import { join } from 'node:path';
import { readJsonFileSync } from '@ratchet/store';
import { assetPath } from '../paths.js';
import { ruleFile } from '../rule-pins.js';
import { DEFAULT_DIALECT } from '../project-files.js';

export interface StepScope {
  /** The step as written. */
  line: string;
  /** Tools the step allows beyond reading. */
  allows: 'nothing' | 'bash' | 'write-path' | 'anything';
  /** For write-path: the file it writes (project-relative, as the plan names it). */
  path?: string;
}

interface RawCommand {
  symbol?: unknown;
  effect?: unknown;
  path?: unknown;
}

/** Tools that only read or talk: they belong to every step. */
export const READ_ONLY_TOOLS = new Set(['Read', 'Glob', 'Grep', 'LS', 'NotebookRead', 'WebFetch', 'WebSearch', 'TodoWrite', 'Task', 'Agent', 'BashOutput', 'KillShell', 'ExitPlanMode', 'ListMcpResourcesTool', 'ReadMcpResourceTool', 'AskUserQuestion', 'Skill', 'SlashCommand']);

function dialectCommands(root: string): Record<string, RawCommand> {
  const own = ruleFile(root, join(root, DEFAULT_DIALECT));
  const file = own.exists ? own.path : assetPath('protocols', 'fdc.dialect.json');
  try {
    const commands = (readJsonFileSync(file, { maxBytes: 1024 * 1024 }).value as { commands?: unknown }).commands;
    return typeof commands === 'object' && commands !== null ? (commands as Record<string, RawCommand>) : {};
  } catch {
    // plan lint reports a broken dialect; here it only means the step cannot be judged.
    return {};
  }
}

export function stepScope(root: string, line: string): StepScope {
  const words = line.trim().split(/\s+/);
  const name = words[0] ?? '';
  const commands = dialectCommands(root);
  const command = Object.hasOwn(commands, name) ? commands[name] : undefined;
  if (command === undefined) return { line, allows: 'anything' };
  const effect = command.effect;
  if ((effect === 'create' || effect === 'write' || effect === 'edit') && typeof command.path === 'number') {
    const path = words[1 + command.path];
    return path === undefined ? { line, allows: 'anything' } : { line, allows: 'write-path', path };
  }
  if (effect === 'delete' || effect === 'move' || command.symbol === 'tool_exec') return { line, allows: 'bash' };
  return { line, allows: 'nothing' };
}
