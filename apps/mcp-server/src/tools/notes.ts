/** Questions, stories, the Scratch Page and action-type proposals (`ratchet questions|stories|scratch|proposals`). */
import { cmd, need } from '../argv.js';
import type { ToolSpec } from '../tool-spec.js';
import { expectedVersion } from './goals.js';

export const notesTools: ToolSpec[] = [
  {
    name: 'questions_add',
    title: 'Add or edit a question',
    commands: ['questions add'],
    preset: 'all',
    description: 'Add a question, or with the id of one change only the fields given.',
    shape: (z) => ({
      expected_version: expectedVersion(z),
      text: z.string().optional().describe('required for a new question'),
      id: z.string().optional(),
      goal: z.string().optional(),
      priority: z.number().optional(),
      status: z.enum(['open', 'answered', 'archived']).optional(),
      tag: z.array(z.string()).optional(),
    }),
    argv: (a) => cmd('questions', 'add').opt('--expected-version', a.expected_version).opt('--id', a.id).opt('--goal', a.goal).opt('--priority', a.priority).opt('--status', a.status).opt('--tag', a.tag).arg(a.text),
  },
  {
    name: 'stories_update',
    title: 'Update a story',
    commands: ['stories update'],
    preset: 'all',
    description: "Create or update a story (by id, or the question's story).",
    shape: (z) => ({
      expected_version: expectedVersion(z),
      id: z.string().optional(),
      question: z.string().optional(),
      narrative: z.string().optional(),
      criterion: z.array(z.string()).optional(),
      evidence: z.array(z.string()).optional(),
      status: z.enum(['draft', 'active', 'accepted', 'archived']).optional(),
    }),
    argv: (a) =>
      cmd('stories', 'update').opt('--expected-version', a.expected_version)
        .opt('--id', a.id)
        .opt('--question', a.question)
        .opt('--narrative', a.narrative)
        .opt('--criterion', a.criterion)
        .opt('--evidence', a.evidence)
        .opt('--status', a.status),
  },
  {
    name: 'scratch_add',
    title: 'Note an observation',
    commands: ['scratch add'],
    preset: 'all',
    description: 'Note an observation on the Scratch Page (expires after ttl, default P7D).',
    shape: (z) => ({
      expected_version: expectedVersion(z),
      content: z.string(),
      source: z.string().describe('the tool, daemon or file that saw it'),
      id: z.string().optional(),
      type: z.enum(['observation', 'story', 'insight', 'alert']).optional(),
      confidence: z.number().min(0).max(1).optional(),
      tag: z.array(z.string()).optional(),
      ttl: z.string().optional().describe('ISO 8601 duration'),
      expires: z.string().optional(),
    }),
    argv: (a) =>
      cmd('scratch', 'add').opt('--expected-version', a.expected_version)
        .opt('--source', a.source)
        .opt('--id', a.id)
        .opt('--type', a.type)
        .opt('--confidence', a.confidence)
        .opt('--tag', a.tag)
        .opt('--ttl', a.ttl)
        .opt('--expires', a.expires)
        .arg(a.content),
  },
  {
    name: 'scratch_update',
    title: 'Update the Scratch Page',
    commands: ['scratch review', 'scratch promote', 'scratch archive', 'scratch expire'],
    preset: 'all',
    description: 'review (status, note), promote to a goal or action, archive an item, or expire the old ones.',
    shape: (z) => ({
      expected_version: expectedVersion(z),
      action: z.enum(['review', 'promote', 'archive', 'expire']),
      id: z.string().optional().describe('every action but expire'),
      status: z.enum(['active', 'pending_review', 'resolved']).optional(),
      note: z.string().optional(),
      to: z.enum(['goal', 'action']).optional(),
      title: z.string().optional(),
      action_type: z.string().optional(),
      priority: z.number().optional(),
      goal: z.string().optional(),
    }),
    argv: (a) => {
      if (a.action === 'expire') return cmd('scratch', 'expire').opt('--expected-version', a.expected_version);
      if (a.action === 'archive') return cmd('scratch', 'archive').opt('--expected-version', a.expected_version).arg(need(a, 'id'));
      if (a.action === 'review') return cmd('scratch', 'review').opt('--expected-version', a.expected_version).opt('--note', a.note).arg(need(a, 'id')).arg(need(a, 'status'));
      return cmd('scratch', 'promote').opt('--expected-version', a.expected_version)
        .opt('--title', a.title)
        .opt('--action-type', a.action_type)
        .opt('--priority', a.priority)
        .opt('--goal', a.goal)
        .arg(need(a, 'id'))
        .arg(need(a, 'to'));
    },
  },
  {
    name: 'proposals_submit',
    title: 'Propose an action type',
    commands: ['proposals submit', 'proposals amend'],
    paths: ['file'],
    preset: 'all',
    description: 'Propose adding, modifying or deprecating an action type; amend: change an open proposal (id).',
    shape: (z) => ({
      expected_version: expectedVersion(z),
      action: z.enum(['submit', 'amend']).optional(),
      id: z.string().optional().describe('amend: the proposal'),
      proposal: z.record(z.string(), z.unknown()).optional().describe('the proposal or amendment JSON'),
      file: z.string().optional(),
      kind: z.enum(['add', 'modify', 'deprecate']).optional(),
      type_id: z.string().optional(),
      rationale: z.string().optional(),
    }),
    argv: (a) => {
      const file = a.proposal === undefined ? a.file : '-';
      if (a.action === 'amend') return cmd('proposals', 'amend').opt('--expected-version', a.expected_version).opt('--type-id', a.type_id).opt('--rationale', a.rationale).arg(need(a, 'id')).arg(file);
      return cmd('proposals', 'submit').opt('--expected-version', a.expected_version).opt('--kind', a.kind).opt('--type-id', a.type_id).opt('--rationale', a.rationale).arg(file);
    },
    stdin: (a) => (a.proposal === undefined ? undefined : JSON.stringify(a.proposal)),
  },
];
