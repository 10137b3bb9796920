import { describe, expect, it } from 'vitest';
import { POST_MORTEM_GAPS, createSession, nextDirective, selfCorrectionGaps, type SelfCorrectionEvidence, type Session } from '../src/index.js';

const now = (): Date => new Date('2030-01-01T00:00:00Z');
const closed: Session = { ...createSession('T-1', { now }), state: 'POST_MORTEM', postMortem: { path: 'postmortems/T-1.md', templateSha256: '0'.repeat(64), outcome: 'SUCCESS' } };
const clean: SelfCorrectionEvidence = { emptySections: [], lessonsInPostMortem: 1, notExtracted: [], unsettled: [], staleTargets: [] };

describe('selfCorrectionGaps', () => {
  it('nothing missing: the task may be submitted', () => {
    expect(selfCorrectionGaps(closed, clean)).toEqual([]);
  });

  it('lists every gap, in the order the steps are taken, each with its command', () => {
    const gaps = selfCorrectionGaps(closed, { emptySections: ['2. What Went Well'], lessonsInPostMortem: 0, notExtracted: ['lesson-a'], unsettled: ['lesson-b'], staleTargets: ['AGENTS.md'] });
    expect(gaps.map((g) => [g.code, g.command])).toEqual([
      ['postmortem-section-empty', 'write the "2. What Went Well" section of postmortems/T-1.md'],
      ['no-lessons', 'write at least one lesson in postmortems/T-1.md'],
      ['not-extracted', 'ratchet lessons extract postmortems/T-1.md'],
      ['lessons-unsettled', 'ratchet lessons apply'],
      ['agents-stale', 'ratchet protocol compile'],
    ]);
  });

  it('substance: thin sections keep the task in POST_MORTEM; lessons applied without apply\'s record, or in a file Ratchet did not write, are gaps', () => {
    const gaps = selfCorrectionGaps(closed, {
      ...clean,
      thinSections: [{ section: '1. Summary', message: 'section "1. Summary" says too little: 0 real words of its own, at least 3 needed' }],
      unproven: [{ id: 'lesson-a', problem: 'it is marked applied without the record `ratchet lessons apply` writes' }],
      lessonsUntracked: 'knowledge_core/lessons.jsonl holds this task\'s lessons but no digest record',
    });
    expect(gaps.map((g) => g.code)).toEqual(['postmortem-section-thin', 'lessons-untracked', 'lessons-unproven']);
    expect(gaps[0]).toMatchObject({ what: 'postmortems/T-1.md: section "1. Summary" says too little: 0 real words of its own, at least 3 needed', command: 'write the "1. Summary" section of postmortems/T-1.md' });
    expect(POST_MORTEM_GAPS.has('postmortem-section-thin')).toBe(true);
    expect(gaps[2]!.what).toContain('lesson-a: it is marked applied without the record');
  });

  it('a deleted post-mortem is the one gap', () => {
    expect(selfCorrectionGaps(closed, { ...clean, postMortemMissing: true }).map((g) => g.code)).toEqual(['postmortem-missing']);
  });

  it('the directive after close names the self-correction steps, submit last', () => {
    for (const state of ['POST_MORTEM', 'SELF_CORRECTING']) expect(nextDirective({ ...closed, state }).commands.at(-1)).toBe('ratchet task submit --task-id T-1');
  });
});
