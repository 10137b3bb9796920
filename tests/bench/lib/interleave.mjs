// Shared by the start-up benchmarks: whole commands timed in interleaved rounds (the order rotates
// each round) so machine noise hits them alike, compared by their medians.

export const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};

/** `time(name)` for each name once to warm the file cache, then `runs` rotated rounds; the median of each. */
export function interleavedMedians(names, runs, time) {
  const samples = Object.fromEntries(names.map((k) => [k, []]));
  for (const k of names) time(k);
  for (let i = 0; i < runs; i++) {
    const order = [...names];
    for (let j = 0; j < i % order.length; j++) order.push(order.shift());
    for (const k of order) samples[k].push(time(k));
  }
  return Object.fromEntries(Object.entries(samples).map(([k, v]) => [k, median(v)]));
}
