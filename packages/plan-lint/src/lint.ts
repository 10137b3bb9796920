/**
 * `lintPlan`: run every rule over a plan and the sub-plans it calls. Pure: plan text comes from the
 * injected `host.readPlan`, the file system is simulated from `files` (sim-fs.ts: the starting files
 * plus what the plan creates, deletes and moves). The walk is iterative (explicit stacks for blocks
 * and call frames), so plan length and nesting never touch the JS call stack; fsm-core's pushdown
 * `start`/`step` decides the call depth limit and the call chain. It walks the compact form
 * (`scanPlan`: typed arrays over the text, arguments sliced only when a rule needs them), so the
 * heap holds a few objects per plan rather than several per line, and time stays linear in size.
 */
import { DEFAULT_MAX_DEPTH, nextSymbols, start, step, type Machine, type RunSnapshot } from '@ratchet/fsm-core';
import { actionFor, commandsForSymbol, type CompiledCommand, type Dialect, type DialectAction } from './dialect.js';
import { RULES, sortFindings, type CallSite, type Finding, type RuleId } from './findings.js';
import { ROOT_FRAME, childFrame, type PlanExpansion } from './expansion.js';
import { SimulatedFs, type FileView } from './sim-fs.js';
import { matchGlob } from './glob.js';
import { KIND_COMMAND, KIND_LOOP, argOf, scanPlan, type PlanCode, type ScanResult } from './parse.js';
import { normalizeRelative } from './paths.js';
import { bindPlaceholders, hasPlaceholder } from './plan.js';
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
  /**
   * The files that exist before the plan runs: project-relative paths, or a FileView of a real tree
   * (asked per path, listed only for `for_each_file`).
   */
  files: Iterable<string> | FileView;
  machine: Machine;
  dialect: Dialect;
  /** Plan registry: logical name -> project-relative path. */
  registry?: PlanRegistry;
  /** Maximum call frames, the entry plan included. Default fsm-core's DEFAULT_MAX_DEPTH (10). */
  maxDepth?: number;
  /**
   * Most simulated steps beyond the entry plan's own lines (commands, loop iterations, and calls at
   * CALL_STEPS each, with every for_each_file match and every call_plan expanded) before lint stops
   * with `plan-too-large`. Default DEFAULT_MAX_STEPS. Nested loops over a big tree, or plans that
   * each call the next several times, grow exponentially: without a bound, lint of a ten-line plan
   * could run for days. The entry plan's own lines are always allowed once: a long plan costs time
   * linear in its size, and its size is bounded where it is read.
   */
  maxSteps?: number;
  /**
   * Deepest for_each_file nesting lint expands (default DEFAULT_MAX_LOOP_DEPTH): a loop nested deeper
   * is `loop-too-deep` at its line and is not expanded. Every level multiplies the steps, and each
   * step of a deep nest carries the files of every loop around it.
   */
  maxLoopDepth?: number;
  /**
   * Also return `expansion`: the files every for_each_file iterates in the simulated file system,
   * per plan frame. Off by default: plain lint need not keep every match list until the end.
   */
  expansion?: boolean;
}

/**
 * One million simulated steps beyond the entry plan's lines: well under a second of lint on a loaded
 * 2-core machine (BENCHMARKS.md, "plan-lint on pathological plans"), so any plan up to 1 MB answers
 * within 2 s.
 */
export const DEFAULT_MAX_STEPS = 1_000_000;

/** What one call_plan counts toward `maxSteps`: entering and leaving a frame costs about ten lines' work. */
export const CALL_STEPS = 10;

/** Eight nested for_each_file loops: more than any plan of the seed's kind needs, far less than a pathological one. */
export const DEFAULT_MAX_LOOP_DEPTH = 8;

export interface LintResult {
  findings: Finding[];
  /** With `expansion: true`: what each for_each_file iterates (complete only when there is no error). */
  expansion?: PlanExpansion;
}

/** A range of sibling nodes being walked, or a for_each_file going through its matches. */
/** `bindings`: the files of the enclosing for_each_file loops, outermost first ({file1}, {file2}, ...; {file} the last). */
type Cursor = { kind: 'body'; i: number; to: number; bindings: readonly string[] } | { kind: 'loop'; at: number; matches: string[]; m: number; bindings: readonly string[] };

interface Frame {
  code: PlanCode;
  /** The dialect's command for each of `code.names` (undefined: unknown command). */
  commands: (CompiledCommand | undefined)[];
  state: number;
  /** Set after the first FSM rejection: the rest of this plan's sequence would only cascade. */
  dead: boolean;
  snapshot: RunSnapshot;
  cursors: Cursor[];
  chain: string[] | undefined;
  callSites: CallSite[] | undefined;
  /** Where the run will meet this frame (expansion.ts), and how many steps it has so far: a call's index names its frame. */
  at: string;
  steps: number;
  /** The match lists of its for_each_file lines, in walk order (only when the expansion is asked for). */
  loops: string[][] | undefined;
}

export function lintPlan(options: LintOptions): LintResult {
  const { host, machine, dialect, registry } = options;
  const entry = normalizeRelative(options.entry) ?? options.entry;
  const findings: Finding[] = [];
  const seen = new Set<string>();
  const parsed = new Map<string, ScanResult | PlanRefusal | null>();
  const machineId = machine.id ?? dialect.id;
  const machines = new Map([[machineId, machine]]);
  const width = machine.alphabet.length;
  const table = machine.table;

  const fs = SimulatedFs.of(options.files);
  const globs = new GlobCache(fs);
  const expansion: PlanExpansion | undefined = options.expansion === true ? {} : undefined;
  const gone = new Map<string, string>();

  const report = (frame: Frame | undefined, ruleId: RuleId, file: string, line0: number, column0: number, message: string, extra?: Pick<Finding, 'chain' | 'callSites'>): void => {
    // A plan written in the block form is walked as its line-form rewrite: point into the file as written.
    const remap = frame?.code.remap;
    const { line, column } = remap !== undefined && file === frame!.code.file ? remap(line0, column0) : { line: line0, column: column0 };
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

  const load = (path: string): ScanResult | PlanRefusal | null => {
    let r = parsed.get(path);
    if (r === undefined) {
      const text = host.readPlan(path);
      r = text === undefined ? null : typeof text === 'string' ? scanPlan(text, path) : text;
      parsed.set(path, r);
    }
    return r;
  };

  const frames: Frame[] = [];
  // Per plan, not per call: a sub-plan called a million times is looked up and judged once.
  const commandsOf = new Map<PlanCode, (CompiledCommand | undefined)[]>();
  const closes = new Map<PlanCode, boolean>();
  const tooDeep = new Map<PlanCode, Set<number>>();
  const enter = (result: ScanResult, snapshot: RunSnapshot, chain: string[] | undefined, callSites: CallSite[] | undefined, at: string): void => {
    const { code } = result;
    let commands = commandsOf.get(code);
    if (commands === undefined) commandsOf.set(code, (commands = code.names.map((n) => dialect.commands.get(n))));
    const frame: Frame = {
      code,
      commands,
      state: machine.startId,
      dead: false,
      snapshot,
      cursors: [{ kind: 'body', i: 0, to: code.count, bindings: [] }],
      chain,
      callSites,
      at,
      steps: 0,
      loops: expansion !== undefined ? [] : undefined,
    };
    for (const d of result.diagnostics) report(frame, d.ruleId, d.file, d.line, d.column, d.message);
    if (code.count === 0) report(frame, 'empty-plan', code.file, 1, 1, 'the plan has no commands');
    frames.push(frame);
  };

  const root = load(entry);
  if (root === null || 'refused' in root) {
    if (root === null) report(undefined, 'call-plan-not-found', entry, 1, 1, `plan file ${JSON.stringify(entry)} not found`);
    else report(undefined, 'call-plan-outside-root', entry, 1, 1, root.refused);
    return { findings, ...(expansion !== undefined ? { expansion } : {}) };
  }
  enter(root, start(machine, { id: machineId, label: entry, maxDepth: options.maxDepth ?? DEFAULT_MAX_DEPTH }), undefined, undefined, ROOT_FRAME);

  const nameOf = (frame: Frame, i: number): string => frame.code.names[frame.code.name[i]!]!;
  /** 1-based column of the argument that starts at text offset `offset` on node i's line. */
  const columnAt = (code: PlanCode, i: number, offset: number): number => code.argsColumn[i]! + offset - code.start[i]!;

  /** File argument `index` of node i, {file} bound and normalised; undefined (reported) when missing or outside. */
  const fileArg = (frame: Frame, i: number, index: number, bindings: readonly string[]): { path: string; column: number } | undefined => {
    const { code } = frame;
    const arg = argOf(code, i, index);
    if (arg === undefined) {
      report(frame, 'malformed-line', code.file, code.line[i]!, code.column[i]!, `${nameOf(frame, i)} needs a file as argument ${index + 1}`);
      return undefined;
    }
    const value = bindPlaceholders(arg.value, bindings);
    // An unbound {file} or {fileN} was reported by the parser (unbound-placeholder); do not pile on.
    if (hasPlaceholder(value)) return undefined;
    const column = columnAt(code, i, arg.offset);
    const path = normalizeRelative(value);
    if (path === undefined) {
      report(frame, 'path-outside-root', code.file, code.line[i]!, column, `${nameOf(frame, i)}: ${JSON.stringify(value)} is outside the project root`);
      return undefined;
    }
    const escape = fs.outside(path);
    if (escape !== undefined) {
      report(frame, 'path-outside-root', code.file, code.line[i]!, column, `${nameOf(frame, i)}: ${JSON.stringify(value)} ${escape}`);
      return undefined;
    }
    return { path, column };
  };

  const missing = (frame: Frame, i: number, p: string, column: number): void => {
    const why = gone.get(p);
    report(frame, 'file-not-found', frame.code.file, frame.code.line[i]!, column, `${nameOf(frame, i)}: ${JSON.stringify(p)} does not exist at this point of the plan${why === undefined ? '' : ` (${why})`}`);
  };

  const effect = (frame: Frame, i: number, action: DialectAction, bindings: readonly string[]): void => {
    const { code } = frame;
    const file = code.file;
    const arg = fileArg(frame, i, action.path!, bindings);
    if (arg === undefined) return;
    const p = arg.path;
    switch (action.effect) {
      case 'read':
      case 'edit':
        if (!fs.has(p)) missing(frame, i, p, arg.column);
        break;
      case 'delete':
        if (!fs.delete(p)) missing(frame, i, p, arg.column);
        gone.set(p, `deleted at ${file}:${code.line[i]!}`);
        break;
      case 'create':
        if (fs.has(p)) report(frame, 'file-exists', file, code.line[i]!, arg.column, `${nameOf(frame, i)}: ${JSON.stringify(p)} already exists at this point of the plan`);
        else fs.add(p);
        break;
      case 'write':
        fs.add(p);
        break;
      case 'move': {
        const to = fileArg(frame, i, action.to!, bindings);
        if (!fs.has(p)) missing(frame, i, p, arg.column);
        if (to === undefined) return;
        if (fs.has(to.path)) report(frame, 'file-exists', file, code.line[i]!, to.column, `${nameOf(frame, i)}: the destination ${JSON.stringify(to.path)} already exists at this point of the plan`);
        fs.delete(p);
        gone.set(p, `moved to ${to.path} at ${file}:${code.line[i]!}`);
        fs.add(to.path);
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

  const tooLarge = (frame: Frame, i: number, max: number): void => {
    report(
      frame,
      'plan-too-large',
      frame.code.file,
      frame.code.line[i]!,
      frame.code.column[i]!,
      `simulating this plan takes more than ${max.toLocaleString('en-US')} steps beyond its own lines (every for_each_file match and call_plan expanded); lint stopped here, the rest is unchecked. Nest fewer loops, narrow the globs, or call fewer sub-plans`,
    );
  };

  const finish = (frame: Frame): void => {
    const { code } = frame;
    if (frame.loops !== undefined && frame.loops.length > 0) expansion![frame.at] = { plan: code.file, loops: frame.loops };
    const last = code.last;
    if (last < 0) return;
    const kind = code.kind[last];
    let closed = closes.get(code);
    if (closed === undefined) {
      closed = false;
      if (kind === KIND_COMMAND) {
        const c = frame.commands[code.name[last]!];
        const symbol = c === undefined ? undefined : actionFor(c, code.text.slice(code.start[last], code.end[last])).symbol;
        // A command allowed after the close (submit) ends the plan too; the FSM checks it follows the close.
        closed = symbol !== undefined && (symbol === dialect.close || dialect.afterClose.includes(symbol));
      }
      closes.set(code, closed);
    }
    if (!closed) {
      const closeNames = commandsForSymbol(dialect, dialect.close).join(' or ');
      const what = kind === KIND_COMMAND ? nameOf(frame, last) : kind === KIND_LOOP ? 'for_each_file' : 'call_plan';
      const after = dialect.afterClose.flatMap((s) => commandsForSymbol(dialect, s));
      const then = after.length > 0 ? `, optionally followed by ${after.join(' or ')}` : '';
      report(frame, 'closure-mandate', code.file, code.line[last]!, code.column[last]!, `the plan must end with the close command (${closeNames}${then}); it ends with ${what}`);
    } else if (!frame.dead && machine.accepting[frame.state] !== 1) {
      report(frame, 'fsm-adherence', code.file, code.line[last]!, code.column[last]!, `the plan ends in state ${machine.states[frame.state]!}, which is not an accept state`);
    }
  };

  const maxSteps = options.maxSteps ?? DEFAULT_MAX_STEPS;
  // The budget the walk checks: the entry plan once, line by line, plus maxSteps of expansion.
  const budget = maxSteps + root.code.count;
  const maxLoopDepth = options.maxLoopDepth ?? DEFAULT_MAX_LOOP_DEPTH;
  let steps = 0;
  while (frames.length > 0) {
    const frame = frames[frames.length - 1]!;
    const cur = frame.cursors[frame.cursors.length - 1];
    if (cur === undefined) {
      finish(frame);
      frames.pop();
      continue;
    }
    const { code } = frame;
    if (cur.kind === 'loop') {
      if (cur.m < cur.matches.length) {
        if (++steps > budget) {
          tooLarge(frame, cur.at, maxSteps);
          break;
        }
        frame.cursors.push({ kind: 'body', i: cur.at + 1, to: code.next[cur.at]!, bindings: [...cur.bindings, cur.matches[cur.m++]!] });
      } else frame.cursors.pop();
      continue;
    }
    if (cur.i >= cur.to) {
      frame.cursors.pop();
      continue;
    }
    const i = cur.i;
    cur.i = code.next[i]!;
    if (++steps > budget) {
      tooLarge(frame, i, maxSteps);
      break;
    }
    const file = code.file;
    const kind = code.kind[i];
    // Every command and call line is a step of the run, unknown or not (the run does not know the dialect).
    const stepIndex = kind === KIND_LOOP ? -1 : frame.steps++;
    if (kind === KIND_COMMAND) {
      const command = frame.commands[code.name[i]!];
      if (command === undefined) {
        report(frame, 'unknown-command', file, code.line[i]!, code.column[i]!, `unknown command ${JSON.stringify(nameOf(frame, i))} in dialect ${dialect.id}`);
        continue;
      }
      const action = command.when.length === 0 ? command.base : actionFor(command, code.text.slice(code.start[i], code.end[i]));
      if (!frame.dead) {
        const a = machine.symbolIndex.get(action.symbol);
        const t = a === undefined ? -1 : table !== undefined ? table[frame.state * width + a]! : edgeTarget(machine, frame.state, a);
        if (t < 0) {
          frame.dead = true;
          report(frame, 'fsm-adherence', file, code.line[i]!, code.column[i]!, `${nameOf(frame, i)} (${action.symbol}) is not allowed in state ${machine.states[frame.state]!}; ${legal(frame)}`);
        } else frame.state = t;
      }
      if (action.effect !== undefined) effect(frame, i, action, cur.bindings);
      continue;
    }
    const raw = code.text.slice(code.start[i], code.end[i]);
    if (kind === KIND_LOOP) {
      if (cur.bindings.length >= maxLoopDepth) {
        // Not expanded: its body (and any deeper loop) is skipped, so one finding per such loop line
        // (checked before the message is built: the loop around it may reach this line millions of times).
        let seenHere = tooDeep.get(code);
        if (seenHere === undefined) tooDeep.set(code, (seenHere = new Set()));
        if (seenHere.has(i)) continue;
        seenHere.add(i);
        report(
          frame,
          'loop-too-deep',
          file,
          code.line[i]!,
          code.column[i]!,
          `for_each_file nested ${cur.bindings.length + 1} deep: at most ${maxLoopDepth} levels are checked (each level multiplies the steps); this loop and everything inside it are unchecked. Flatten the loops or move the inner ones into a sub-plan`,
        );
        continue;
      }
      const glob = bindPlaceholders(raw, cur.bindings);
      if (/^(\/|\\|[A-Za-z]:)/.test(glob) || /(^|\/)\.\.(\/|$)/.test(glob)) {
        report(frame, 'path-outside-root', file, code.line[i]!, code.argsColumn[i]!, `for_each_file: ${JSON.stringify(glob)} is outside the project root`);
        continue;
      }
      const matches = globs.matches(glob);
      frame.loops?.push(matches);
      if (matches.length === 0) report(frame, 'empty-glob', file, code.line[i]!, code.argsColumn[i]!, `for_each_file ${glob} matches no file at this point of the plan; its body is not checked`);
      frame.cursors.push({ kind: 'loop', at: i, matches, m: 0, bindings: cur.bindings });
      continue;
    }
    // call_plan: a frame costs more than a line (its lookups, the pushdown snapshot, the chain), so it counts as CALL_STEPS.
    steps += CALL_STEPS - 1;
    if (steps > budget) {
      tooLarge(frame, i, maxSteps);
      break;
    }
    const target = bindPlaceholders(raw, cur.bindings);
    const resolved = resolveCall(target, registry);
    if (!resolved.ok) {
      report(frame, 'call-plan-outside-root', file, code.line[i]!, code.argsColumn[i]!, resolved.message);
      continue;
    }
    const path = resolved.path;
    const chainHere = frame.chain ?? [entry];
    const at = chainHere.indexOf(path);
    if (at >= 0) {
      report(frame, 'plan-cycle', file, code.line[i]!, code.argsColumn[i]!, `plan cycle: ${[...chainHere.slice(at), path].join(' -> ')}`);
      continue;
    }
    const called = step(frame.snapshot, machines, { type: 'call', machine: machineId, label: path });
    if (!called.ok) {
      const chain = 'chain' in called.error ? [...called.error.chain] : [...chainHere, path];
      report(frame, 'recursion-depth', file, code.line[i]!, code.argsColumn[i]!, called.error.message, { chain });
      continue;
    }
    const sub = load(path);
    if (sub === null) {
      report(frame, 'call-plan-not-found', file, code.line[i]!, code.argsColumn[i]!, `call_plan ${JSON.stringify(target)}: no registered plan of that name and no plan file ${JSON.stringify(path)}`);
      continue;
    }
    if ('refused' in sub) {
      report(frame, 'call-plan-outside-root', file, code.line[i]!, code.argsColumn[i]!, `call_plan ${JSON.stringify(target)}: ${sub.refused}`);
      continue;
    }
    enter(sub, called.snapshot, [...chainHere, path], [...(frame.callSites ?? []), { file, line: code.line[i]!, column: code.column[i]! }], childFrame(frame.at, stepIndex));
  }
  return { findings: sortFindings(findings), ...(expansion !== undefined ? { expansion } : {}) };
}

function edgeTarget(machine: Machine, s: number, a: number): number {
  for (let e = machine.edgeStart[s]!; e < machine.edgeStart[s + 1]!; e++) if (machine.edgeSymbol[e] === a) return machine.edgeTarget[e]!;
  return -1;
}

/**
 * Glob matches against the simulated file system, kept until it changes: a loop nested in another
 * globs the same unchanged tree once per outer iteration, and matching lists every file. The lists
 * are shared (expansion keeps them), so they are never mutated.
 */
class GlobCache {
  private readonly cache = new Map<string, string[]>();
  private version = -1;
  constructor(private readonly fs: SimulatedFs) {}

  matches(glob: string): string[] {
    if (this.version !== this.fs.version || this.cache.size > 4096) {
      this.cache.clear();
      this.version = this.fs.version;
    }
    let found = this.cache.get(glob);
    if (found === undefined) {
      found = matchGlob(glob, this.fs);
      this.cache.set(glob, found);
    }
    return found;
  }
}
