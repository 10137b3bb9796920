// Seeded filler text for the memory benchmarks: the same words every run, from a vocabulary of
// error messages and tooling names, so distractor entries look like real memory without being any.
export const VOCAB = (
  'import module error pytest fixture conftest timeout database migration schema react render hook state async await ' +
  'promise rejected null undefined property type cast compile linker docker container network port permission denied ' +
  'file path config env variable token auth session cache redis queue worker retry deadlock lock transaction index ' +
  'query slow memory leak heap stack overflow recursion parse json yaml xml encoding unicode locale date timezone ' +
  'webpack vite esbuild bundle chunk eslint prettier typescript generic inference monorepo workspace symlink pnpm npm ' +
  'lockfile registry proxy certificate tls handshake socket refused reset dns resolve kubernetes pod helm terraform'
).split(' ');

/** A linear congruential generator from `seed`, and `words(n)`: n vocabulary words, some numbered. */
export function seededWords(seed) {
  let state = seed;
  const rnd = () => ((state = (state * 1103515245 + 12345) % 2147483648) / 2147483648);
  const words = (n) => Array.from({ length: n }, () => VOCAB[Math.floor(rnd() * VOCAB.length)] + (rnd() < 0.25 ? String(Math.floor(rnd() * 50)) : '')).join(' ');
  return { rnd, words };
}
