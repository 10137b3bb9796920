/**
 * `run done` checks a step's effect on disk before it is recorded: the project's dialect says which
 * commands create, write, edit, delete or move a file and which argument names it (`effect`,
 * `path`, `to`). A created/written/edited file must exist, a deleted one must be gone, a moved one
 * must be at its destination and gone from its source. Anything else cannot be observed and stays
 * on trust (the activity log says which).
 */
import { existsSync } from 'node:fs';
import { actionFor } from '@ratchet/plan-lint';
import { resolveInsideRoot } from '@ratchet/store';
import type { Context } from './context.js';
import { loadProjectDialect } from './plan-project.js';

export type StepEffect = { verified: 'disk'; effect: string } | { verified: 'trust' } | { verified: 'refused'; effect: string; problem: string };

export function checkStepEffect(ctx: Context, line: string): StepEffect {
  const space = line.search(/\s/);
  const name = space < 0 ? line : line.slice(0, space);
  const raw = space < 0 ? '' : line.slice(space).trim();
  const command = loadProjectDialect(ctx).commands.get(name);
  if (command === undefined) return { verified: 'trust' };
  const action = actionFor(command, raw);
  const args = raw === '' ? [] : raw.split(/\s+/);
  const effect = action.effect;
  const path = action.path !== undefined ? args[action.path] : undefined;
  if (effect === undefined || effect === 'read' || path === undefined) return { verified: 'trust' };
  const exists = (p: string): boolean => {
    try {
      return existsSync(resolveInsideRoot(ctx.cwd, p));
    } catch {
      return false; // outside the project: lint refused it; nothing there counts
    }
  };
  const refuse = (problem: string): StepEffect => ({ verified: 'refused', effect, problem });
  switch (effect) {
    case 'create':
    case 'write':
    case 'edit':
      return exists(path) ? { verified: 'disk', effect } : refuse(`${path} does not exist`);
    case 'delete':
      return exists(path) ? refuse(`${path} still exists`) : { verified: 'disk', effect };
    case 'move': {
      const to = action.to !== undefined ? args[action.to] : undefined;
      if (to === undefined) return { verified: 'trust' };
      const problems = [...(exists(to) ? [] : [`${to} does not exist`]), ...(exists(path) ? [`${path} still exists`] : [])];
      return problems.length > 0 ? refuse(problems.join(' and ')) : { verified: 'disk', effect };
    }
    default:
      return { verified: 'trust' };
  }
}
