/**
 * Command areas registered after the core commands (fsm, plan, init, quickstart). Each area module
 * defines its commands' names, options and help text and loads implementations lazily through the
 * ActionFactory, so registering an area costs nothing at start-up.
 */
import type { Command } from 'commander';
import type { ActionFactory } from './program.js';
import { registerOrchestrator } from './commands/orchestrator/register.js';
import { registerProtocol } from './commands/protocol/register.js';
import { registerLessons } from './commands/lessons/register.js';
import { registerJixo } from './commands/jixo/register.js';
import { registerFlow } from './commands/flow/register.js';
import { registerCampaign } from './commands/campaign/register.js';
import { registerWorkspace } from './commands/workspace/register.js';
import { registerMemory } from './commands/memory/register.js';
import { registerGoals } from './commands/goals/register.js';

export type RegisterArea = (program: Command, action: ActionFactory) => void;

export const AREAS: readonly RegisterArea[] = [registerOrchestrator, registerProtocol, registerLessons, registerJixo, registerFlow, registerCampaign, registerWorkspace, registerMemory, registerGoals];
