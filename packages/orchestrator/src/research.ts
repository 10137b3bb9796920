/**
 * The L4 deep-research planner: a plan for any topic that lints clean both in the research dialect
 * (protocols/research.dialect.json) and in the project's default plan language (fdc), so the same
 * file runs as the research cycle's plan (`ratchet research plan`) and as a `call_plan` sub-plan of
 * a task's plan (sub-plans are linted in the caller's language). The original's planner emitted `#`
 * comments its own linter rejected; this one's output is property-tested against both languages for
 * arbitrary topics (newlines, `#`, braces, unicode, the empty string), so whatever a user types can
 * never produce a bad plan.
 *
 * Both languages accept: set_plan, reads, one plan_step_complete, writes, close. A web search is a
 * tool run, which the research FSM allows only before that step and the fdc FSM only after it, so
 * the plan names no search command: the synthesis step tells the agent to search where it can.
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
 * The plan: review the project's documents, synthesise (searching beyond the project where the
 * agent can), write the report, close. `researchId` defaults to the topic's slug; `dir` is where
 * reports go (default `research`).
 */
export function researchPlan(rawTopic: string, options: { researchId?: string; dir?: string } = {}): ResearchPlan {
  const topic = normaliseTopic(rawTopic);
  const researchId = options.researchId ?? researchSlug(topic);
  const reportPath = `${options.dir ?? RESEARCH_DIR}/${researchId}/${REPORT_FILE}`;
  const lines = [
    `# L4 deep research: ${topic}`,
    '# Lints clean in the research dialect and in the default plan language, so it also runs as a call_plan sub-plan.',
    `set_plan Deep research: ${topic}`,
    '',
    '# Gather: review what the project already has on the topic.',
    'list_files .',
    `grep ${topic}`,
    '',
    '# Synthesise (search and read beyond the project where you can), then write the report: findings, sources, open questions.',
    `plan_step_complete Synthesise the findings on: ${topic}`,
    `create_file_with_block ${reportPath}`,
    '',
    'run_in_bash_session close',
  ];
  return { researchId, topic, reportPath, text: `${lines.join('\n')}\n` };
}

/** Where `researchPlan` writes by default: research/<id>/plan.txt, with research/<id>/report.md beside it. */
export const RESEARCH_DIR = 'research';
export const PLAN_FILE = 'plan.txt';
export const REPORT_FILE = 'report.md';

/**
 * The report a research plan must leave behind, from the plan's place: research/<id>/plan.txt ->
 * research/<id>/report.md; undefined for any other plan. The layout is the contract, so a research
 * plan is recognised whether it runs as the research cycle or as a call_plan sub-plan.
 */
export function researchReportPath(planPath: string, dir = RESEARCH_DIR): string | undefined {
  const prefix = `${dir}/`;
  if (!planPath.startsWith(prefix) || !planPath.endsWith(`/${PLAN_FILE}`)) return undefined;
  const id = planPath.slice(prefix.length, -PLAN_FILE.length - 1);
  return id === '' || id.includes('/') ? undefined : `${prefix}${id}/${REPORT_FILE}`;
}

/** Why a research report does not count as written: `missing`, or `empty` (blank, or headings and comments only). */
export interface ResearchReportProblem {
  code: 'missing' | 'empty';
  /** Names the file, e.g. "research/x/report.md is empty". */
  message: string;
}

/**
 * Why a research report does not count as written, or undefined when it does: missing, empty or
 * whitespace only, or nothing but headings and HTML comments (a title, a template's sections). Pure:
 * the caller reads the file (`text` undefined: it does not exist).
 */
export function researchReportProblem(reportPath: string, text: string | undefined): ResearchReportProblem | undefined {
  if (text === undefined) return { code: 'missing', message: `${reportPath} does not exist` };
  if (text.trim() === '') return { code: 'empty', message: `${reportPath} is empty` };
  const content = text
    .replace(/<!--[\s\S]*?(?:-->|$)/g, '')
    .split(/\r?\n/)
    .filter((line) => line.trim() !== '' && !/^ {0,3}#{1,6}(?:\s|$)/.test(line));
  return content.length === 0 ? { code: 'empty', message: `${reportPath} has only headings, no findings` } : undefined;
}
