/**
 * `compile`: a `Definition` -> a `Machine` built for speed. States and symbols become integer ids
 * (their positions in `states` and `alphabet`); the transition function is a flat Int32Array
 * indexed `state * alphabet.length + symbol` (-1 = no transition), so a run step is one Map lookup
 * for the symbol and one array read. Out-edges are also kept per state (CSR arrays), sorted by
 * symbol, for the graph queries and renderers, and as the fallback when a dense table would be
 * too big (huge alphabets times many states).
 */
import { FSM_DEFINITION_SCHEMA_URL, FSM_DEFINITION_VERSION, type Definition, type MapDefinitionDocument, type StateDeclaration } from './definition.js';
import { hasErrors } from './diagnostics.js';
import { InvalidDefinitionError, UnknownStateError } from './errors.js';
import { analyzeModel } from './check.js';
import { toModel } from './normalize.js';

/** Above this many cells (16 MiB of Int32) the dense table gives way to a search in the out-edges. */
export const DENSE_TABLE_MAX_CELLS = 1 << 22;

export interface Machine {
  readonly id: string | undefined;
  readonly description: string | undefined;
  /** State names; a state's id is its index here. */
  readonly states: readonly string[];
  readonly stateDescriptions: readonly (string | undefined)[];
  /** Symbols; a symbol's id is its index here. */
  readonly alphabet: readonly string[];
  readonly start: string;
  /** Accept state names, in the order the definition lists them. */
  readonly accept: readonly string[];

  // Compiled form. Not plain JSON: runs and snapshots refer to a machine by id instead.
  readonly startId: number;
  /** 1 where the state with that id is accepting. */
  readonly accepting: Uint8Array;
  readonly stateIndex: ReadonlyMap<string, number>;
  readonly symbolIndex: ReadonlyMap<string, number>;
  /** `table[state * alphabet.length + symbol]` = target id or -1; undefined when too big (see `edges`). */
  readonly table: Int32Array | undefined;
  /** Out-edges of state s are `edgeSymbol/edgeTarget[edgeStart[s] .. edgeStart[s + 1])`, by symbol id. */
  readonly edgeStart: Int32Array;
  readonly edgeSymbol: Int32Array;
  readonly edgeTarget: Int32Array;
}

/**
 * Compile a normalised definition. Throws `InvalidDefinitionError` (with every diagnostic) when it
 * has errors; warnings do not stop compilation. `loadDefinition` is the usual way in from a file.
 */
export function compile(definition: Definition, options: CompileOptions = {}): Machine {
  const { model, diagnostics } = analyzeModel(definition);
  if (hasErrors(diagnostics)) throw new InvalidDefinitionError(diagnostics);
  return build(toModel(model), options);
}

export interface CompileOptions {
  /** Largest dense table (states x symbols) to allocate; above it, lookups search the out-edges. */
  maxTableCells?: number;
}

/** Build from a model already known to be error-free (loadDefinition checked the document). */
export function build(def: Definition, { maxTableCells = DENSE_TABLE_MAX_CELLS }: CompileOptions = {}): Machine {
  const states = def.states.map((s) => s.name);
  const stateIndex = new Map(states.map((s, i) => [s, i]));
  const symbolIndex = new Map(def.alphabet.map((a, i) => [a, i]));
  const width = def.alphabet.length;
  const acceptSet = new Set(def.accept);
  const accepting = new Uint8Array(states.length);
  states.forEach((s, i) => {
    if (acceptSet.has(s)) accepting[i] = 1;
  });

  const edges = def.transitions
    .map((t) => ({ from: stateIndex.get(t.from)!, symbol: symbolIndex.get(t.symbol)!, to: stateIndex.get(t.to)! }))
    .sort((a, b) => a.from - b.from || a.symbol - b.symbol);
  const edgeStart = new Int32Array(states.length + 1);
  const edgeSymbol = new Int32Array(edges.length);
  const edgeTarget = new Int32Array(edges.length);
  edges.forEach((e, i) => {
    edgeStart[e.from + 1]!++;
    edgeSymbol[i] = e.symbol;
    edgeTarget[i] = e.to;
  });
  for (let s = 0; s < states.length; s++) edgeStart[s + 1]! += edgeStart[s]!;

  let table: Int32Array | undefined;
  if (states.length * width <= maxTableCells) {
    table = new Int32Array(states.length * width).fill(-1);
    for (const e of edges) table[e.from * width + e.symbol] = e.to;
  }

  return Object.freeze({
    id: def.id,
    description: def.description,
    states: Object.freeze(states),
    stateDescriptions: Object.freeze(def.states.map((s) => s.description)),
    alphabet: Object.freeze([...def.alphabet]),
    start: def.start,
    accept: Object.freeze([...def.accept]),
    startId: stateIndex.get(def.start)!,
    accepting,
    stateIndex,
    symbolIndex,
    table,
    edgeStart,
    edgeSymbol,
    edgeTarget,
  });
}

/** Target id of `state` on `symbol` (ids), or -1. The one lookup every run function uses. */
export function nextId(machine: Machine, state: number, symbol: number): number {
  const table = machine.table;
  if (table !== undefined) return table[state * machine.alphabet.length + symbol]!;
  // Sparse fallback: binary search the state's out-edges, which are sorted by symbol.
  let lo = machine.edgeStart[state]!;
  let hi = machine.edgeStart[state + 1]! - 1;
  const syms = machine.edgeSymbol;
  while (lo <= hi) {
    const mid = (lo + hi) >>> 1;
    const s = syms[mid]!;
    if (s === symbol) return machine.edgeTarget[mid]!;
    if (s < symbol) lo = mid + 1;
    else hi = mid - 1;
  }
  return -1;
}

/** The id of a state name; throws `UnknownStateError` (a programming error, not user input). */
export function stateId(machine: Machine, state: string): number {
  const id = machine.stateIndex.get(state);
  if (id === undefined) throw new UnknownStateError(state, machine.id);
  return id;
}

/** The normalised model of a compiled machine. */
export function toModelDefinition(machine: Machine): Definition {
  const transitions = [];
  for (let s = 0; s < machine.states.length; s++) {
    for (let e = machine.edgeStart[s]!; e < machine.edgeStart[s + 1]!; e++) {
      transitions.push({ from: machine.states[s]!, symbol: machine.alphabet[machine.edgeSymbol[e]!]!, to: machine.states[machine.edgeTarget[e]!]! });
    }
  }
  return {
    ...(machine.id !== undefined ? { id: machine.id } : {}),
    ...(machine.description !== undefined ? { description: machine.description } : {}),
    states: machine.states.map((name, i) => {
      const description = machine.stateDescriptions[i];
      return description === undefined ? { name } : { name, description };
    }),
    alphabet: [...machine.alphabet],
    start: machine.start,
    accept: [...machine.accept],
    transitions,
  };
}

/**
 * The canonical map-style document for a machine: what `ratchet` writes when it saves one.
 * Rows are built with Object.fromEntries (define, not assign) as a second line of defence:
 * reserved names are already refused by `compile`.
 */
export function toDefinition(machine: Machine): MapDefinitionDocument {
  const rows: [string, Record<string, string>][] = [];
  for (let s = 0; s < machine.states.length; s++) {
    const from = machine.edgeStart[s]!;
    const to = machine.edgeStart[s + 1]!;
    if (from === to) continue;
    const row: [string, string][] = [];
    for (let e = from; e < to; e++) row.push([machine.alphabet[machine.edgeSymbol[e]!]!, machine.states[machine.edgeTarget[e]!]!]);
    rows.push([machine.states[s]!, Object.fromEntries(row)]);
  }
  return {
    $schema: FSM_DEFINITION_SCHEMA_URL,
    schemaVersion: FSM_DEFINITION_VERSION,
    ...(machine.id !== undefined ? { id: machine.id } : {}),
    ...(machine.description !== undefined ? { description: machine.description } : {}),
    states: machine.states.map((name, i): StateDeclaration => {
      const description = machine.stateDescriptions[i];
      return description === undefined ? name : { name, description };
    }),
    alphabet: [...machine.alphabet],
    transitions: Object.fromEntries(rows),
    start_state: machine.start,
    accept_states: [...machine.accept],
  };
}
