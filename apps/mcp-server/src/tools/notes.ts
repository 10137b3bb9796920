/** Questions, stories, the Scratch Page and action-type proposals (`ratchet questions|stories|scratch|proposals`). */
import { requiredArg } from '../tool-args.js';
import { operationTool, type ToolSpec } from '../tool-spec.js';
import { expectedVersion } from './goals.js';

/** The CLI's notes operations (src/operations/notes.ts), loaded on the first call. */
const notes = async () => (await import('@ratchet/cli')).notesOperations;

export const notesTools: ToolSpec[] = [
  operationTool({
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
    operation: async (ctx, a) =>
      (await notes()).addQuestion(ctx, { expectedVersion: a.expected_version, text: a.text, id: a.id, goal: a.goal, priority: a.priority, status: a.status, tags: a.tag }),
  }),
  operationTool({
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
    operation: async (ctx, a) =>
      (await notes()).updateStory(ctx, { expectedVersion: a.expected_version, id: a.id, question: a.question, narrative: a.narrative, criteria: a.criterion, evidence: a.evidence, status: a.status }),
  }),
  operationTool({
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
    operation: async (ctx, a) =>
      (await notes()).addScratch(ctx, {
        expectedVersion: a.expected_version,
        content: a.content,
        source: a.source,
        id: a.id,
        type: a.type,
        confidence: a.confidence,
        tags: a.tag,
        ttl: a.ttl,
        expires: a.expires,
      }),
  }),
  operationTool({
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
    command: (a) => `scratch ${a.action}`,
    operation: async (ctx, a) => {
      const ops = await notes();
      const expectedVersion = a.expected_version;
      if (a.action === 'expire') return ops.expireScratch(ctx, { expectedVersion });
      const id = await requiredArg(a, 'id', a.id);
      if (a.action === 'archive') return ops.archiveScratch(ctx, { expectedVersion, id });
      if (a.action === 'review') return ops.reviewScratch(ctx, { expectedVersion, id, status: await requiredArg(a, 'status', a.status), note: a.note });
      return ops.promoteScratch(ctx, { expectedVersion, id, to: await requiredArg(a, 'to', a.to), title: a.title, actionType: a.action_type, priority: a.priority, goal: a.goal });
    },
  }),
  operationTool({
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
    command: (a) => `proposals ${a.action ?? 'submit'}`,
    operation: async (ctx, a) => {
      const ops = await notes();
      // The proposal object is its JSON text, placed as standard input was (`<stdin>`:line:col); else the file.
      const source = a.proposal !== undefined ? { text: JSON.stringify(a.proposal) } : a.file !== undefined ? { file: a.file } : undefined;
      const common = { expectedVersion: a.expected_version, source, typeId: a.type_id, rationale: a.rationale };
      if (a.action === 'amend') return ops.amendProposal(ctx, { ...common, id: await requiredArg(a, 'id', a.id) });
      return ops.submitProposal(ctx, { ...common, kind: a.kind });
    },
  }),
];
