// What one validation strategy would cost at start-up: the hand-written validators the CLI uses for
// the files it reads on every call (task session, memory, campaign) against ajv standalone code
// generated from the same shipped JSON Schemas (what fsm-core and goals use). Each sample is a fresh
// process that imports the validator and checks a real document written by `ratchet quickstart`;
// the time is measured inside the child (import + validate), medians over interleaved rounds.
// No limit: CONTRIBUTING.md ("Validators") records the decision these figures support.
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createRequire } from 'node:module';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { Ajv2020 } from 'ajv/dist/2020.js';
import standalone from 'ajv/dist/standalone/index.js';
import { interleavedMedians } from './lib/interleave.mjs';

const root = fileURLToPath(new URL('../..', import.meta.url));
const bin = join(root, 'apps/cli/bin/ratchet.js');
const runs = Number(process.env.RATCHET_BENCH_RUNS ?? 25);
// Under results/ (ignored by git) so the children resolve @ratchet/store from the repository.
mkdirSync(join(root, 'tests/bench/results'), { recursive: true });
const work = mkdtempSync(join(root, 'tests/bench/results/validators-'));
const tour = join(work, 'tour');
const q = spawnSync(process.execPath, [bin, 'quickstart', '--dir', tour], { encoding: 'utf8' });
if (q.status !== 0) throw new Error(`quickstart failed: ${q.stderr}`);
const archive = join(tour, '.ratchet/archive', readdirSync(join(tour, '.ratchet/archive')).find((f) => f.endsWith('.json')));
const campaign = JSON.parse(readFileSync(archive, 'utf8')).campaign;
writeFileSync(join(work, 'campaign.json'), JSON.stringify({ $schema: 'https://unpkg.com/@ratchet/campaign-dag/schemas/campaign.schema.json', schemaVersion: 1, ...campaign }));

const formats = {
  session: { data: join(tour, '.ratchet/session.json'), schema: 'packages/orchestrator/schemas/session.schema.json', source: 'packages/orchestrator/src/validate.ts', exportName: 'sessionValidator' },
  memory: { data: join(tour, '.ratchet/memory.json'), schema: 'packages/memory/schemas/memory.schema.json', source: 'packages/memory/src/validate.ts', exportName: 'memoryDataSchema' },
  campaign: { data: join(work, 'campaign.json'), schema: 'packages/campaign-dag/schemas/campaign.schema.json', source: 'packages/campaign-dag/src/validate.ts', exportName: 'campaignValidator' },
};

// The hand-written side as the CLI ships it: bundled (one file, as in the CLI's bundle), the store
// left out since every command has loaded it before it validates (the child loads it untimed).
const esbuild = createRequire(join(root, 'apps/cli/package.json'))('esbuild');
for (const [name, f] of Object.entries(formats)) {
  f.hand = join(work, `${name}.hand.mjs`);
  esbuild.buildSync({ entryPoints: [join(root, f.source)], bundle: true, format: 'esm', platform: 'node', outfile: f.hand, external: ['@ratchet/store'], logLevel: 'error' });
  f.handBytes = readFileSync(f.hand, 'utf8').length;
}

// The generated side, compiled the way packages/goals/scripts/generate.ts compiles its validators.
for (const [name, f] of Object.entries(formats)) {
  const schema = JSON.parse(readFileSync(join(root, f.schema), 'utf8'));
  // unicode: false as in goals: lengths by .length, so the code needs no runtime helper (`require`).
  const ajv = new Ajv2020({ allErrors: true, inlineRefs: false, strict: false, unicode: false, validateFormats: false, code: { source: true, esm: true }, logger: false });
  ajv.addSchema(schema);
  f.generated = join(work, `${name}.generated.mjs`);
  const code = standalone.default(ajv, { validate: schema.$id });
  if (/\brequire\s*\(/u.test(code)) throw new Error(`${name}: the generated validator needs a runtime helper`);
  f.generatedBytes = code.length;
  writeFileSync(f.generated, code);
}

const child = join(work, 'child.mjs');
writeFileSync(
  child,
  `const [mod, name, file] = process.argv.slice(2);
const { readFileSync } = await import('node:fs');
const doc = JSON.parse(readFileSync(file, 'utf8'));
// Loaded before the clock starts for both sides: the CLI has the store loaded before it validates.
await import('@ratchet/store');
const t0 = process.hrtime.bigint();
const m = await import(mod);
let ok;
if (name === 'validate') ok = m.validate(doc);
else { const { $schema, schemaVersion, ...data } = doc; ok = m[name].safeParse(data).success; }
const ms = Number(process.hrtime.bigint() - t0) / 1e6;
if (!ok) { process.stderr.write('document refused'); process.exit(3); }
process.stdout.write(String(ms));
`,
);
const sample = (mod, name, data) => Number(execFileSync(process.execPath, ['--conditions=default', child, pathToFileURL(mod).href, name, data], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] }));

const commands = {};
for (const [name, f] of Object.entries(formats)) {
  commands[`${name}.hand`] = () => sample(f.hand, f.exportName, f.data);
  commands[`${name}.generated`] = () => sample(f.generated, 'validate', f.data);
}
const med = interleavedMedians(Object.keys(commands), runs, (k) => commands[k]());
const result = {
  runs,
  medianMs: Object.fromEntries(Object.entries(med).map(([k, v]) => [k, Number(v.toFixed(2))])),
  bytes: Object.fromEntries(Object.entries(formats).map(([k, f]) => [k, { hand: f.handBytes, generated: f.generatedBytes }])),
  extraMsGenerated: Object.fromEntries(Object.keys(formats).map((k) => [k, Number((med[`${k}.generated`] - med[`${k}.hand`]).toFixed(2))])),
};
rmSync(work, { recursive: true, force: true });
console.log(JSON.stringify(result));
