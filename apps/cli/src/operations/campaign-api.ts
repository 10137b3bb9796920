/**
 * The campaign area as the faces that take results as values call it (the MCP tools). Declared
 * apart from campaign.ts so that the CLI's public types import no library type; the operations
 * load on the first call.
 */
import type { Context } from '../context.js';
import type { OperationResult } from './invoke.js';
import type { AddTasksInput, CampaignInput, CampaignPhaseInput, CampaignReadyInput, CompleteCampaignInput, CreateCampaignInput, HeartbeatInput, UpdateTaskInput } from './campaign-input.js';

const load = async () => import('./campaign.js');

export const campaignOperations = {
  create: async (ctx: Context, input: CreateCampaignInput): Promise<OperationResult> => {
    const ops = await load();
    return ops.createCampaignResult(ctx, await ops.createCampaignOp(ctx, input));
  },
  addTasks: async (ctx: Context, input: AddTasksInput): Promise<OperationResult> => {
    const ops = await load();
    return ops.addTasksResult(ctx, await ops.addCampaignTasks(ctx, input));
  },
  ready: async (ctx: Context, input: CampaignReadyInput): Promise<OperationResult> => {
    const ops = await load();
    return ops.campaignReadyResult(ctx, await ops.campaignReady(ctx, input));
  },
  heartbeat: async (ctx: Context, input: HeartbeatInput): Promise<OperationResult> => {
    const ops = await load();
    return ops.heartbeatResult(ctx, await ops.heartbeat(ctx, input));
  },
  updateTask: async (ctx: Context, input: UpdateTaskInput): Promise<OperationResult> => {
    const ops = await load();
    return ops.updateTaskResult(ctx, await ops.updateCampaignTask(ctx, input));
  },
  status: async (ctx: Context, input: CampaignInput): Promise<OperationResult> => {
    const ops = await load();
    return ops.campaignStatusResult(ctx, await ops.campaignStatus(ctx, input));
  },
  cascadeStatus: async (ctx: Context, input: CampaignInput): Promise<OperationResult> => {
    const ops = await load();
    return ops.cascadeStatusResult(ctx, await ops.cascadeStatus(ctx, input));
  },
  waves: async (ctx: Context, input: CampaignInput): Promise<OperationResult> => {
    const ops = await load();
    return ops.wavesResult(ctx, await ops.campaignWaves(ctx, input));
  },
  propagateBlocks: async (ctx: Context, input: CampaignInput): Promise<OperationResult> => {
    const ops = await load();
    return ops.propagateBlocksResult(ctx, await ops.propagateBlocks(ctx, input));
  },
  phase: async (ctx: Context, input: CampaignPhaseInput): Promise<OperationResult> => {
    const ops = await load();
    return ops.campaignPhaseResult(ctx, await ops.campaignPhase(ctx, input));
  },
  complete: async (ctx: Context, input: CompleteCampaignInput): Promise<OperationResult> => {
    const ops = await load();
    return ops.completeCampaignResult(ctx, await ops.completeCampaignOp(ctx, input));
  },
};
