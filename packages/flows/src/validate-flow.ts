/**
 * Flow definitions checked by hand-written code (the CLI's hot path must not load zod; schema.ts is
 * the zod mirror the JSON Schema is generated from, and a test keeps the two in agreement).
 * Returns every problem with its JSON pointer; the flow only when there are none.
 */
import { pathInputs } from './conditions.js';
import type { FlowProblem } from './errors.js';
import { FLOW_ID } from './ids.js';
import { placeholders, staticPathProblem, VAR_NAME } from './template.js';
import {
  FLOW_KINDS,
  SESSION_MODES,
  STEP_TYPES,
  type Branch,
  type DirectiveText,
  type Flow,
  type FlowKind,
  type Gate,
  type InputDeclaration,
  type OutputGate,
  type SkipCondition,
  type Step,
  type StepType,
} from './types.js';

export const FLOW_SCHEMA_URL = 'https://unpkg.com/@ratchet/flows/schemas/flow.schema.json';
export { FLOW_ID };
export const STEP_ID = /^[A-Za-z0-9][A-Za-z0-9._-]*$/;
/** Loop-backs and remediations allowed at most (the seed's MAX_ITERATIONS is 3, the default). */
export const MAX_LOOP_LIMIT = 10;
export const DEFAULT_LOOP_LIMIT = 3;
/** Placeholders every gate may use; inputs declared by the flow come on top. */
export const BASE_VARS = ['task', 'task-id', 'session', 'flow', 'step', 'iteration'] as const;

type Json = Record<string, unknown>;

const FLOW_KEYS = ['$schema', 'schemaVersion', 'id', 'title', 'description', 'semanticTrigger', 'notFor', 'kind', 'start', 'inputs', 'agentGate', 'transitionGate', 'learningsGate', 'onComplete', 'directive', 'steps'];
const STEP_KEYS = [
  'id',
  'title',
  'type',
  'content',
  'next',
  'agent',
  'atomicSkill',
  'iterationAgents',
  'loopTo',
  'maxIterations',
  'remediationTarget',
  'maxRemediation',
  'branches',
  'skip',
  'requires',
  'haltOnQuestions',
  'haltUnless',
  'output',
  'verdictFrom',
  'gates',
];

export interface FlowCheck {
  flow: Flow | undefined;
  problems: FlowProblem[];
}

export function checkFlow(value: unknown): FlowCheck {
  const problems: FlowProblem[] = [];
  const add = (pointer: string, message: string): void => void problems.push({ pointer, message });
  const c = new Checker(add);
  if (!isObject(value)) {
    add('', 'a flow must be an object');
    return { flow: undefined, problems };
  }
  c.keys(value, FLOW_KEYS, '');
  if (value.schemaVersion !== undefined && value.schemaVersion !== 1) add('/schemaVersion', 'schemaVersion must be 1 (the only version this reader knows)');
  if (value.$schema !== undefined && typeof value.$schema !== 'string') add('/$schema', 'must be a string');
  const id = c.str(value, 'id', '', true, FLOW_ID, 'lowercase letters, digits and "-"') ?? '';
  const title = c.str(value, 'title', '', true) ?? '';
  const description = c.str(value, 'description', '', false);
  // Shown in the routing table (`flow list`): one line each.
  const semanticTrigger = c.str(value, 'semanticTrigger', '', false);
  if (semanticTrigger !== undefined && /\p{Cc}/u.test(semanticTrigger)) add('/semanticTrigger', 'must be one line without control characters');
  const notFor = c.str(value, 'notFor', '', false);
  if (notFor !== undefined && /\p{Cc}/u.test(notFor)) add('/notFor', 'must be one line without control characters');
  const kind = (c.oneOf(value, 'kind', '', FLOW_KINDS) ?? 'protocol') as FlowKind;
  const onComplete = c.str(value, 'onComplete', '', false);
  if (onComplete !== undefined && /\p{Cc}/u.test(onComplete)) add('/onComplete', 'must be one line without control characters');

  const inputs: Record<string, InputDeclaration> = {};
  if (value.inputs !== undefined) {
    if (!isObject(value.inputs)) add('/inputs', 'must be an object of input declarations');
    else
      for (const [name, decl] of Object.entries(value.inputs)) {
        const p = `/inputs/${esc(name)}`;
        if (!VAR_NAME.test(name)) add(p, `input name "${name}" must start with a letter and use letters, digits and "_"`);
        if (!isObject(decl)) {
          add(p, 'must be an object ({ description?, required?, default?, values? })');
          continue;
        }
        c.keys(decl, ['description', 'required', 'default', 'values'], p);
        const d: InputDeclaration = { required: c.bool(decl, 'required', p) ?? false };
        const desc = c.str(decl, 'description', p, false);
        if (desc !== undefined) d.description = desc;
        const def = c.str(decl, 'default', p, false);
        if (def !== undefined) d.default = def;
        const values = c.values(decl, p);
        if (values !== undefined) {
          d.values = values;
          if (def !== undefined && Array.isArray(values) && !values.includes(def)) add(`${p}/default`, `default ${JSON.stringify(def)} is not one of the values (${values.join(', ')})`);
        }
        inputs[name] = d;
      }
  }
  // Variables a template may name: declared inputs, and what some step requires (set with --set).
  const required = Array.isArray(value.steps)
    ? (value.steps as unknown[]).flatMap((s) => (isObject(s) && Array.isArray(s.requires) ? s.requires.filter((r): r is string => typeof r === 'string' && VAR_NAME.test(r)) : []))
    : [];
  const inputNames = [...new Set([...Object.keys(inputs), ...required])];

  let directive: Partial<DirectiveText> | undefined;
  if (value.directive !== undefined) {
    if (!isObject(value.directive)) add('/directive', 'must be an object ({ heading?, warnings? })');
    else {
      c.keys(value.directive, ['heading', 'warnings'], '/directive');
      directive = {};
      const heading = c.str(value.directive, 'heading', '/directive', false, undefined, undefined, true);
      if (heading !== undefined) directive.heading = heading;
      const warnings = c.strList(value.directive, 'warnings', '/directive');
      if (warnings !== undefined) directive.warnings = warnings;
    }
  }

  const gateVars = (extra: readonly string[]): Set<string> => new Set([...BASE_VARS, ...inputNames, ...extra]);
  const agentGate = value.agentGate === undefined ? undefined : c.gate(value.agentGate, '/agentGate', gateVars(['agent', 'role']));
  const transitionGate = value.transitionGate === undefined ? undefined : c.gate(value.transitionGate, '/transitionGate', gateVars(['from', 'to']));
  // Learnings are written after the last phase: no step, no iteration.
  const learningsVars = new Set([...BASE_VARS.filter((v) => v !== 'step' && v !== 'iteration'), ...inputNames]);
  const learningsGate = value.learningsGate === undefined ? undefined : c.gate(value.learningsGate, '/learningsGate', learningsVars);

  const steps: Step[] = [];
  if (!Array.isArray(value.steps)) add('/steps', 'steps must be an array with at least one step');
  else if (value.steps.length === 0) add('/steps', 'steps must have at least one step');
  else {
    const rawSteps = value.steps as unknown[];
    rawSteps.forEach((raw, i) => {
      const p = `/steps/${i}`;
      if (!isObject(raw)) {
        add(p, 'a step must be an object');
        return;
      }
      c.keys(raw, STEP_KEYS, p);
      const sid = c.str(raw, 'id', p, true, STEP_ID, 'letters, digits, ".", "_" and "-"') ?? `#${i}`;
      const type = (c.oneOf(raw, 'type', p, STEP_TYPES) ?? 'LINEAR') as StepType;
      const following = rawSteps[i + 1];
      const defaultNext = isObject(following) && typeof following.id === 'string' ? following.id : null;
      let next: string | null = defaultNext;
      if (raw.next !== undefined) {
        if (raw.next === null) next = null;
        else if (typeof raw.next === 'string') next = raw.next;
        else add(`${p}/next`, 'must be a step id or null (the flow ends)');
      }
      const agent = c.str(raw, 'agent', p, false, STEP_ID, 'letters, digits, ".", "_" and "-"');
      const step: Step = {
        id: sid,
        title: c.str(raw, 'title', p, true) ?? '',
        type,
        content: c.str(raw, 'content', p, true) ?? '',
        next,
        iterationAgents: c.strList(raw, 'iterationAgents', p) ?? [],
        maxIterations: c.int(raw, 'maxIterations', p, 1, MAX_LOOP_LIMIT) ?? DEFAULT_LOOP_LIMIT,
        maxRemediation: c.int(raw, 'maxRemediation', p, 1, MAX_LOOP_LIMIT) ?? DEFAULT_LOOP_LIMIT,
        branches: [],
        requires: c.strList(raw, 'requires', p) ?? [],
        haltOnQuestions: c.bool(raw, 'haltOnQuestions', p) ?? false,
        gates: [],
      };
      if (agent !== undefined) step.agent = agent;
      const atomicSkill = c.str(raw, 'atomicSkill', p, false);
      if (atomicSkill !== undefined) step.atomicSkill = atomicSkill;
      const loopTo = c.str(raw, 'loopTo', p, false);
      if (loopTo !== undefined) step.loopTo = loopTo;
      const remediationTarget = c.str(raw, 'remediationTarget', p, false);
      if (remediationTarget !== undefined) step.remediationTarget = remediationTarget;
      for (const [j, name] of step.requires.entries()) if (!VAR_NAME.test(name)) add(`${p}/requires/${j}`, `"${name}" is not a variable name`);
      for (const [j, name] of step.iterationAgents.entries()) if (!STEP_ID.test(name)) add(`${p}/iterationAgents/${j}`, `"${name}" is not an agent name`);
      if (step.content !== '') {
        const problem = staticPathProblem(step.content);
        if (problem !== undefined) add(`${p}/content`, `content path ${problem}`);
      }
      const stepVars = gateVars(agent !== undefined ? ['agent', 'role'] : []);
      if (raw.gates !== undefined) {
        if (!Array.isArray(raw.gates)) add(`${p}/gates`, 'must be an array of gates');
        else
          (raw.gates as unknown[]).forEach((g, j) => {
            const gate = c.gate(g, `${p}/gates/${j}`, stepVars);
            if (gate) step.gates.push(gate);
          });
      }
      if (raw.skip !== undefined) {
        const skip = c.skip(raw.skip, `${p}/skip`);
        if (skip) step.skip = skip;
      }
      if (raw.haltUnless !== undefined) {
        const cond = c.skip(raw.haltUnless, `${p}/haltUnless`);
        if (cond) step.haltUnless = cond;
        // Without questions the step could never be left once the condition fails.
        if (!step.haltOnQuestions) add(`${p}/haltUnless`, '"haltUnless" needs "haltOnQuestions": true (the agent asks the user when the condition does not hold)');
      }
      if (raw.verdictFrom !== undefined) {
        const from = c.str(raw, 'verdictFrom', p, false);
        if (from !== undefined && c.pathTemplate(from, `${p}/verdictFrom`, stepVars)) step.verdictFrom = from;
      }
      if (raw.output !== undefined) {
        const output = c.output(raw.output, `${p}/output`);
        if (output) step.output = output;
      }
      if (raw.branches !== undefined) {
        if (!Array.isArray(raw.branches)) add(`${p}/branches`, 'must be an array of branches');
        else {
          const seen = new Set<string>();
          (raw.branches as unknown[]).forEach((b, j) => {
            const bp = `${p}/branches/${j}`;
            if (!isObject(b)) {
              add(bp, 'a branch must be an object ({ id, title, agent?, gates? })');
              return;
            }
            c.keys(b, ['id', 'title', 'agent', 'gates'], bp);
            const branch: Branch = { id: c.str(b, 'id', bp, true, STEP_ID, 'letters, digits, ".", "_" and "-"') ?? '', title: c.str(b, 'title', bp, true) ?? '', gates: [] };
            if (seen.has(branch.id)) add(`${bp}/id`, `duplicate branch id "${branch.id}"`);
            seen.add(branch.id);
            const bAgent = c.str(b, 'agent', bp, false, STEP_ID, 'letters, digits, ".", "_" and "-"');
            if (bAgent !== undefined) branch.agent = bAgent;
            if (b.gates !== undefined) {
              if (!Array.isArray(b.gates)) add(`${bp}/gates`, 'must be an array of gates');
              else
                (b.gates as unknown[]).forEach((g, k) => {
                  const gate = c.gate(g, `${bp}/gates/${k}`, gateVars(['branch', ...(bAgent !== undefined ? ['agent', 'role'] : [])]));
                  if (gate) branch.gates.push(gate);
                });
            }
            step.branches.push(branch);
          });
        }
      }
      typeRules(step, raw, p, add);
      if (kind === 'skill' && step.agent === undefined && step.type !== 'PARALLEL') add(p, `skill phase "${sid}" must name the agent it invokes ("agent")`);
      steps.push(step);
    });
  }

  // Cross-references, only once each step parsed.
  const ids = new Map<string, number>();
  steps.forEach((s, i) => {
    if (ids.has(s.id)) add(`/steps/${i}/id`, `duplicate step id "${s.id}" (first at /steps/${ids.get(s.id)})`);
    else ids.set(s.id, i);
  });
  const start = c.str(value, 'start', '', false) ?? steps[0]?.id ?? '';
  if (steps.length > 0 && !ids.has(start)) add('/start', `start step "${start}" is not a step of this flow`);
  steps.forEach((s, i) => {
    const p = `/steps/${i}`;
    if (s.next !== null && !ids.has(s.next)) add(`${p}/next`, `next step "${s.next}" is not a step of this flow`);
    if (s.loopTo !== undefined && !ids.has(s.loopTo)) add(`${p}/loopTo`, `loopTo step "${s.loopTo}" is not a step of this flow`);
    if (s.remediationTarget !== undefined && !ids.has(s.remediationTarget)) add(`${p}/remediationTarget`, `remediation target "${s.remediationTarget}" is not a step of this flow`);
  });
  // A variable that decides the path is fixed at start: a step cannot require it to be set on the way.
  const path = pathInputs(steps);
  steps.forEach((s, i) =>
    s.requires.forEach((name, j) => {
      const skipper = path.get(name);
      if (skipper !== undefined) add(`/steps/${i}/requires/${j}`, `"${name}" decides which steps run (step ${skipper} skips on it), so it is fixed when the flow starts: give it with --input, it cannot be required on the way`);
    }),
  );
  const startIndex = ids.get(start);
  const startStep = startIndex === undefined ? undefined : steps[startIndex];
  // Invariant 5: phase 0 is the mandatory clarification; it can be neither skipped nor looped past.
  if (startStep && startStep.type !== 'LINEAR') add(`/steps/${startIndex}/type`, `the first step ("${start}") must be LINEAR (mandatory clarification), not ${startStep.type}`);
  if (kind === 'skill' && transitionGate === undefined && value.transitionGate === undefined) {
    add('/transitionGate', 'a skill must declare the memory-agent gate checked at every phase transition ("transitionGate")');
  }
  if (kind === 'skill' && agentGate === undefined && value.agentGate === undefined) add('/agentGate', 'a skill must declare the agent memory-file gate ("agentGate")');
  if (kind === 'skill' && value.learningsGate === undefined) add('/learningsGate', 'a skill must declare where its learnings are written ("learningsGate"): it is FULLY_COMPLETE only after them');
  steps.forEach((s, i) => {
    // The verdict decides where a REMEDIATION step goes; it must come from a file the validation agent writes.
    if (s.type === 'REMEDIATION' && s.verdictFrom === undefined && (s.agent === undefined || value.agentGate === undefined)) {
      add(`/steps/${i}`, 'a REMEDIATION step reads its verdict from a file: name its agent (with an "agentGate") or "verdictFrom"');
    }
  });
  if (problems.length === 0) graphRules(steps, start, ids, add);
  if (problems.length > 0) return { flow: undefined, problems };

  const flow: Flow = { id, title, kind, start, steps, inputs };
  if (description !== undefined) flow.description = description;
  if (semanticTrigger !== undefined) flow.semanticTrigger = semanticTrigger;
  if (notFor !== undefined) flow.notFor = notFor;
  if (agentGate) flow.agentGate = agentGate;
  if (transitionGate) flow.transitionGate = transitionGate;
  if (learningsGate) flow.learningsGate = learningsGate;
  if (onComplete !== undefined) flow.onComplete = onComplete;
  if (directive !== undefined) flow.directive = directive;
  return { flow, problems };
}

function typeRules(step: Step, raw: Json, p: string, add: (pointer: string, message: string) => void): void {
  const only = (key: string, type: StepType): void => {
    if (raw[key] !== undefined && step.type !== type) add(`${p}/${key}`, `"${key}" only applies to ${type} steps (this one is ${step.type})`);
  };
  only('loopTo', 'ITERATIVE');
  only('maxIterations', 'ITERATIVE');
  only('iterationAgents', 'ITERATIVE');
  only('remediationTarget', 'REMEDIATION');
  only('maxRemediation', 'REMEDIATION');
  only('branches', 'PARALLEL');
  only('skip', 'OPTIONAL');
  only('verdictFrom', 'REMEDIATION');
  if (step.type === 'OPTIONAL' && raw.skip === undefined) add(p, 'an OPTIONAL step needs a "skip" condition (when it is skipped)');
  if (step.type === 'REMEDIATION' && raw.remediationTarget === undefined) add(p, 'a REMEDIATION step needs a "remediationTarget"');
  if (step.type === 'PARALLEL' && step.branches.length === 0 && Array.isArray(raw.branches)) add(`${p}/branches`, 'a PARALLEL step needs at least one branch');
  if (step.type === 'PARALLEL' && raw.branches === undefined) add(p, 'a PARALLEL step needs "branches"');
}

/** Every step reachable from the start, and every step able to reach the end. */
function graphRules(steps: Step[], start: string, ids: Map<string, number>, add: (pointer: string, message: string) => void): void {
  const byId = new Map(steps.map((s) => [s.id, s]));
  const succ = (s: Step): string[] => [s.next, s.loopTo ?? (s.type === 'ITERATIVE' ? s.id : undefined), s.remediationTarget].filter((x): x is string => typeof x === 'string');
  const reached = new Set<string>([start]);
  const queue = [start];
  while (queue.length > 0) {
    const s = byId.get(queue.shift()!)!;
    for (const t of succ(s)) {
      if (reached.has(t)) continue;
      reached.add(t);
      queue.push(t);
    }
  }
  for (const s of steps) if (!reached.has(s.id)) add(`/steps/${ids.get(s.id)}`, `step "${s.id}" is unreachable from the start step "${start}"`);
  // Only `next` moves forward for good; loops are bounded. A `next` cycle never finishes.
  const finishes = new Set<string>();
  for (let changed = true; changed; ) {
    changed = false;
    for (const s of steps) {
      if (!finishes.has(s.id) && (s.next === null || finishes.has(s.next))) {
        finishes.add(s.id);
        changed = true;
      }
    }
  }
  for (const s of steps) if (!finishes.has(s.id)) add(`/steps/${ids.get(s.id)}/next`, `step "${s.id}" never reaches the end of the flow: its "next" steps form a cycle`);
}

class Checker {
  /** Problems reported through this checker so far. */
  count = 0;
  private readonly add: (pointer: string, message: string) => void;

  constructor(add: (pointer: string, message: string) => void) {
    this.add = (pointer, message) => {
      this.count++;
      add(pointer, message);
    };
  }

  keys(obj: Json, allowed: readonly string[], p: string): void {
    for (const key of Object.keys(obj)) if (!allowed.includes(key)) this.add(`${p}/${esc(key)}`, `unknown property "${key}"`);
  }

  str(obj: Json, key: string, p: string, required: boolean, pattern?: RegExp, patternText?: string, allowEmpty = false): string | undefined {
    const v = obj[key];
    if (v === undefined) {
      if (required) this.add(p, `missing required property "${key}"`);
      return undefined;
    }
    if (typeof v !== 'string' || (!allowEmpty && v.trim() === '')) {
      this.add(`${p}/${key}`, `"${key}" must be a non-empty string`);
      return undefined;
    }
    if (pattern && !pattern.test(v)) {
      this.add(`${p}/${key}`, `"${key}" ${JSON.stringify(v)} must use ${patternText ?? pattern.source}`);
      return undefined;
    }
    return v;
  }

  strList(obj: Json, key: string, p: string): string[] | undefined {
    const v = obj[key];
    if (v === undefined) return undefined;
    if (!Array.isArray(v) || !v.every((x) => typeof x === 'string')) {
      this.add(`${p}/${key}`, `"${key}" must be an array of strings`);
      return undefined;
    }
    return [...v];
  }

  /** An input's `values`: a non-empty list of distinct one-line strings, or "flows". */
  values(obj: Json, p: string): string[] | 'flows' | undefined {
    const v = obj.values;
    if (v === undefined || v === 'flows') return v;
    if (!Array.isArray(v) || v.length === 0 || !v.every((x) => typeof x === 'string')) {
      this.add(`${p}/values`, '"values" must be "flows" or a non-empty array of strings');
      return undefined;
    }
    const seen = new Set<string>();
    v.forEach((x: string, i) => {
      if (x === '' || /\p{Cc}/u.test(x)) this.add(`${p}/values/${i}`, 'a value must be one non-empty line');
      else if (seen.has(x)) this.add(`${p}/values/${i}`, `value ${JSON.stringify(x)} is listed twice`);
      seen.add(x);
    });
    return [...v];
  }

  bool(obj: Json, key: string, p: string): boolean | undefined {
    const v = obj[key];
    if (v === undefined) return undefined;
    if (typeof v !== 'boolean') {
      this.add(`${p}/${key}`, `"${key}" must be true or false`);
      return undefined;
    }
    return v;
  }

  int(obj: Json, key: string, p: string, min: number, max: number): number | undefined {
    const v = obj[key];
    if (v === undefined) return undefined;
    if (typeof v !== 'number' || !Number.isInteger(v) || v < min || v > max) {
      this.add(`${p}/${key}`, `"${key}" must be an integer from ${min} to ${max}`);
      return undefined;
    }
    return v;
  }

  oneOf(obj: Json, key: string, p: string, allowed: readonly string[]): string | undefined {
    const v = obj[key];
    if (v === undefined) return undefined;
    if (typeof v !== 'string' || !allowed.includes(v)) {
      this.add(`${p}/${key}`, `"${key}" must be one of ${allowed.join(', ')}`);
      return undefined;
    }
    return v;
  }

  gate(raw: unknown, p: string, vars: ReadonlySet<string>): Gate | undefined {
    if (!isObject(raw)) {
      this.add(p, 'a gate must be an object ({ artifact, minLength?, headings? })');
      return undefined;
    }
    this.keys(raw, ['artifact', 'minLength', 'headings'], p);
    const artifact = this.str(raw, 'artifact', p, true);
    const minLength = this.int(raw, 'minLength', p, 0, 10_000_000) ?? 1;
    const headings = this.strList(raw, 'headings', p) ?? [];
    headings.forEach((h, i) => {
      if (h.trim() === '' || /[\r\n]/.test(h)) this.add(`${p}/headings/${i}`, 'a heading must be one non-empty line');
    });
    if (artifact === undefined) return undefined;
    this.pathTemplate(artifact, `${p}/artifact`, vars);
    return { artifact, minLength, headings };
  }

  /** A project-relative path template: stays inside the project, uses only placeholders known here. */
  pathTemplate(template: string, p: string, vars: ReadonlySet<string>): boolean {
    const before = this.count;
    const problem = staticPathProblem(template);
    if (problem !== undefined) this.add(p, `artifact path ${problem}`);
    for (const name of placeholders(template)) {
      if (!vars.has(name)) this.add(p, `unknown placeholder {${name}} (known here: ${[...vars].map((v) => `{${v}}`).join(', ')})`);
    }
    return this.count === before;
  }

  output(raw: unknown, p: string): OutputGate | undefined {
    if (!isObject(raw)) {
      this.add(p, 'an output gate must be an object ({ minLength?, headings? })');
      return undefined;
    }
    this.keys(raw, ['minLength', 'headings'], p);
    const minLength = this.int(raw, 'minLength', p, 1, 1_000_000) ?? 1;
    const headings = this.strList(raw, 'headings', p) ?? [];
    headings.forEach((h, i) => {
      if (h.trim() === '' || /[\r\n]/.test(h)) this.add(`${p}/headings/${i}`, 'a heading must be one non-empty line');
    });
    return { minLength, headings };
  }

  skip(raw: unknown, p: string, depth = 0): SkipCondition | undefined {
    if (!isObject(raw) || depth > 8) {
      this.add(p, 'a skip condition is { mode }, { input, equals? } or { not: condition }');
      return undefined;
    }
    if ('not' in raw) {
      this.keys(raw, ['not'], p);
      const inner = this.skip(raw.not, `${p}/not`, depth + 1);
      return inner && { not: inner };
    }
    if ('mode' in raw) {
      this.keys(raw, ['mode'], p);
      const mode = this.oneOf(raw, 'mode', p, SESSION_MODES);
      return mode === undefined ? undefined : { mode: mode as (typeof SESSION_MODES)[number] };
    }
    this.keys(raw, ['input', 'equals'], p);
    const input = this.str(raw, 'input', p, true);
    if (input !== undefined && !VAR_NAME.test(input)) this.add(`${p}/input`, `"${input}" is not a variable name`);
    const equals = this.str(raw, 'equals', p, false, undefined, undefined, true);
    if (input === undefined) return undefined;
    return equals === undefined ? { input } : { input, equals };
  }
}

function isObject(v: unknown): v is Json {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function esc(key: string): string {
  return key.replace(/~/g, '~0').replace(/\//g, '~1');
}
