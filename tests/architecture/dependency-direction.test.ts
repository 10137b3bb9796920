// The dependency direction of DESIGN.md and CONTRIBUTING.md, held to every package.json and every
// import specifier in packages/*/src (type-only and dynamic imports included).
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, test } from 'vitest';
import { ALLOWED_DEPENDENCIES, cycleIn, directionProblems, specifiersOf } from '../../scripts/dev/dependency-direction.js';

const root = fileURLToPath(new URL('../..', import.meta.url));

describe('dependency direction', () => {
  test('every package keeps to it, in package.json and in its imports', () => {
    expect(directionProblems(root)).toEqual([]);
  });

  test('the allowed table has no cycle and names only packages that exist', () => {
    expect(cycleIn(ALLOWED_DEPENDENCIES)).toBeUndefined();
    for (const deps of Object.values(ALLOWED_DEPENDENCIES)) for (const dep of deps) expect(Object.keys(ALLOWED_DEPENDENCIES)).toContain(dep);
    expect(cycleIn({ a: ['b'], b: ['c'], c: ['a'] })).toBe('a -> b -> c -> a');
  });

  test("CONTRIBUTING.md states the same direction: each package's allowed neighbours beyond fsm-core and store", () => {
    const text = readFileSync(join(root, 'CONTRIBUTING.md'), 'utf8');
    expect(text).toContain('`fsm-core`, `store` ← `plan-lint` ← `orchestrator`');
    expect(text).toContain('`protocol-compiler` ← `self-correction`');
    expect(text).toContain('`campaign-dag` ← `goals`');
    expect(text).toContain('tests/architecture/dependency-direction.test.ts');
  });

  test('every kind of import is seen; comments and strings are not imports', () => {
    const source = [
      "import type { A } from '@ratchet/a';",
      "export { b } from '@ratchet/b';",
      "const c = await import('@ratchet/c');",
      "import '@ratchet/d/side-effect';",
      "// import { x } from '@ratchet/not-this';",
      "const s = \"from '@ratchet/nor-this'\";",
    ].join('\n');
    expect(specifiersOf(source).sort()).toEqual(['@ratchet/a', '@ratchet/b', '@ratchet/c', '@ratchet/d/side-effect']);
  });
});

describe('the shortcuts it refuses', () => {
  let scratch: string | undefined;
  afterEach(() => {
    if (scratch !== undefined) rmSync(scratch, { recursive: true, force: true });
    scratch = undefined;
  });

  /** A copy of the repository's packages (manifests and sources only) to break on purpose. */
  const copy = (): string => {
    scratch = mkdtempSync(join(tmpdir(), 'ratchet-direction-'));
    for (const name of Object.keys(ALLOWED_DEPENDENCIES)) {
      mkdirSync(join(scratch, 'packages', name), { recursive: true });
      cpSync(join(root, 'packages', name, 'package.json'), join(scratch, 'packages', name, 'package.json'));
      cpSync(join(root, 'packages', name, 'src'), join(scratch, 'packages', name, 'src'), { recursive: true });
    }
    return scratch;
  };
  const addDependency = (at: string, pkg: string, dep: string): void => {
    const file = join(at, 'packages', pkg, 'package.json');
    const manifest = JSON.parse(readFileSync(file, 'utf8')) as { dependencies: Record<string, string> };
    manifest.dependencies[dep] = 'workspace:^';
    writeFileSync(file, JSON.stringify(manifest));
  };

  test("orchestrator importing self-correction (the violation this test was written for), even lazily or for a type", () => {
    const at = copy();
    addDependency(at, 'orchestrator', '@ratchet/self-correction');
    writeFileSync(join(at, 'packages/orchestrator/src/review.ts'), "import type { SelfCorrectionReview } from '@ratchet/self-correction';\nexport const load = () => import('@ratchet/self-correction');\nexport type R = SelfCorrectionReview;\n");
    const problems = directionProblems(at);
    expect(problems.map((p) => p.file)).toEqual(['packages/orchestrator/package.json', 'packages/orchestrator/src/review.ts', 'packages/orchestrator/src/review.ts']);
    expect(problems[1]!.message).toMatch(/imports @ratchet\/self-correction, against the direction \(orchestrator may use fsm-core, store, plan-lint\)/);
  });

  test('an allowed package used without being declared, a path into a neighbour, an app, an unknown package', () => {
    const at = copy();
    writeFileSync(join(at, 'packages/memory/src/x.ts'), "export { Store } from '../../store/src/index.js';\n");
    writeFileSync(join(at, 'packages/flows/src/x.ts'), "export * from '@ratchet/cli';\n");
    writeFileSync(join(at, 'packages/jixo-log/src/x.ts'), "export * from '@ratchet/fsm-core/render';\n");
    mkdirSync(join(at, 'packages/newcomer/src'), { recursive: true });
    writeFileSync(join(at, 'packages/newcomer/package.json'), '{"name": "@ratchet/newcomer"}');
    const jixo = JSON.parse(readFileSync(join(at, 'packages/jixo-log/package.json'), 'utf8')) as { dependencies: Record<string, string> };
    delete jixo.dependencies['@ratchet/fsm-core'];
    writeFileSync(join(at, 'packages/jixo-log/package.json'), JSON.stringify(jixo));
    const messages = directionProblems(at).map((p) => `${p.file}: ${p.message}`);
    expect(messages).toEqual(
      expect.arrayContaining([
        'packages/flows/src/x.ts: imports @ratchet/cli: nothing imports an app',
        expect.stringMatching(/^packages\/jixo-log\/src\/x\.ts: imports @ratchet\/fsm-core\/render, which package\.json does not list/),
        expect.stringMatching(/^packages\/memory\/src\/x\.ts: imports \.\.\/\.\.\/store\/src\/index\.js, outside its package/),
        expect.stringMatching(/^packages\/newcomer\/package\.json: package "newcomer" has no place/),
      ]),
    );
  });
});
