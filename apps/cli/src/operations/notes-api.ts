/**
 * The notes operations (questions, stories, the Scratch Page, proposals) as the faces that take
 * results as values call them (the MCP tools). Declared apart from notes.ts so that the CLI's
 * public types import no library type; the operations load on the first call.
 */
import type { Context } from '../context.js';
import type { OperationResult } from './invoke.js';
import type {
  ProposalAmendInput,
  ProposalSubmitInput,
  QuestionAddInput,
  ScratchAddInput,
  ScratchArchiveInput,
  ScratchExpireInput,
  ScratchPromoteInput,
  ScratchReviewInput,
  StoryUpdateInput,
} from './notes-input.js';

const load = () => import('./notes.js');

export const notesOperations = {
  addQuestion: async (ctx: Context, input: QuestionAddInput): Promise<OperationResult> => (await load()).addQuestionResult(await (await load()).addQuestion(ctx, input)),
  updateStory: async (ctx: Context, input: StoryUpdateInput): Promise<OperationResult> => (await load()).updateStoryResult(await (await load()).updateStory(ctx, input)),
  addScratch: async (ctx: Context, input: ScratchAddInput): Promise<OperationResult> => (await load()).scratchItemResult(await (await load()).addScratch(ctx, input)),
  reviewScratch: async (ctx: Context, input: ScratchReviewInput): Promise<OperationResult> => (await load()).scratchItemResult(await (await load()).reviewScratch(ctx, input)),
  archiveScratch: async (ctx: Context, input: ScratchArchiveInput): Promise<OperationResult> => (await load()).scratchItemResult(await (await load()).archiveScratch(ctx, input)),
  expireScratch: async (ctx: Context, input: ScratchExpireInput): Promise<OperationResult> => (await load()).expireScratchResult(await (await load()).expireScratch(ctx, input)),
  promoteScratch: async (ctx: Context, input: ScratchPromoteInput): Promise<OperationResult> => (await load()).promoteScratchResult(await (await load()).promoteScratch(ctx, input)),
  submitProposal: async (ctx: Context, input: ProposalSubmitInput): Promise<OperationResult> => (await load()).submitProposalResult(await (await load()).submitRegistryProposal(ctx, input)),
  amendProposal: async (ctx: Context, input: ProposalAmendInput): Promise<OperationResult> => (await load()).amendProposalResult(await (await load()).amendRegistryProposal(ctx, input)),
};
