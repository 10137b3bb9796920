/** A turn's trace and budgets (`ratchet turn start|end|trace`). */
import { need } from '../tool-args.js';
import { operationTool, type ToolSpec } from '../tool-spec.js';

export const turnTools: ToolSpec[] = [
  operationTool({
    name: 'turn_start',
    title: 'Start a turn',
    commands: ['turn start'],
    preset: 'all',
    description: "Start a turn's trace with its budgets.",
    shape: (z) => ({
      turn: z.string().optional().describe('default: turn-<time>'),
      tokens: z.number().int().positive().optional(),
      tools: z.number().int().positive().optional(),
      time_ms: z.number().int().positive().optional(),
    }),
    operation: async (ctx, a) => (await import('@ratchet/cli')).goalsOperations.startTurn(ctx, { turn: a.turn, tokens: a.tokens, tools: a.tools, timeMs: a.time_ms }),
  }),
  operationTool({
    name: 'turn_end',
    title: 'End a turn',
    commands: ['turn end'],
    preset: 'all',
    description: 'End a turn (open spans end as errors), with a summary.',
    shape: (z) => ({ turn: z.string().optional(), summary: z.string().optional() }),
    operation: async (ctx, a) => (await import('@ratchet/cli')).goalsOperations.endTurn(ctx, { turn: a.turn, summary: a.summary }),
  }),
  operationTool({
    name: 'turn_trace',
    title: 'Trace the turn',
    commands: ['turn trace span start', 'turn trace span end', 'turn trace event'],
    preset: 'all',
    description: 'Record into the turn: span_start, span_end (status, usage) or an event (kind, summary).',
    shape: (z) => ({
      action: z.enum(['span_start', 'span_end', 'event']),
      span: z.string().optional(),
      component: z.string().optional(),
      parent: z.string().optional(),
      depends_on: z.array(z.string()).optional(),
      status: z.enum(['ok', 'error']).optional(),
      kind: z.enum(['Decision', 'ToolInvocation', 'Observation', 'Error', 'Policy', 'Summary']).optional(),
      summary: z.string().optional(),
      payload: z.record(z.string(), z.unknown()).optional(),
      proposal: z.string().optional(),
      tokens: z.number().int().min(0).optional(),
      tools: z.number().int().min(0).optional(),
      time_ms: z.number().int().positive().optional().describe('span_start: budget'),
      turn: z.string().optional(),
    }),
    // What each action needs is refused by name before anything runs.
    command: (a) => {
      if (a.action === 'event') {
        need(a, 'kind');
        need(a, 'summary');
        return 'turn trace event';
      }
      need(a, 'span');
      return a.action === 'span_start' ? 'turn trace span start' : 'turn trace span end';
    },
    operation: async (ctx, a) => {
      const { goalsOperations } = await import('@ratchet/cli');
      // span, kind and summary are there where needed: command() refused the call otherwise.
      if (a.action === 'span_start')
        return goalsOperations.startSpan(ctx, { span: a.span ?? '', component: a.component, parent: a.parent, dependsOn: a.depends_on, tokens: a.tokens, tools: a.tools, timeMs: a.time_ms, turn: a.turn });
      if (a.action === 'span_end') return goalsOperations.endSpan(ctx, { span: a.span ?? '', status: a.status, tokens: a.tokens, tools: a.tools, turn: a.turn });
      return goalsOperations.traceEvent(ctx, { kind: a.kind ?? 'Decision', summary: a.summary ?? '', span: a.span, payload: a.payload, proposal: a.proposal, tokens: a.tokens, tools: a.tools, turn: a.turn });
    },
  }),
];
