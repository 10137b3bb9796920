/**
 * The L4 deep-research planner: a plan in the research dialect (protocols/research.dialect.json)
 * for any topic. The original's planner emitted `#` comments its own linter rejected; this one's
 * output is property-tested to lint clean against the research FSM for arbitrary topics (newlines,
 * `#`, braces, unicode, the empty string), so whatever a user types can never produce a bad plan.
 */
import { PLACEHOLDER } from '@ratchet/plan-lint';

export interface ResearchPlan {
  /** A slug for the report directory, derived from the topic. */
  researchId: string;
  /** The topic as it appears in the plan: one line, control characters removed, at most 200 characters. */
  topic: string;
  /** Project-relative path of the report the plan creates. */
  reportPath: string;
  /** The plan text (LF line endings, trailing newline). */
  text: string;
}

const MAX_TOPIC = 200;

/**
 * One printable line: control characters and line breaks become spaces, whitespace collapsed, and
 * the `{file}` placeholder (only meaningful inside for_each_file) written as `(file)`.
 */
export function normaliseTopic(topic: string): string {
  const flat = topic
    // eslint-disable-next-line no-control-regex
    .replace(/[\u0000-\u001f\u007f-\u009f\u2028\u2029]/g, ' ')
    .replaceAll(PLACEHOLDER, '(file)')
    .replace(/\s+/g, ' ')
    .trim();
  const cut = [...flat].slice(0, MAX_TOPIC).join('').trim();
  return cut === '' ? 'untitled topic' : cut;
}

/** Lower-case ASCII words joined by `-`, at most 48 characters; `research` when nothing is left. */
export function researchSlug(topic: string): string {
  const slug = topic
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 48)
    .replace(/-+$/, '');
  return slug === '' ? 'research' : slug;
}

/**
 * The plan: gather (a web search, the project's files), synthesise, write the report, close.
 * `researchId` defaults to the topic's slug; `dir` is where reports go (default `research`).
 */
export function researchPlan(rawTopic: string, options: { researchId?: string; dir?: string } = {}): ResearchPlan {
  const topic = normaliseTopic(rawTopic);
  const researchId = options.researchId ?? researchSlug(topic);
  const reportPath = `${options.dir ?? 'research'}/${researchId}/report.md`;
  const lines = [
    `# L4 deep research: ${topic}`,
    '# Research dialect (protocols/research.dialect.json): gather, synthesise, report, close.',
    `set_plan Deep research: ${topic}`,
    '',
    '# Gather: search, then read what the project already has.',
    `google_search ${topic}`,
    'list_files .',
    `grep ${topic}`,
    '',
    '# Synthesise the findings, then write the report.',
    `plan_step_complete Synthesise the findings on: ${topic}`,
    `create_file_with_block ${reportPath}`,
    '',
    'run_in_bash_session close',
  ];
  return { researchId, topic, reportPath, text: `${lines.join('\n')}\n` };
}
