/**
 * The plan vocabulary section of the compiled block: the lines a plan may contain, one list per plan
 * language. The compiler does not read dialects (that is the plan linter's business): the caller
 * passes each one already described, and this only renders it, deterministically, like the rest.
 */
import { code } from './markdown.js';

export interface PlanVocabulary {
  /** The dialect's id, e.g. `fdc`. */
  id: string;
  /** Where the list comes from, so a reader knows what to edit (e.g. `protocols/fdc.dialect.json`). */
  source: string;
  /** Which plans it governs, Markdown (e.g. "Task plans (`ratchet run plan`)"). */
  purpose: string;
  /** The dialect's own description, when it has one. */
  description?: string | undefined;
  /** One entry per line shape: the usage is shown as code, the meaning as one line of Markdown. */
  entries: readonly { usage: string; meaning: string }[];
}

export function renderVocabularies(vocabularies: readonly PlanVocabulary[]): string[] {
  if (vocabularies.length === 0) return [];
  const out = ['---', '', '## Plan vocabulary', ''];
  out.push(
    'The lines a plan may contain, one command per line: generated from the dialects `ratchet plan lint` checks plans against, ' +
      'so this list changes when a dialect does. Which orders are legal is the FSM the dialect names.',
    '',
  );
  for (const v of vocabularies) {
    out.push(`### Dialect ${code(v.id)} (${code(v.source)})`, '', oneLine(v.purpose), '');
    if (v.description !== undefined && v.description.trim() !== '') out.push(oneLine(v.description), '');
    for (const e of v.entries) out.push(`- ${code(e.usage)}: ${oneLine(e.meaning)}`);
    out.push('');
  }
  return out;
}

// A list item is one line: a newline in the data would end it (or start a heading).
function oneLine(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}
