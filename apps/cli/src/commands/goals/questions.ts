import type { Question, Story } from '@ratchet/goals';
import type { Context } from '../../context.js';
import { EXIT_OK } from '../../exit-codes.js';
import { addQuestion, addQuestionResult, updateStory, updateStoryResult, type QuestionAddInput, type StoryUpdateInput } from '../../operations/notes.js';
import { withInput, type OptionBag } from '../../option-values.js';
import { questionAddInput, questionListInput, storyListInput, storyUpdateInput, type QuestionListInput, type StoryListInput } from './notes-inputs.js';
import { mapErrors, openState } from './shared.js';

/** `ratchet questions add|list` and `ratchet stories update|list`: the writes are typed operations (src/operations/notes.ts). */
export default async function questions(ctx: Context, args: string[], options: OptionBag): Promise<number> {
  const [command] = args;
  if (command === 'question-add') return withInput(questionAddInput, addQuestionCommand)(ctx, args, options);
  if (command === 'story-update') return withInput(storyUpdateInput, updateStoryCommand)(ctx, args, options);
  if (command === 'question-list') return listQuestions(ctx, questionListInput(args, options));
  return listStories(ctx, storyListInput(args, options));
}

/** `ratchet questions list`. */
async function listQuestions(ctx: Context, input: QuestionListInput): Promise<number> {
  const store = await openState(ctx, input);
  return mapErrors(ctx, async () => {
    const state = await store.read();
    const list = state.questions.filter((q) => (input.all || q.status === 'open') && (input.goal === undefined || q.goal_id === input.goal)).sort((a, b) => b.priority - a.priority || (a.id < b.id ? -1 : 1));
    if (ctx.json) ctx.emitJson({ ok: true, version: state.version, questions: list });
    else if (list.length === 0) ctx.out('no questions (ratchet questions add "..." to add one)');
    else for (const q of list) ctx.out(questionLine(q));
    return EXIT_OK;
  });
}

/** `ratchet stories list`. */
async function listStories(ctx: Context, input: StoryListInput): Promise<number> {
  const store = await openState(ctx, input);
  return mapErrors(ctx, async () => {
    const state = await store.read();
    const list = state.stories.filter((s) => input.question === undefined || s.question_id === input.question);
    if (ctx.json) ctx.emitJson({ ok: true, version: state.version, stories: list });
    else if (list.length === 0) ctx.out('no stories');
    else for (const s of list) ctx.out(storyLine(s));
    return EXIT_OK;
  });
}

/** `ratchet questions add [text]` (src/operations/notes.ts does it). */
async function addQuestionCommand(ctx: Context, input: QuestionAddInput): Promise<number> {
  const w = await addQuestion(ctx, input);
  const result = addQuestionResult(w);
  if (ctx.json) ctx.emitJson(result.document);
  else ctx.out(`${w.changed ? 'saved' : 'unchanged'} ${questionLine(w.result)}  (state v${w.version})`);
  return result.exitCode;
}

/** `ratchet stories update`. */
async function updateStoryCommand(ctx: Context, input: StoryUpdateInput): Promise<number> {
  const w = await updateStory(ctx, input);
  const result = updateStoryResult(w);
  if (ctx.json) ctx.emitJson(result.document);
  else ctx.out(`${w.changed ? 'saved' : 'unchanged'} ${storyLine(w.result)}  (state v${w.version})`);
  return result.exitCode;
}

function questionLine(q: Question): string {
  return `${q.id}  [${q.status}]  p${q.priority}${q.goal_id !== undefined ? `  ${q.goal_id}` : ''}  ${q.text.split('\n')[0]!}`;
}

function storyLine(s: Story): string {
  return `${s.id}  [${s.status}]  ${s.question_id}  ${s.acceptance_criteria.length} criteria, ${s.evidence_refs.length} evidence  ${s.narrative.split('\n')[0]!}`;
}
