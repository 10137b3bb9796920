/**
 * The reasoning gate in a real Claude Code session with the Ratchet plugin (seed 001: reasoning
 * first): the model writes code while the prompt's reasoning flow sits at step 0, then reasons to the
 * end and tries to write and stop without starting the routed skill. Each is refused, as Claude Code
 * reports to the model; starting the skill lets the write through. Asserted from the tool results and
 * Stop continuations Claude Code sent to the model, and from the files on disk.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { repoRoot } from '../helpers.js';
import { toolResults } from './model-server.js';
import { initProject } from './project.js';
import { bash, SESSION_TIMEOUT, session, stopFeedback } from './sessions.js';

const STEPS = (JSON.parse(readFileSync(join(repoRoot, 'protocols/flows/reasoning.flow.json'), 'utf8')) as { steps: { id: string; output: { headings: string[] } }[] }).steps;

/** The Bash call that hands in reasoning step `i`'s output on standard input (step 4 routes to develop-feature). */
function reasonStep(flowSession: string, i: number): ReturnType<typeof bash> {
  const step = STEPS[i]!;
  const output = step.output.headings.map((h) => `${h}\n\nWhat step ${step.id} worked out for the login page request, in full sentences, with the reasons behind it. (${i})\n`).join('\n');
  const sets = step.id === '4' ? ' --set route=develop-feature --set confidence=HIGH' : '';
  return bash(`ratchet flow advance --session ${flowSession}${sets} --output - <<'OUTPUT'\n${output}OUTPUT`);
}

const write = (file_path: string): { tools: { name: string; input: Record<string, unknown> }[] } => ({ tools: [{ name: 'Write', input: { file_path, content: 'export const login = () => {};\n' } }] });

describe('Claude Code with the Ratchet plugin: the reasoning gate', () => {
  test('code written at step 0 is denied; after the reasoning, the write and the stop wait for the routed skill; starting it lets the write through', { timeout: SESSION_TIMEOUT }, async () => {
    const dir = initProject({ config: { reasoningFlow: 'reasoning', maxStopBlocks: 3 } });
    const target = join(dir, 'src/login.ts');
    const flowSession = 'cc-44444444-1';
    const { server } = await session(
      dir,
      'add a login page',
      [
        // The shortcut: straight to code.
        { text: 'Writing the code first.', ...write(target) },
        // Reasoning properly, step by step.
        ...STEPS.map((_s, i) => reasonStep(flowSession, i)),
        // The second shortcut: code (and a stop) without starting the routed skill.
        { text: 'Reasoning done; writing the code now.', ...write(target) },
        { text: 'Done.' },
        bash(`ratchet flow start develop-feature --session ${flowSession}-develop-feature --input task=${flowSession}`),
        { text: 'Skill started; now the code.', ...write(target) },
        { text: 'Stopping.' },
        { text: 'Stopping again.' },
      ],
      { sessionId: '44444444-aaaa-4bbb-8ccc-000000000007' },
    );

    const results = toolResults(server);
    const [early, ...rest] = results;
    expect(early?.isError).toBe(true);
    expect(early?.text).toContain(`Write of src/login.ts refused: reasoning flow session ${flowSession} is EXECUTING at step 0`);
    // Every step handed in: the reasoning completed, routed to develop-feature.
    const steps = rest.slice(0, STEPS.length);
    for (const r of steps) expect(r.isError, r.text).toBe(false);
    const afterReasoning = rest[STEPS.length];
    expect(afterReasoning?.isError).toBe(true);
    expect(afterReasoning?.text).toContain(`reasoning flow session ${flowSession} routed this request to flow develop-feature, which has not been started`);
    // The stop before the skill started was blocked, naming the exact command.
    const feedback = stopFeedback(server);
    expect(feedback[0]).toContain(`\`ratchet flow start develop-feature --session ${flowSession}-develop-feature --input task=${flowSession}\``);
    // Started: the write went through, and the skill's own step is what Stop holds now.
    expect(rest[STEPS.length + 1]?.isError).toBe(false);
    expect(rest[STEPS.length + 2]?.isError, rest[STEPS.length + 2]?.text).toBe(false);
    expect(existsSync(target)).toBe(true);
    expect(feedback.at(-1)).toContain(`flow develop-feature session ${flowSession}-develop-feature is EXECUTING at step 0`);
  });
});
