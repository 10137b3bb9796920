/** Shell completion scripts generated from the command tree (`ratchet completion <shell>`). */
import type { Command } from 'commander';
import { bashScript } from './bash.js';
import { fishScript } from './fish.js';
import { completionTree } from './tree.js';
import { zshScript } from './zsh.js';

export const SHELLS = ['bash', 'zsh', 'fish'] as const;
export type Shell = (typeof SHELLS)[number];

export function completionScript(program: Command, shell: Shell): string {
  const tree = completionTree(program);
  return shell === 'bash' ? bashScript(tree) : shell === 'zsh' ? zshScript(tree) : fishScript(tree);
}

export { completionTree, type CompletionTree, type CompletionNode, type CompletionOption } from './tree.js';
