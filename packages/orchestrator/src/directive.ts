/**
 * What the agent must do next, as a function of the session alone. Every `ratchet task|run|research`
 * command ends by printing this, so an agent never has to guess the next command (and a harness can
 * call `nextDirective` itself).
 */
import { currentStep, type CurrentStep } from './current-step.js';
import { returnState } from './research-return.js';
import { selfCorrectionCommands } from './self-correction-gate.js';
import type { Session } from './types.js';

export interface Directive {
  /** The lifecycle state the directive is for. */
  state: string;
  /** One sentence: what to do now. */
  instruction: string;
  /** The commands that move the task on, most likely first (`<...>` marks a value to fill in). */
  commands: string[];
  /** The plan step to execute (EXECUTING, and RESEARCHING for the research plan's steps). */
  step?: CurrentStep & { total: number };
}

/** A person's command (refused where RATCHET_ACTOR=agent): out of a state the lifecycle cannot leave. */
export function resetCommand(taskId: string): string {
  return `ratchet task reset --task-id ${taskId} --reason "<why>"`;
}

export function nextDirective(session: Session | undefined): Directive {
  if (session === undefined || session.state === 'START') {
    return { state: session?.state ?? 'START', instruction: 'Start the task: this runs the orientation cascade.', commands: ['ratchet task start --task-id <id>'] };
  }
  const id = session.taskId;
  switch (session.state) {
    case 'ORIENTING':
      return { state: session.state, instruction: 'Orientation did not finish; run it again.', commands: [`ratchet task start --task-id ${id}`] };
    case 'PLANNING':
      return {
        state: session.state,
        instruction: 'Write a plan (one command per line, ending with the close command) and submit it; it is linted before it runs. Research first if you lack knowledge.',
        commands: ['ratchet run plan <plan-file>', 'ratchet research plan "<topic>"', `ratchet task close --task-id ${id} --abandon --reason "<why>"`],
      };
    case 'RESEARCHING': {
      // The research plan's steps are served like a plan's: one at a time, each reported with `run done`.
      const step = currentStep(session);
      if (step === undefined) return { state: session.state, instruction: 'No research step is pending; check the session.', commands: ['ratchet run status'] };
      const total = session.stack[session.stack.length - 1]!.steps.length;
      return {
        state: session.state,
        instruction: `Research: execute step ${step.index + 1} of ${total} of ${step.planPath}: ${step.line}`,
        commands: ['ratchet run done', 'ratchet run done --failed --message "<what went wrong>"'],
        step: { ...step, total },
      };
    }
    case 'AWAITING_RESULT': {
      const report = session.research?.reportPath;
      const back = returnState(session) === 'EXECUTING' ? 'the paused plan resumes' : 'back to planning';
      return {
        state: session.state,
        instruction: `The research plan is done. Check that the report${report ? ` ${report}` : ''} holds the findings, then finish the research (${back}).`,
        commands: ['ratchet research done', 'ratchet research done --failed --message "<why>"'],
      };
    }
    case 'EXECUTING': {
      const step = currentStep(session);
      if (step === undefined) return { state: session.state, instruction: 'No step is pending; check the session.', commands: ['ratchet run status'] };
      const total = session.stack[session.stack.length - 1]!.steps.length;
      return {
        state: session.state,
        instruction: `Execute step ${step.index + 1} of ${total} of ${step.planPath}: ${step.line}`,
        commands: ['ratchet run done', 'ratchet run done --failed --message "<what went wrong>"'],
        step: { ...step, total },
      };
    }
    case 'AWAITING_ANALYSIS':
      return { state: session.state, instruction: 'The plan is complete. Close the task: this logs TASK_END and writes the post-mortem template.', commands: [`ratchet task close --task-id ${id}`] };
    case 'POST_MORTEM':
    case 'SELF_CORRECTING':
      return {
        state: session.state,
        instruction: `Self-correction, in order: fill in every section of the post-mortem${session.postMortem ? ` ${session.postMortem.path}` : ''} (at least one **Lesson:**/**Action:** pair under "Corrective Actions & Lessons Learned"), extract its lessons, apply them (a failed one keeps its reason; a manual one waits for a person), recompile AGENTS.md if a protocol changed, then submit.`,
        commands: selfCorrectionCommands(session),
      };
    case 'ERROR': {
      const last = session.history[session.history.length - 1];
      return {
        state: session.state,
        instruction: `The task failed${last?.message ? ` (${last.message})` : ''}. Reorient and plan again, or close the task with a FAILURE post-mortem.`,
        commands: [`ratchet task start --task-id ${id}`, `ratchet task close --task-id ${id}`],
      };
    }
    case 'AWAITING_SUBMISSION':
      // Reached by `task submit` itself, so only a session stopped here (or edited into it) sees this.
      return {
        state: session.state,
        instruction: session.postMortem
          ? 'Self-correction is done: submit the task.'
          : `The task has no post-mortem recorded, so it cannot be submitted: a person resets it (the lifecycle has no way back from here).`,
        commands: session.postMortem ? [`ratchet task submit --task-id ${id}`] : [resetCommand(id)],
      };
    case 'DONE':
      return { state: session.state, instruction: `Task ${id} is done. Start the next one.`, commands: ['ratchet task start --task-id <id>'] };
    default:
      return {
        state: session.state,
        instruction: `The session is in state ${session.state}, which no ratchet command moves on from: a person resets it.`,
        commands: ['ratchet run status', resetCommand(id)],
      };
  }
}
