/** Every tool, in the order tools/list shows them. */
import type { ToolSpec } from '../tool-spec.js';
import { campaignTools } from './campaign.js';
import { flowTools } from './flow.js';
import { goalsTools } from './goals.js';
import { jixoTools } from './jixo.js';
import { lessonsTools } from './lessons.js';
import { memoryTools } from './memory.js';
import { orchestratorTools } from './orchestrator.js';
import { notesTools } from './notes.js';
import { planTools } from './plan.js';
import { protocolTools } from './protocol.js';
import { turnTools } from './turn.js';
import { workspaceTools } from './workspace.js';

export const TOOLS: readonly ToolSpec[] = [
  ...orchestratorTools,
  ...planTools,
  ...campaignTools,
  ...memoryTools,
  ...flowTools,
  ...jixoTools,
  ...goalsTools,
  ...turnTools,
  ...notesTools,
  ...lessonsTools,
  ...workspaceTools,
  ...protocolTools,
];
