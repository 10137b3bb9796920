/**
 * `lintPlan`: run every rule over a plan and the sub-plans it calls. Pure: plan text comes from the
 * injected `host.readPlan`, the file system is simulated from `files` (a Set, mutated in place as
 * the plan creates, deletes and moves files). The walk is iterative (explicit stacks for blocks
 * and call frames), so plan length and nesting never touch the JS call stack; fsm-core's pushdown
 * `start`/`step` decides the call depth limit and the call chain.
 */
import { DEFAULT_MAX_DEPTH, nextSymbols, start, step, type Machine, type RunSnapshot } from '@ratchet/fsm-core';
import { actionFor, commandsForSymbol, type Dialect, type DialectAction } from './dialect.js';
import { RULES, sortFindings, type CallSite, type Finding, type RuleId } from './findings.js';
import { matchGlob } from './glob.js';
import { parsePlan, type ParseResult } from './parse.js';
import { normalizeRelative } from './paths.js';
import { PLACEHOLDER, type CommandNode, type ForEachNode, type Plan, type PlanNode } from './plan.js';
import { resolveCall, type PlanRegistry } from './resolve-call.js';

/** A plan the host will not read: it exists, but resolves outside the project (a symbolic link). */
export interface PlanRefusal {
  refused: string;
}

export interface PlanHost {
  /**
   * The text of a plan file (project-relative path), undefined when there is no such file, or a
   * refusal (with the reason) when the path leads out of the project root on disk.
   */
  readPlan(relPath: string): string | undefined | PlanRefusal;
}

export interface LintOptions {
  /** Project-relative path of the plan to lint. */
  entry: string;
  /** Absolute project root (for the shell and the formatters; the core resolves paths lexically). */
  root: string;
  host: PlanHost;
  /** Project-relative paths of the files that exist before the plan runs. */
  files: Iterable<string>;
  machine: Machine;
  dialect: Dialect;
  /** Plan registry: logical name -> project-relative path. */
  registry?: PlanRegistry;
  /** Maximum call frames, the entry plan included. Default fsm-core's DEFAULT_MAX_DEPTH (10). */
  maxDepth?: number;
  /**
   * Most simulated steps (commands, calls and loop iterations, with every for_each_file match and
   * every call_plan expanded) before lint stops with `plan-too-large`. Default DEFAULT_MAX_STEPS.
   * Nested loops over a big tree, or plans that each call the next several times, grow
   * exponentially: without a bound, lint of a ten-line plan could run for days.
   */
  maxSteps?: number;
}

/** Five million simulated steps: a few seconds of lint, five times the longest plan the benchmark lints. */
export const DEFAULT_MAX_STEPS = 5_000_000;

export interface LintResult {
  findings: Finding[];
}

type Cursor =
  | { kind: 'body'; nodes: PlanNode[]; i: number; binding: string | undefined }
  | { kind: 'loop'; node: ForEachNode; matches: string[]; m: number };

interface Frame {
  plan: Plan;
  state: number;
  /** Set after the first FSM rejection: the rest of this plan's sequence would only cascade. */
  dead: boolean;
  snapshot: RunSnapshot;
  cursors: Cursor[];
  chain: string[] | undefined;
  callSites: CallSite[] | undefined;
}

export function lintPlan(options: LintOptions): LintResult {
  const { host, machine, dialect, registry } = options;
  const entry = normalizeRelative(options.entry) ?? options.entry;
  const findings: Finding[] = [];
  const seen = new Set<string>();
  const parsed = new Map<string, ParseResult | PlanRefusal | null>();
  const machineId = machine.id ?? dialect.id;
  const machines = new Map([[machineId, machine]]);
  const width = machine.alphabet.length;
  const table = machine.table;

  const fs = new Set<string>();
  for (const f of options.files) {
    const p = normalizeRelative(f);
    if (p !== undefined) fs.add(p);
  }
  const gone = new Map<string, string>();

  const report = (frame: Frame | undefined, ruleId: RuleId, file: string, line: number, column: number, message: string, extra?: Pick<Finding, 'chain' | 'callSites'>): void => {
    const chain = extra?.chain ?? frame?.chain;
    const callSites = extra?.callSites ?? frame?.callSites;
    const key = `${ruleId}\0${file}\0${line}\0${column}\0${message}\0${chain?.join('\0') ?? ''}`;
    if (seen.has(key)) return;
    seen.add(key);
    const f: Finding = { ruleId, severity: RULES[ruleId].severity, message, file, line, column };
    if (chain !== undefined) f.chain = chain;
    if (callSites !== undefined) f.callSites = callSites;
    findings.push(f);
  };

  const load = (path: string): ParseResult | PlanRefusal | null => {
    let r = parsed.get(path);
    if (r === undefined) {
      const text = host.readPlan(path);
      r = text === undefined ? null : typeof text === 'string' ? parsePlan(text, path) : text;
      parsed.set(path, r);
    }
    return r;
  };

  const frames: Frame[] = [];
  const enter = (result: ParseResult, snapshot: RunSnapshot, chain: string[] | undefined, callSites: CallSite[] | undefined): void => {
    const frame: Frame = { plan: result.plan, state: machine.startId, dead: false, snapshot, cursors: [{ kind: 'body', nodes: result.plan.body, i: 0, binding: undefined }], chain, callSites };
    for (const d of result.diagnostics) report(frame, d.ruleId, d.file, d.line, d.column, d.message);
    if (result.plan.body.length === 0) report(frame, 'empty-plan', result.plan.file, 1, 1, 'the plan has no commands');
    frames.push(frame);
  };

  const root = load(entry);
  if (root === null || 'refused' in root) {
    if (root === null) report(undefined, 'call-plan-not-found', entry, 1, 1, `plan file ${JSON.stringify(entry)} not found`);
    else report(undefined, 'call-plan-outside-root', entry, 1, 1, root.refused);
    return { findings };
  }
  enter(root, start(machine, { id: machineId, label: entry, maxDepth: options.maxDepth ?? DEFAULT_MAX_DEPTH }), undefined, undefined);

  const fileArg = (frame: Frame, node: CommandNode, index: number, binding: string | undefined): string | undefined => {
    const arg = node.args[index];
    if (arg === undefined) {
      report(frame, 'malformed-line', frame.plan.file, node.line, node.column, `${node.name} needs a file as argument ${index + 1}`);
      return undefined;
    }
    const value = binding !== undefined && arg.includes(PLACEHOLDER) ? arg.split(PLACEHOLDER).join(binding) : arg;
    // An unbound {file} was reported by the parser (unbound-placeholder); do not pile on.
    if (binding === undefined && arg.includes(PLACEHOLDER)) return undefined;
    const path = normalizeRelative(value);
    if (path === undefined) report(frame, 'path-outside-root', frame.plan.file, node.line, argColumn(node, index), `${node.name}: ${JSON.stringify(value)} is outside the project root`);
    return path;
  };

  const missing = (frame: Frame, node: CommandNode, p: string, index: number): void => {
    const why = gone.get(p);
    report(frame, 'file-not-found', frame.plan.file, node.line, argColumn(node, index), `${node.name}: ${JSON.stringify(p)} does not exist at this point of the plan${why === undefined ? '' : ` (${why})`}`);
  };

  const effect = (frame: Frame, node: CommandNode, action: DialectAction, binding: string | undefined): void => {
    const file = frame.plan.file;
    const index = action.path!;
    const p = fileArg(frame, node, index, binding);
    if (p === undefined) return;
    switch (action.effect) {
      case 'read':
      case 'edit':
        if (!fs.has(p)) missing(frame, node, p, index);
        break;
      case 'delete':
        if (!fs.delete(p)) missing(frame, node, p, index);
        gone.set(p, `deleted at ${file}:${node.line}`);
        break;
      case 'create':
        if (fs.has(p)) report(frame, 'file-exists', file, node.line, argColumn(node, index), `${node.name}: ${JSON.stringify(p)} already exists at this point of the plan`);
        else fs.add(p);
        break;
      case 'write':
        fs.add(p);
        break;
      case 'move': {
        const to = fileArg(frame, node, action.to!, binding);
        if (!fs.has(p)) missing(frame, node, p, index);
        if (to === undefined) return;
        if (fs.has(to)) report(frame, 'file-exists', file, node.line, argColumn(node, action.to!), `${node.name}: the destination ${JSON.stringify(to)} already exists at this point of the plan`);
        fs.delete(p);
        gone.set(p, `moved to ${to} at ${file}:${node.line}`);
        fs.add(to);
        break;
      }
      default:
        break;
    }
  };

  const legal = (frame: Frame): string => {
    const names = nextSymbols(machine, machine.states[frame.state]!).flatMap((s) => commandsForSymbol(dialect, s));
    return names.length === 0 ? 'no command is allowed here' : `expected one of: ${names.join(', ')}`;
  };

  const tooLarge = (frame: Frame, node: PlanNode, max: number): void => {
    report(
      frame,
      'plan-too-large',
      frame.plan.file,
      node.line,
      node.column,
      `simulating this plan takes more than ${max.toLocaleString('en-US')} steps (every for_each_file match and call_plan expanded); lint stopped here, the rest is unchecked. Nest fewer loops, narrow the globs, or call fewer sub-plans`,
    );
  };

  const finish = (frame: Frame): void => {
    const { plan } = frame;
    const last = plan.body[plan.body.length - 1];
    if (last === undefined) return;
    const closeNames = commandsForSymbol(dialect, dialect.close).join(' or ');
    let closed = false;
    if (last.kind === 'command') {
      const c = dialect.commands.get(last.name);
      closed = c !== undefined && actionFor(c, last.raw).symbol === dialect.close;
    }
    if (!closed) {
      const what = last.kind === 'command' ? last.name : last.kind;
      report(frame, 'closure-mandate', plan.file, last.line, last.column, `the plan must end with the close command (${closeNames}); it ends with ${what}`);
    } else if (!frame.dead && machine.accepting[frame.state] !== 1) {
      report(frame, 'fsm-adherence', plan.file, last.line, last.column, `the plan ends in state ${machine.states[frame.state]!}, which is not an accept state`);
    }
  };

  const maxSteps = options.maxSteps ?? DEFAULT_MAX_STEPS;
  let steps = 0;
  while (frames.length > 0) {
    const frame = frames[frames.length - 1]!;
    const cur = frame.cursors[frame.cursors.length - 1];
    if (cur === undefined) {
      finish(frame);
      frames.pop();
      continue;
    }
    if (cur.kind === 'loop') {
      if (cur.m < cur.matches.length) {
        if (++steps > maxSteps) {
          tooLarge(frame, cur.node, maxSteps);
          break;
        }
        frame.cursors.push({ kind: 'body', nodes: cur.node.body, i: 0, binding: cur.matches[cur.m++] });
      } else frame.cursors.pop();
      continue;
    }
    if (cur.i >= cur.nodes.length) {
      frame.cursors.pop();
      continue;
    }
    const node = cur.nodes[cur.i++]!;
    if (++steps > maxSteps) {
      tooLarge(frame, node, maxSteps);
      break;
    }
    const file = frame.plan.file;
    if (node.kind === 'command') {
      const command = dialect.commands.get(node.name);
      if (command === undefined) {
        report(frame, 'unknown-command', file, node.line, node.column, `unknown command ${JSON.stringify(node.name)} in dialect ${dialect.id}`);
        continue;
      }
      const action = command.when.length === 0 ? command.base : actionFor(command, node.raw);
      if (!frame.dead) {
        const a = machine.symbolIndex.get(action.symbol);
        const t = a === undefined ? -1 : table !== undefined ? table[frame.state * width + a]! : edgeTarget(machine, frame.state, a);
        if (t < 0) {
          frame.dead = true;
          report(frame, 'fsm-adherence', file, node.line, node.column, `${node.name} (${action.symbol}) is not allowed in state ${machine.states[frame.state]!}; ${legal(frame)}`);
        } else frame.state = t;
      }
      if (action.effect !== undefined) effect(frame, node, action, cur.binding);
      continue;
    }
    if (node.kind === 'for_each_file') {
      const glob = cur.binding !== undefined ? node.glob.split(PLACEHOLDER).join(cur.binding) : node.glob;
      if (/^(\/|\\|[A-Za-z]:)/.test(glob) || /(^|\/)\.\.(\/|$)/.test(glob)) {
        report(frame, 'path-outside-root', file, node.line, node.argsColumn, `for_each_file: ${JSON.stringify(glob)} is outside the project root`);
        continue;
      }
      const matches = matchGlob(glob, fs);
      if (matches.length === 0) report(frame, 'empty-glob', file, node.line, node.argsColumn, `for_each_file ${glob} matches no file at this point of the plan; its body is not checked`);
      frame.cursors.push({ kind: 'loop', node, matches, m: 0 });
      continue;
    }
    // call_plan
    const target = cur.binding !== undefined ? node.target.split(PLACEHOLDER).join(cur.binding) : node.target;
    const resolved = resolveCall(target, registry);
    if (!resolved.ok) {
      report(frame, 'call-plan-outside-root', file, node.line, node.argsColumn, resolved.message);
      continue;
    }
    const path = resolved.path;
    const chainHere = frame.chain ?? [entry];
    const at = chainHere.indexOf(path);
    if (at >= 0) {
      report(frame, 'plan-cycle', file, node.line, node.argsColumn, `plan cycle: ${[...chainHere.slice(at), path].join(' -> ')}`);
      continue;
    }
    const called = step(frame.snapshot, machines, { type: 'call', machine: machineId, label: path });
    if (!called.ok) {
      const chain = 'chain' in called.error ? [...called.error.chain] : [...chainHere, path];
      report(frame, 'recursion-depth', file, node.line, node.argsColumn, called.error.message, { chain });
      continue;
    }
    const sub = load(path);
    if (sub === null) {
      report(frame, 'call-plan-not-found', file, node.line, node.argsColumn, `call_plan ${JSON.stringify(target)}: no registered plan of that name and no plan file ${JSON.stringify(path)}`);
      continue;
    }
    if ('refused' in sub) {
      report(frame, 'call-plan-outside-root', file, node.line, node.argsColumn, `call_plan ${JSON.stringify(target)}: ${sub.refused}`);
      continue;
    }
    enter(sub, called.snapshot, [...chainHere, path], [...(frame.callSites ?? []), { file, line: node.line, column: node.column }]);
  }
  return { findings: sortFindings(findings) };
}

function edgeTarget(machine: Machine, s: number, a: number): number {
  for (let e = machine.edgeStart[s]!; e < machine.edgeStart[s + 1]!; e++) if (machine.edgeSymbol[e] === a) return machine.edgeTarget[e]!;
  return -1;
}

/** Column (1-based) of argument `index` of a command line, for findings about that argument. */
export function argColumn(node: CommandNode, index: number): number {
  let col = node.argsColumn;
  const raw = node.raw;
  let i = 0;
  for (let k = 0; k < index; k++) {
    while (i < raw.length && !/\s/.test(raw[i]!)) i++;
    while (i < raw.length && /\s/.test(raw[i]!)) i++;
  }
  col += i;
  return col;
}
