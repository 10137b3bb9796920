/**
 * FTL's campaign phases as an fsm-core machine: EXPLORE -> PLAN -> BUILD -> OBSERVE -> COMPLETE.
 * Every phase change is an event in the campaign's `phaseLog`, and the machine decides which are
 * legal, so `campaign complete` cannot skip the observer (FTL's protocol only asked the agent to
 * run it): completing needs OBSERVE, reached by an observation (`memory observe` on the campaign)
 * or by `skip_observe` with a reason, which is logged.
 *
 *   EXPLORE  --explored-->  PLAN  --planned-->  BUILD   --observed | skip_observe-->  OBSERVE  --complete--> COMPLETE
 *   add-tasks in EXPLORE logs both `explored` and `planned`; more tasks in BUILD (planned) stay in
 *   BUILD. Tasks added or moved on after an observation (OBSERVE --planned|resumed--> BUILD: a
 *   claim, a status change, a propagated block) need a new one: the observer must see the end.
 *   OBSERVE --observed--> OBSERVE: observing again is fine.
 *
 * Campaigns written before phases existed have none: `migratePhase` infers it on read (no tasks:
 * EXPLORE; tasks: BUILD; archived: COMPLETE) and logs that it was inferred.
 */
import { loadDefinition, transition, type MapDefinitionDocument, type Machine } from '@ratchet/fsm-core';
import { CampaignError } from './errors.js';
import type { Campaign, CampaignPhase, PhaseEvent, PhaseEventName } from './types.js';

export const CAMPAIGN_PHASES = ['EXPLORE', 'PLAN', 'BUILD', 'OBSERVE', 'COMPLETE'] as const;
export const PHASE_EVENTS = ['explored', 'planned', 'resumed', 'observed', 'skip_observe', 'complete'] as const;
/** The log keeps the latest events; a long campaign observed after every wave must not grow without bound. */
export const MAX_PHASE_LOG = 500;

export const CAMPAIGN_PHASE_MACHINE: MapDefinitionDocument = {
  id: 'campaign-phases',
  description: "FTL's campaign phases; symbols are the events that move a campaign on.",
  states: [...CAMPAIGN_PHASES],
  alphabet: [...PHASE_EVENTS],
  transitions: {
    EXPLORE: { explored: 'PLAN' },
    PLAN: { planned: 'BUILD' },
    BUILD: { planned: 'BUILD', resumed: 'BUILD', observed: 'OBSERVE', skip_observe: 'OBSERVE' },
    OBSERVE: { observed: 'OBSERVE', planned: 'BUILD', resumed: 'BUILD', complete: 'COMPLETE' },
  },
  start_state: 'EXPLORE',
  accept_states: ['COMPLETE'],
};

let machine: Machine | undefined;

export function phaseMachine(): Machine {
  if (machine === undefined) {
    const { machine: m, diagnostics } = loadDefinition(CAMPAIGN_PHASE_MACHINE);
    if (m === undefined) throw new Error(`the built-in campaign phase machine is invalid: ${JSON.stringify(diagnostics)}`);
    machine = m;
  }
  return machine;
}

/** The phase of a campaign that has none recorded (written before phases existed). */
export function inferPhase(campaign: Pick<Campaign, 'status' | 'tasks'>): CampaignPhase {
  if (campaign.status === 'complete') return 'COMPLETE';
  return campaign.tasks.length === 0 ? 'EXPLORE' : 'BUILD';
}

/** Give a campaign without a phase (an old one, an imported one) its inferred phase (mutates; a no-op when it has one). */
export function migratePhase(campaign: Campaign, at: string, reason = 'the campaign was written before phases existed'): Campaign {
  if (campaign.phase !== undefined) return campaign;
  campaign.phase = inferPhase(campaign);
  campaign.phaseLog = [...(campaign.phaseLog ?? []), { event: 'inferred', from: null, to: campaign.phase, at, reason }];
  return campaign;
}

const WHY_NOT: Partial<Record<PhaseEventName, string>> = {
  complete: 'the observer has not run on this campaign since its tasks last changed: run `ratchet memory observe`, or complete with --skip-observe "<why there is nothing to learn>"',
  explored: 'exploration is over once a campaign has a plan',
  planned: 'a finished campaign takes no new tasks',
  resumed: 'tasks move once a plan is registered (add-tasks)',
  observed: 'there is nothing to observe before tasks are added',
  skip_observe: 'there is nothing to observe before tasks are added',
};

/**
 * Task work happened (a claim, a status change, a propagated block): an observation made before it
 * is stale, so OBSERVE goes back to BUILD (logged once; BUILD stays BUILD without a log entry).
 */
export function noteTaskWork(campaign: Campaign, at: string): void {
  if (campaign.phase === 'OBSERVE') firePhase(campaign, 'resumed', { at, reason: 'tasks changed after the observation' });
}

/**
 * Apply `event` to the campaign's phase (mutates): logged with its time and reason, or refused with
 * `illegal-transition` saying what to do instead. `skip_observe` needs a reason.
 */
export function firePhase(campaign: Campaign, event: PhaseEventName, options: { at: string; reason?: string | undefined }): CampaignPhase {
  const from = campaign.phase ?? inferPhase(campaign);
  if (event === 'skip_observe' && (options.reason === undefined || options.reason.trim() === '')) {
    throw new CampaignError('invalid-argument', 'skipping the observer needs a reason (it is recorded in the campaign log)');
  }
  const to = transition(phaseMachine(), from, event) as CampaignPhase | undefined;
  if (to === undefined) throw new CampaignError('illegal-transition', `campaign ${campaign.id} is in phase ${from}; ${event} is not allowed there: ${WHY_NOT[event] ?? 'see the phase machine'}`);
  campaign.phase = to;
  const entry: PhaseEvent = { event, from, to, at: options.at, ...(options.reason === undefined ? {} : { reason: options.reason.trim() }) };
  campaign.phaseLog = [...(campaign.phaseLog ?? []), entry].slice(-MAX_PHASE_LOG);
  return to;
}
