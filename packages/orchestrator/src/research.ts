/**
 * The L4 deep-research planner: the seed's Deep Research Cycle as a plan for any topic. Its phases,
 * in order: review what the project has (list_files, grep), scoping (define_scope: the questions and
 * search keywords, which `run done --message` must state), broad gathering (google_search), targeted
 * extraction (view_text_website), synthesis into the report (plan_step_complete, then the report
 * written), close.
 *
 * It lints clean in three languages, property-tested for arbitrary topics (newlines, `#`, braces,
 * unicode, the empty string): the research dialect over Ratchet's research FSM, the same dialect
 * over the original's research_fsm.json (one write, after the single step; searches before it), and
 * the project's default plan language (fdc), so the same file runs as the research cycle's plan and
 * as a `call_plan` sub-plan. That is why every gathering line is a read or a tool run, and why
 * searches are reads in fdc (a search changes no file). The report is overwritten, not created, so a
 * plan runs again (a second call, a later task) and refreshes its report; `run done` checks the
 * report changed and holds findings.
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
 * The plan for `rawTopic`: the five phases above. `researchId` defaults to the topic's slug; `dir`
 * is where reports go (default `research`).
 */
export function researchPlan(rawTopic: string, options: { researchId?: string; dir?: string } = {}): ResearchPlan {
  const topic = normaliseTopic(rawTopic);
  const researchId = options.researchId ?? researchSlug(topic);
  const reportPath = `${options.dir ?? RESEARCH_DIR}/${researchId}/${REPORT_FILE}`;
  const lines = [
    `# L4 deep research: ${topic}`,
    "# The seed's Deep Research Cycle. Lints clean in the research dialect and in the default plan language, so it also runs as a call_plan sub-plan, and runs again: the report is rewritten.",
    `set_plan Deep research: ${topic}`,
    '',
    '# 1. Review: what the project already has on the topic.',
    'list_files .',
    `grep ${topic}`,
    '',
    '# 2. Scoping: the questions to answer and the search keywords (report them with the step: ratchet run done --message "<questions; keywords>").',
    `define_scope ${topic}`,
    '',
    '# 3. Broad gathering: search with the keywords and collect the relevant sources.',
    `google_search ${topic}`,
    '',
    '# 4. Targeted extraction: read the most promising sources in full.',
    'view_text_website the most promising sources the searches found',
    '',
    '# 5. Synthesis: the findings, their sources and the open questions, written to the report.',
    `plan_step_complete Synthesise the findings on: ${topic}`,
    `overwrite_file_with_block ${reportPath}`,
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
