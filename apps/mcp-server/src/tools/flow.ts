/** Step/phase workflows with gates (`ratchet flow`). */
import { operationTool, type ToolSpec, type Zod } from '../tool-spec.js';

const values = (z: Zod) => z.record(z.string(), z.string()).optional();
const texts = (z: Zod) => z.array(z.string()).optional();

export const flowTools: ToolSpec[] = [
  operationTool({
    name: 'flow_list',
    title: 'List flows',
    commands: ['flow list'],
    preset: 'standard',
    description: 'Flows you can start, and the saved sessions.',
    shape: () => ({}),
    // The CLI's typed operations (src/operations/flows.ts), loaded on the first call.
    operation: async (ctx) => (await import('@ratchet/cli')).flowsOperations.list(ctx),
  }),
  operationTool({
    name: 'flow_start',
    title: 'Start a flow',
    commands: ['flow start'],
    paths: ['flow'],
    preset: 'standard',
    description: 'Start a flow session; returns the first step and the next command.',
    shape: (z) => ({ flow: z.string(), session: z.string(), input: values(z), agent: z.boolean().optional(), then: texts(z) }),
    // The flow path is confined to the project (paths) before the operation runs; the session is recorded for the Stop hook.
    operation: async (ctx, a) => (await import('@ratchet/cli')).flowsOperations.start(ctx, { flow: a.flow, session: a.session, inputs: a.input, agent: a.agent, then: a.then }),
  }),
  operationTool({
    name: 'flow_advance',
    title: 'Advance a flow',
    commands: ['flow advance'],
    preset: 'standard',
    description: "Leave the current step once its gates hold (else says what is missing); output: the step's work, as text.",
    shape: (z) => ({
      session: z.string(),
      loop: z.boolean().optional(),
      remediate: z.boolean().optional(),
      set: values(z),
      note: texts(z),
      question: texts(z),
      output: z.string().optional(),
      then: texts(z),
    }),
    // The step's output is the text itself: no file for a model to name.
    operation: async (ctx, a) =>
      (await import('@ratchet/cli')).flowsOperations.advance(ctx, {
        session: a.session,
        loop: a.loop,
        remediate: a.remediate,
        set: a.set,
        notes: a.note,
        questions: a.question,
        output: a.output,
        then: a.then,
      }),
  }),
  operationTool({
    name: 'flow_status',
    title: 'Flow status',
    commands: ['flow status'],
    preset: 'standard',
    description: "A session's current step and next command; without session, list sessions.",
    shape: (z) => ({ session: z.string().optional() }),
    operation: async (ctx, a) => (await import('@ratchet/cli')).flowsOperations.status(ctx, { session: a.session }),
  }),
  operationTool({
    name: 'flow_complete_branch',
    title: 'Complete a flow branch',
    commands: ['flow complete-branch'],
    preset: 'all',
    description: 'Mark a branch (STEP:BRANCH) of a parallel step complete.',
    shape: (z) => ({ session: z.string(), branch: z.string() }),
    operation: async (ctx, a) => (await import('@ratchet/cli')).flowsOperations.completeBranch(ctx, { session: a.session, branch: a.branch }),
  }),
  operationTool({
    name: 'flow_halt',
    title: 'Halt a flow',
    commands: ['flow halt'],
    preset: 'all',
    description: 'Stop a flow session with a reason.',
    shape: (z) => ({ session: z.string(), reason: z.string() }),
    operation: async (ctx, a) => (await import('@ratchet/cli')).flowsOperations.halt(ctx, { session: a.session, reason: a.reason }),
  }),
  // No flow_resume: resuming a halt is the user's decision, with their answers, from their own shell
  // (`ratchet flow resume`); this server speaks for the agent that halted.
];
