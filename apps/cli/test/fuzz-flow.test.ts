/**
 * Issue 16, fuzzing through the CLI: flow definitions in YAML and JSON (project flows under
 * protocols/flows/), the project's flow settings JSON, and a session file (.ratchet/flows/<id>.json,
 * as a person or another tool could leave it: without the digest Ratchet keeps for its own writes).
 * YAML gets alias bombs, tags, merge keys and deep nesting. No command exits 70; list and status only
 * read; a refused start, advance, halt or resume changes no file under the project.
 */
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, test } from 'vitest';
import { RUNS, fuzz, hostile, jsonMutations, keep, ok, readOnly, refusalKeepsState, textBombs, yamlBombs } from './fuzz-inputs.js';

const repo = new URL('../../../', import.meta.url);
/** A two-step YAML flow with a gate (examples/flows), and the eight-phase JSON one with every step type (built in). */
const YAML_FLOW = readFileSync(new URL('examples/flows/review.flow.yaml', repo), 'utf8');
const JSON_FLOW = readFileSync(new URL('protocols/flows/develop-feature.flow.json', repo), 'utf8');
const SETTINGS = `${JSON.stringify({ directive: { heading: '**Next, and only this:**', warnings: ['- Your progress is saved.'] } }, null, 2)}\n`;

/** A project with both flows (and their content files) under protocols/flows/, and the settings file. */
function project(): string {
  const dir = mkdtempSync(join(tmpdir(), 'fuzz-flow-'));
  const flows = join(dir, 'protocols', 'flows');
  mkdirSync(flows, { recursive: true });
  writeFileSync(join(flows, 'review.flow.yaml'), YAML_FLOW);
  cpSync(new URL('examples/flows/review', repo), join(flows, 'review'), { recursive: true });
  writeFileSync(join(flows, 'develop-feature.flow.json'), JSON_FLOW);
  cpSync(new URL('protocols/flows/develop-feature', repo), join(flows, 'develop-feature'), { recursive: true });
  writeFileSync(join(dir, 'protocols', 'flow-settings.json'), SETTINGS);
  return dir;
}

/** Start a session of `flow` and, when it started, look at it and try to leave its first step. */
async function startAndAdvance(dir: string, flow: string, input: string[]): Promise<number[]> {
  const codes = [await readOnly(dir, ['flow', 'list'])];
  const started = await refusalKeepsState(dir, ['flow', 'start', flow, '--session', 's1', ...input]);
  codes.push(started);
  if (started === 0) codes.push(await readOnly(dir, ['flow', 'status', '--session', 's1']), await refusalKeepsState(dir, ['flow', 'advance', '--session', 's1']));
  return codes;
}

describe('fuzzing flows through the CLI (in process)', { timeout: 600_000 }, () => {
  test('flow YAML: list, start, status, advance never exit 70; a refused start saves no session', async () => {
    const dir = project();
    const restore = keep(dir);
    const yaml = hostile(YAML_FLOW, [...yamlBombs(YAML_FLOW, 0), ...yamlBombs(YAML_FLOW, YAML_FLOW.indexOf('steps:')), ...textBombs(YAML_FLOW)]);
    await fuzz('flow YAML through flow list, start, status, advance', yaml, RUNS, async (text) => {
      restore();
      writeFileSync(join(dir, 'protocols', 'flows', 'review.flow.yaml'), text);
      return startAndAdvance(dir, 'review', ['--input', 'task=demo']);
    });
  });

  test('flow JSON and flow settings JSON: list, start, status, advance never exit 70; a refused start saves no session', async () => {
    const dir = project();
    const restore = keep(dir);
    const inputs = fc.tuple(hostile(JSON_FLOW, jsonMutations(JSON_FLOW)), fc.oneof(fc.constant(SETTINGS), hostile(SETTINGS, jsonMutations(SETTINGS))));
    await fuzz('flow JSON (+ flow settings JSON) through flow list, start, status, advance', inputs, RUNS, async ([flow, settings]) => {
      restore();
      writeFileSync(join(dir, 'protocols', 'flows', 'develop-feature.flow.json'), flow);
      writeFileSync(join(dir, 'protocols', 'flow-settings.json'), settings);
      return startAndAdvance(dir, 'develop-feature', ['--input', 'task=login', '--input', 'depth=quick']);
    });
  });

  test('session JSON: status, list, advance, halt, resume, complete-branch never exit 70; a refusal leaves the session byte-identical', async () => {
    const dir = project();
    await ok(dir, ['flow', 'start', 'develop-feature', '--session', 's1', '--input', 'task=login']);
    await ok(dir, ['flow', 'halt', '--session', 's1', '--reason', 'waiting for the user']);
    const file = join(dir, '.ratchet', 'flows', 's1.json');
    const session = readFileSync(file, 'utf8');
    const restore = keep(dir);
    await fuzz('flow session JSON through 7 flow commands', hostile(session, jsonMutations(session)), RUNS, async (text) => {
      restore();
      writeFileSync(file, text);
      // Not written by Ratchet (no digest record, no last good copy): the content itself is judged.
      rmSync(`${file}.digest`, { force: true });
      rmSync(`${file}.prev`, { force: true });
      const codes = [await readOnly(dir, ['flow', 'status', '--session', 's1']), await readOnly(dir, ['flow', 'status']), await readOnly(dir, ['flow', 'list'])];
      for (const args of [
        ['flow', 'resume', '--session', 's1', '--note', 'answered'],
        ['flow', 'advance', '--session', 's1', '--note', 'n'],
        ['flow', 'complete-branch', 'a', '--session', 's1'],
        ['flow', 'halt', '--session', 's1', '--reason', 'again'],
      ]) {
        codes.push(await refusalKeepsState(dir, args));
      }
      return codes;
    });
  });
});
