/**
 * The whole quickstart tour, in the order a newcomer meets the capabilities: state machines and
 * plans, a task through master control, the self-correction loop on its post-mortem, a campaign
 * with memory, a two-runner JIXO job, a flow, and a turn of goals.
 */
import { CAMPAIGN_STEPS } from './campaign-steps.js';
import { FLOW_STEPS } from './flow-steps.js';
import { GOALS_STEPS } from './goals-steps.js';
import { JIXO_STEPS } from './jixo-steps.js';
import { MEMORY_STEPS } from './memory-steps.js';
import { PROTOCOL_STEPS } from './protocol-steps.js';
import { CORE_STEPS, type TourStep } from './steps.js';

export type { TourStep };

export const TOUR: readonly TourStep[] = [...CORE_STEPS, ...PROTOCOL_STEPS, ...CAMPAIGN_STEPS, ...MEMORY_STEPS, ...JIXO_STEPS, ...FLOW_STEPS, ...GOALS_STEPS];
