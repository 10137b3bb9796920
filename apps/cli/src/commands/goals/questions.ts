import { upsertQuestion, upsertStory, type Question, type Story } from '@ratchet/goals';
import type { Context } from '../../context.js';
import { CliError } from '../../errors.js';
import { EXIT_OK } from '../../exit-codes.js';
import { actorOf, expectedVersion, mapErrors, numberOption, openState, type Options } from './shared.js';

/** `ratchet questions add|list` and `ratchet stories update|list`: thin wrappers over upsertQuestion / upsertStory. */
export default async function questions(ctx: Context, args: string[], options: Options): Promise<number> {
  const [command, text] = args;
  const store = await openState(ctx, options);
  return mapErrors(ctx, async () => {
    if (command === 'question-list' || command === 'story-list') {
      const state = await store.read();
      if (command === 'question-list') {
        const list = state.questions.filter((q) => (options.all === true || q.status === 'open') && (options.goal === undefined || q.goal_id === options.goal)).sort((a, b) => b.priority - a.priority || (a.id < b.id ? -1 : 1));
        if (ctx.json) ctx.emitJson({ ok: true, version: state.version, questions: list });
        else if (list.length === 0) ctx.out('no questions (ratchet questions add "..." to add one)');
        else for (const q of list) ctx.out(questionLine(q));
      } else {
        const list = state.stories.filter((s) => options.question === undefined || s.question_id === options.question);
        if (ctx.json) ctx.emitJson({ ok: true, version: state.version, stories: list });
        else if (list.length === 0) ctx.out('no stories');
        else for (const s of list) ctx.out(storyLine(s));
      }
      return EXIT_OK;
    }
    const meta = { actor: actorOf(ctx, options), expected_version: expectedVersion(options) };
    if (command === 'question-add') {
      if (text === undefined && options.id === undefined) throw new CliError('questions add: missing <text> (or --id of a question to update)');
      const r = await store.mutate({ ...meta, op: 'question.upsert' }, (tx) =>
        upsertQuestion(tx, {
          id: options.id as string | undefined,
          // upsertQuestion requires a text only for a new question.
          text: text as string,
          goal_id: options.goal as string | undefined,
          priority: numberOption(options.priority, '--priority'),
          status: options.status as Question['status'] | undefined,
          owner: options.owner as 'agent' | 'user' | undefined,
          tags: options.tag as string[] | undefined,
        }),
      );
      if (ctx.json) ctx.emitJson({ ok: true, version: r.version, question: r.result });
      else ctx.out(`${r.entry === undefined ? 'unchanged' : 'saved'} ${questionLine(r.result)}  (state v${r.version})`);
      return EXIT_OK;
    }
    if (options.id === undefined && options.question === undefined) throw new CliError('stories update: give --id or --question');
    const r = await store.mutate({ ...meta, op: 'story.upsert' }, (tx) =>
      upsertStory(tx, {
        id: options.id as string | undefined,
        question_id: options.question as string | undefined,
        narrative: options.narrative as string | undefined,
        acceptance_criteria: options.criterion as string[] | undefined,
        evidence_refs: options.evidence as string[] | undefined,
        status: options.status as Story['status'] | undefined,
      }),
    );
    if (ctx.json) ctx.emitJson({ ok: true, version: r.version, story: r.result });
    else ctx.out(`${r.entry === undefined ? 'unchanged' : 'saved'} ${storyLine(r.result)}  (state v${r.version})`);
    return EXIT_OK;
  });
}

function questionLine(q: Question): string {
  return `${q.id}  [${q.status}]  p${q.priority}${q.goal_id !== undefined ? `  ${q.goal_id}` : ''}  ${q.text.split('\n')[0]!}`;
}

function storyLine(s: Story): string {
  return `${s.id}  [${s.status}]  ${s.question_id}  ${s.acceptance_criteria.length} criteria, ${s.evidence_refs.length} evidence  ${s.narrative.split('\n')[0]!}`;
}
