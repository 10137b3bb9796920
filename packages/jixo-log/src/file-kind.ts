/**
 * Which JIXO file a path names. JIXO v1 called the job file `*.task.md` (v2 renamed it `*.job.md`);
 * both hold a goal, never a roadmap, so reading one as a log would report bogus missing sections.
 */
export type JixoFileKind = 'log' | 'job';

export function jixoFileKind(path: string): JixoFileKind | undefined {
  if (/\.log\.md$/i.test(path)) return 'log';
  if (/\.(?:job|task)\.md$/i.test(path)) return 'job';
  return undefined;
}
