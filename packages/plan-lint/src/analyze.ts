/**
 * `analyzePlan`: the seed's complexity classes and modality, following sub-plans.
 * loopDepth = the deepest for_each_file nesting on any path (a call inside a loop at depth d to a
 * plan of depth k counts d + k). 0 -> Constant (O(1)), 1 -> Polynomial (P), >= 2 -> Exponential
 * (EXPTIME). Read-Write when any reachable command has a create/write/edit/delete/move effect.
 */
import type { FileView } from './sim-fs.js';
import { DEFAULT_MAX_DEPTH } from '@ratchet/fsm-core';
import { actionFor, WRITE_EFFECTS, type Dialect } from './dialect.js';
import type { PlanHost } from './lint.js';
import { parsePlan } from './parse.js';
import { normalizeRelative } from './paths.js';
import type { Plan, PlanNode } from './plan.js';
import { resolveCall, type PlanRegistry } from './resolve-call.js';

export type Complexity = 'Constant' | 'Polynomial' | 'Exponential';
export type Modality = 'Read-Only' | 'Read-Write';

export interface AnalyzeOptions {
  entry: string;
  host: PlanHost;
  dialect: Dialect;
  registry?: PlanRegistry;
  maxDepth?: number;
  /** Accepted (and ignored) so lint options can be passed as they are. */
  root?: string;
  files?: Iterable<string> | FileView;
  machine?: unknown;
}

export interface Analysis {
  complexity: Complexity;
  loopDepth: number;
  modality: Modality;
  /** Every plan the analysis read, entry first, then in call order. */
  plans: string[];
  /**
   * Plans a call reaches that could not be read, with why (missing, or refused: a path or a link
   * leading out of the project): the figures above leave them out, so they are not complete.
   */
  unread: { path: string; reason: string }[];
}

export function complexityOf(loopDepth: number): Complexity {
  return loopDepth === 0 ? 'Constant' : loopDepth === 1 ? 'Polynomial' : 'Exponential';
}

export function analyzePlan(options: AnalyzeOptions): Analysis {
  const { host, dialect, registry } = options;
  const maxDepth = options.maxDepth ?? DEFAULT_MAX_DEPTH;
  const entry = normalizeRelative(options.entry) ?? options.entry;
  const plans = new Map<string, Plan | null>();
  const unread: { path: string; reason: string }[] = [];
  const memo = new Map<string, { loopDepth: number; writes: boolean }>();
  const load = (path: string): Plan | null => {
    if (!plans.has(path)) {
      const text = host.readPlan(path);
      plans.set(path, typeof text === 'string' ? parsePlan(text, path).plan : null);
      if (typeof text !== 'string') unread.push({ path, reason: text === undefined ? 'no such plan file' : text.refused });
    }
    return plans.get(path)!;
  };

  // Recursion only follows call_plan edges (bounded by maxDepth); a plan's lines are walked with an explicit stack.
  const visit = (path: string, active: string[]): { loopDepth: number; writes: boolean } => {
    const cached = memo.get(path);
    if (cached) return cached;
    const plan = load(path);
    const info = { loopDepth: 0, writes: false };
    if (plan === null) return info;
    const stack: { nodes: PlanNode[]; depth: number }[] = [{ nodes: plan.body, depth: 0 }];
    while (stack.length > 0) {
      const { nodes, depth } = stack.pop()!;
      for (const node of nodes) {
        if (node.kind === 'for_each_file') {
          info.loopDepth = Math.max(info.loopDepth, depth + 1);
          stack.push({ nodes: node.body, depth: depth + 1 });
        } else if (node.kind === 'command') {
          if (!info.writes) {
            const c = dialect.commands.get(node.name);
            const effect = c && actionFor(c, node.raw).effect;
            if (effect !== undefined && WRITE_EFFECTS.has(effect)) info.writes = true;
          }
        } else {
          const r = resolveCall(node.target, registry);
          if (!r.ok || active.includes(r.path) || active.length >= maxDepth) continue;
          const sub = visit(r.path, [...active, r.path]);
          info.loopDepth = Math.max(info.loopDepth, depth + sub.loopDepth);
          info.writes ||= sub.writes;
        }
      }
    }
    memo.set(path, info);
    return info;
  };
  const { loopDepth, writes } = visit(entry, [entry]);
  return {
    complexity: complexityOf(loopDepth),
    loopDepth,
    modality: writes ? 'Read-Write' : 'Read-Only',
    plans: [...plans.entries()].filter(([, p]) => p !== null).map(([k]) => k),
    unread,
  };
}
