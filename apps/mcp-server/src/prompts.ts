/**
 * MCP prompts: short templates a client offers as commands (Claude Code: /mcp__ratchet__start_task).
 * Each names the tools to call, in order; the tools themselves enforce the order (a call out of
 * turn is refused with what to do instead), so a prompt only saves the agent from guessing.
 */
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type * as zod from 'zod';
import type { Zod } from './tool-spec.js';

interface PromptSpec {
  name: string;
  title: string;
  description: string;
  args: (z: Zod) => Record<string, zod.ZodType<string | undefined>>;
  text: (a: Record<string, string | undefined>) => string;
}

export const PROMPTS: readonly PromptSpec[] = [
  {
    name: 'start_task',
    title: 'Start a task',
    description: 'Begin a task under Ratchet: orientation, then a plan.',
    args: (z) => ({ task_id: z.string().describe('the task id, e.g. an issue number'), goal: z.string().optional().describe('what the task is for') }),
    text: (a) =>
      `Start task ${a.task_id}${a.goal === undefined ? '' : ` (${a.goal})`} under Ratchet.\n` +
      `1. Call task_start with task_id "${a.task_id}" and read its orientation and next step.\n` +
      '2. Read the protocols (resources ratchet://protocols/...) that apply.\n' +
      '3. Call memory_query with the task in a few words: avoid the failures it returns.\n' +
      '4. Then plan (the plan prompt): write a plan file, plan_lint it, run_plan it.',
  },
  {
    name: 'plan',
    title: 'Plan the task',
    description: 'Write a plan file, lint it, and submit it.',
    args: (z) => ({ plan: z.string().optional().describe('the plan file (default plans/main.txt)') }),
    text: (a) => {
      const plan = a.plan ?? 'plans/main.txt';
      return (
        `Write the plan for the current task in ${plan}, one command per line, starting with set_plan.\n` +
        `1. Call plan_lint with plan "${plan}"; fix every error it reports, with its line, and lint again until it is clean.\n` +
        `2. Call run_plan with plan "${plan}": the task moves to EXECUTING.\n` +
        '3. Then run the steps (the next_step prompt).'
      );
    },
  },
  {
    name: 'next_step',
    title: 'Run the next step',
    description: 'Execute the plan one step at a time.',
    args: () => ({}),
    text: () =>
      'Run the plan one step at a time:\n' +
      '1. Call run_next: it names the step to execute now.\n' +
      '2. Do exactly that step, nothing else.\n' +
      '3. Call run_done (failed: true and a message when it failed).\n' +
      '4. Repeat until run_next has no step; then write the post-mortem (the post_mortem prompt).\n' +
      'Call run_status whenever unsure where the task stands.',
  },
  {
    name: 'post_mortem',
    title: 'Post-mortem',
    description: 'Close the task, write its post-mortem and lessons, and submit it.',
    args: (z) => ({ task_id: z.string() }),
    text: (a) =>
      `Finish task ${a.task_id}:\n` +
      `1. Call task_close with task_id "${a.task_id}": it writes postmortems/${a.task_id}.md.\n` +
      '2. Fill in every section of that file: what happened, what went wrong, and for each lesson a **Lesson:** line and an **Action:** line.\n' +
      `3. Call lessons_extract with postmortem "postmortems/${a.task_id}.md".\n` +
      `4. Call task_submit with task_id "${a.task_id}"; if it is refused, fix what it names and submit again.`,
  },
];

export function registerPrompts(server: McpServer, z: Zod): void {
  for (const prompt of PROMPTS) {
    server.registerPrompt(prompt.name, { title: prompt.title, description: prompt.description, argsSchema: prompt.args(z) }, (args: Record<string, string | undefined>) => ({
      messages: [{ role: 'user' as const, content: { type: 'text' as const, text: prompt.text(args) } }],
    }));
  }
}
