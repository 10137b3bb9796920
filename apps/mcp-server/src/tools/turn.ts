/** A turn's trace and budgets (`ratchet turn start|end|trace`). */
import { cmd, need } from '../argv.js';
import type { ToolSpec } from '../tool-spec.js';

export const turnTools: ToolSpec[] = [
  {
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
    argv: (a) => cmd('turn', 'start').opt('--tokens', a.tokens).opt('--tools', a.tools).opt('--time-ms', a.time_ms).arg(a.turn),
  },
  {
    name: 'turn_end',
    title: 'End a turn',
    commands: ['turn end'],
    preset: 'all',
    description: 'End a turn (open spans end as errors), with a summary.',
    shape: (z) => ({ turn: z.string().optional(), summary: z.string().optional() }),
    argv: (a) => cmd('turn', 'end').opt('--summary', a.summary).arg(a.turn),
  },
  {
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
    argv: (a) => {
      if (a.action === 'span_start')
        return cmd('turn', 'trace', 'span', 'start')
          .opt('--component', a.component)
          .opt('--parent', a.parent)
          .opt('--depends-on', a.depends_on)
          .opt('--tokens', a.tokens)
          .opt('--tools', a.tools)
          .opt('--time-ms', a.time_ms)
          .opt('--turn', a.turn)
          .arg(need(a, 'span'));
      if (a.action === 'span_end')
        return cmd('turn', 'trace', 'span', 'end').opt('--status', a.status).opt('--tokens', a.tokens).opt('--tools', a.tools).opt('--turn', a.turn).arg(need(a, 'span'));
      return cmd('turn', 'trace', 'event')
        .opt('--span', a.span)
        .opt('--payload', a.payload === undefined ? undefined : JSON.stringify(a.payload))
        .opt('--proposal', a.proposal)
        .opt('--tokens', a.tokens)
        .opt('--tools', a.tools)
        .opt('--turn', a.turn)
        .arg(need(a, 'kind'))
        .arg(need(a, 'summary'));
    },
  },
];
