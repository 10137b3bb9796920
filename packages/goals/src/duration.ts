/** ISO 8601 durations as the registry writes them (PT24H, P1D, P2W, PT1H30M): to milliseconds. */
const DURATION = /^P(?:(\d+)W|(?:(\d+)D)?(?:T(?:(\d+)H)?(?:(\d+)M)?(?:(\d+)S)?)?)$/;

export function parseDuration(text: string): number | undefined {
  const m = DURATION.exec(text);
  if (m === null || text === 'P' || text.endsWith('T')) return undefined;
  const n = (i: number): number => (m[i] === undefined ? 0 : Number(m[i]));
  return (((n(1) * 7 + n(2)) * 24 + n(3)) * 60 + n(4)) * 60_000 + n(5) * 1000;
}
