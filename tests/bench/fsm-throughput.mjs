// fsm-core against XState v5, in one process on one machine: transitions per second for
// `transition(machine, state, symbol)` vs `actor.send(event)` over the same event sequence on the
// same machine (Jules' fdc plan language), and the time `accepts` takes over a million symbols.
// Both sides are warmed up, then measured in interleaved rounds; we report medians.
// Prints one JSON line; exit 1 when fsm-core is under 10x XState or accepts(1M) is over 300 ms.
// Needs the built package (`pnpm --filter @ratchet/fsm-core build`): node resolves dist, not src.
import { accepts, loadDefinition, transition } from '@ratchet/fsm-core';
import { createActor, createMachine } from 'xstate';

const LIMITS = { minRatio: 10, maxAccepts1MMs: 300 };
const ROUNDS = Number(process.env.RATCHET_BENCH_ROUNDS ?? 7);
const EVENTS = 100_000; // per XState round; fsm-core repeats the sequence to get a measurable time
const FSM_REPEAT = 40;

const STATES = ['IDLE', 'PLANNING', 'EXECUTING', 'POST_MORTEM', 'DONE'];
const ALPHABET = ['plan_op', 'step_op', 'read_op', 'write_op', 'delete_op', 'move_op', 'tool_exec', 'close_op', 'submit_op'];
const LOOP = ['step_op', 'read_op', 'write_op', 'delete_op', 'move_op', 'tool_exec'];

const { machine, diagnostics } = loadDefinition({
  id: 'fdc',
  states: STATES,
  alphabet: ALPHABET,
  transitions: {
    IDLE: { plan_op: 'PLANNING' },
    PLANNING: { step_op: 'EXECUTING' },
    EXECUTING: { ...Object.fromEntries(LOOP.map((s) => [s, 'EXECUTING'])), close_op: 'POST_MORTEM' },
    POST_MORTEM: { submit_op: 'DONE' },
  },
  start_state: 'IDLE',
  accept_states: ['DONE'],
});
if (!machine) throw new Error(`fdc machine does not load: ${JSON.stringify(diagnostics)}`);

const xmachine = createMachine({
  id: 'fdc',
  initial: 'IDLE',
  states: {
    IDLE: { on: { plan_op: 'PLANNING' } },
    PLANNING: { on: { step_op: 'EXECUTING' } },
    EXECUTING: { on: { ...Object.fromEntries(LOOP.map((s) => [s, 'EXECUTING'])), close_op: 'POST_MORTEM' } },
    POST_MORTEM: { on: { submit_op: 'DONE' } },
    DONE: { type: 'final' },
  },
});

/** plan_op, step_op, n - 4 loop symbols, close_op, submit_op: a word of the language, ending in DONE. */
function word(n) {
  const w = ['plan_op', 'step_op'];
  for (let i = 0; w.length < n - 2; i++) w.push(LOOP[i % LOOP.length]);
  w.push('close_op', 'submit_op');
  return w;
}

const symbols = word(EVENTS);
const events = symbols.map((type) => ({ type })); // built once: XState is not charged for allocating events

const now = () => process.hrtime.bigint();
const ms = (t0) => Number(now() - t0) / 1e6;
const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};

function fsmCoreRound() {
  const t0 = now();
  let state;
  for (let r = 0; r < FSM_REPEAT; r++) {
    state = machine.start;
    for (let i = 0; i < symbols.length; i++) state = transition(machine, state, symbols[i]);
  }
  const elapsed = ms(t0);
  if (state !== 'DONE') throw new Error(`fsm-core ended in ${state}`);
  return (FSM_REPEAT * symbols.length) / (elapsed / 1000);
}

function xstateRound() {
  const t0 = now();
  const actor = createActor(xmachine).start();
  for (let i = 0; i < events.length; i++) actor.send(events[i]);
  const elapsed = ms(t0);
  const final = actor.getSnapshot().value;
  if (final !== 'DONE') throw new Error(`XState ended in ${final}`);
  return events.length / (elapsed / 1000);
}

const million = word(1_000_000);
function acceptsRound() {
  const t0 = now();
  const result = accepts(machine, million);
  const elapsed = ms(t0);
  if (!result.accepted || result.steps !== 1_000_000) throw new Error(`accepts: ${JSON.stringify(result)}`);
  return elapsed;
}

for (let i = 0; i < 3; i++) {
  fsmCoreRound();
  xstateRound();
  acceptsRound();
}
const fsm = [];
const xs = [];
const acc = [];
for (let i = 0; i < ROUNDS; i++) {
  // Alternate which side goes first so drift (GC, thermal, neighbours) hits both alike.
  if (i % 2 === 0) {
    fsm.push(fsmCoreRound());
    xs.push(xstateRound());
  } else {
    xs.push(xstateRound());
    fsm.push(fsmCoreRound());
  }
  acc.push(acceptsRound());
}

const fsmCoreTps = Math.round(median(fsm));
const xstateTps = Math.round(median(xs));
const ratio = Number((fsmCoreTps / xstateTps).toFixed(1));
const accepts1MMs = Number(median(acc).toFixed(2));
const pass = ratio >= LIMITS.minRatio && accepts1MMs <= LIMITS.maxAccepts1MMs;
console.log(JSON.stringify({ node: process.version, fsmCoreTps, xstateTps, ratio, accepts1MMs, limits: LIMITS, pass }));
process.exitCode = pass ? 0 : 1;
