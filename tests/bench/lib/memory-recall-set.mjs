// The recall benchmark's memory and queries (tests/bench/memory-recall.mjs). Entries are written as an
// observer stores them (error text as the trigger, the fix a builder found); paraphrased queries are
// written as an agent describes a problem before it has seen the error, and share no word (after
// stemming, stop words aside) with the entry they should find: the script checks that and fails if not.
// Exact queries are pieces of the error text, as an agent pastes them.

/** [name, trigger, fix, cost] */
export const ENTRIES = [
  ['mongo-port-conflict', 'MongoServerSelectionError: connect ECONNREFUSED 127.0.0.1:27017 after docker-compose up; EADDRINUSE on 27017', 'A local mongod already holds 27017: stop it (brew services stop mongodb-community) or map the container to 27018 and set MONGO_URL.', 5000],
  ['jwt-secret-missing', 'Error: JWT_SECRET is not defined (jsonwebtoken)', 'The test runner never loads .env.test: load dotenv in the setup file, or pass JWT_SECRET in CI.', 4000],
  ['npm-eresolve-peer', 'npm ERR! code ERESOLVE unable to resolve dependency tree: peer react@"^17.0.0" from react-beautiful-dnd@13.1.1', 'The library does not support React 18 yet: pin react 17, or install with --legacy-peer-deps and record why in the README.', 3000],
  ['jest-timeout-5000', 'thrown: "Exceeded timeout of 5000 ms for a test." in checkout.integration.spec.ts', 'The payment sandbox answers in 6-9 s: raise jest.setTimeout for integration specs only and mock the gateway in unit specs.', 3000],
  ['esm-require-error', 'Error [ERR_REQUIRE_ESM]: require() of ES Module node_modules/node-fetch/src/index.js not supported', 'node-fetch 3 is ESM-only: use dynamic import(), switch to the global fetch of Node 18+, or pin node-fetch@2 for CommonJS code.', 3000],
  ['ts-cannot-find-module', "TS2307: Cannot find module '@app/utils' or its corresponding type declarations", 'The tsconfig paths alias is not known to the bundler: add the same alias to vite.config resolve.alias, or use relative imports.', 2000],
  ['heap-out-of-memory', 'FATAL ERROR: Reached heap limit Allocation failed - JavaScript heap out of memory during next build', 'Raise NODE_OPTIONS=--max-old-space-size=4096 for the build step and drop source maps in CI.', 4000],
  ['eacces-global-install', "npm ERR! Error: EACCES: permission denied, mkdir '/usr/local/lib/node_modules/pnpm'", 'Never sudo npm: set an npm prefix in the home directory or use corepack / npx instead of a global install.', 1500],
  ['flaky-date-test', 'expected "2024-03-10" to equal "2024-03-09" in formatDate.spec (fails between 23:00 and 01:00)', 'The test builds Date objects in local time; set TZ=UTC in the test script and construct dates with Date.UTC.', 3000],
  ['cors-preflight', "Access to fetch at 'http://api.local:4000/graphql' from origin 'http://localhost:5173' has been blocked by CORS policy", 'The API answers OPTIONS without Access-Control-Allow-Origin: enable the cors middleware before the router, allowing the Vite dev origin.', 2000],
  ['docker-arm-image', 'exec /usr/local/bin/docker-entrypoint.sh: exec format error', 'The image was built for amd64 on an M1 laptop: build with --platform linux/amd64,linux/arm64 (buildx) or pull the multi-arch tag.', 3000],
  ['git-lfs-pointer', 'Error: file does not start with RIFF id: assets/sounds/click.wav is a Git LFS pointer', 'The clone skipped LFS objects: run git lfs install && git lfs pull, and enable lfs: true in the checkout action.', 2000],
  ['self-signed-cert', 'Error: self-signed certificate in certificate chain (SELF_SIGNED_CERT_IN_CHAIN) when npm fetches from the registry', 'The corporate proxy re-signs TLS: point NODE_EXTRA_CA_CERTS at the company CA bundle instead of strict-ssl=false.', 2000],
  ['prisma-migrate-drift', 'Drift detected: Your database schema is not in sync with your migration history (prisma migrate dev)', 'Someone altered a table by hand: create a baseline migration with prisma migrate diff, never reset the shared database.', 4000],
  ['unhandled-rejection-exit', 'node:internal/process/promises: UnhandledPromiseRejection: This error originated either by throwing inside of an async function without a catch block', 'Await the promise in the route handler and add a process-level handler that logs and exits 1 so the orchestrator restarts it.', 2000],
  ['enospc-watchers', 'Error: ENOSPC: System limit for number of file watchers reached, watch /app/src', 'Raise fs.inotify.max_user_watches (sysctl) or exclude node_modules from the dev server watcher.', 1500],
  ['redis-econnreset', 'Error: read ECONNRESET at TCP.onStreamRead (ioredis) after 5 minutes idle', 'The managed Redis closes idle connections after 300 s: enable keepAlive and set the client to reconnect with backoff.', 2500],
  ['pnpm-frozen-lockfile', 'ERR_PNPM_OUTDATED_LOCKFILE Cannot install with "frozen-lockfile" because pnpm-lock.yaml is not up to date with package.json', 'Someone changed package.json without running pnpm install: regenerate pnpm-lock.yaml locally and commit it.', 1500],
  ['python-venv-missing', "ModuleNotFoundError: No module named 'requests' when running pytest from the IDE", 'The IDE uses the system interpreter: select .venv/bin/python as the project interpreter and install requirements there.', 2000],
  ['stripe-rate-limit', 'StripeRateLimitError: Request rate limit exceeded (429) while seeding fixtures', 'The seed script creates 500 customers in parallel: batch to 20 concurrent calls and retry 429 with exponential backoff.', 2500],
  ['crlf-shell-script', '/bin/bash^M: bad interpreter: No such file or directory when running ./scripts/deploy.sh', 'The script was committed with Windows line endings: add *.sh text eol=lf to .gitattributes and renormalise.', 1500],
  ['react-hydration-mismatch', 'Warning: Text content did not match. Server: "Jan 5" Client: "Jan 6" (hydration)', 'The component formats dates with the visitor locale on the client only: render a fixed locale server-side or defer to useEffect.', 2500],
  ['sqlite-locked', 'SqliteError: database is locked (SQLITE_BUSY) with vitest threads', 'Each worker opens the same file: give each test worker its own database file, or run that project with a single thread.', 2500],
  ['k8s-crashloop-probe', 'Back-off restarting failed container: liveness probe failed: HTTP probe failed with statuscode: 503', 'The app needs 40 s to warm its cache: add a startupProbe and move the readiness check off the cache.', 3000],
  ['float-money-rounding', 'expected 0.30000000000000004 to be 0.3 in invoice totals', 'Money is summed as binary floats: store cents as integers (or use a decimal library) and round only when displaying.', 2000],
  ['case-sensitive-import', "Module not found: Error: Can't resolve './Components/Button' on the Linux build but works on macOS", 'The file is components/button.tsx: macOS filesystems ignore case, Linux does not; fix the import and enable forceConsistentCasingInFileNames.', 2000],
];

/** Paraphrases: [query, target entry name]. */
export const PARAPHRASES = [
  ['tests cannot reach the database on localhost', 'mongo-port-conflict'],
  ['signing the auth token fails since no key is configured', 'jwt-secret-missing'],
  ['two packages disagree about which major of the UI framework they want', 'npm-eresolve-peer'],
  ['end-to-end checks of the billing flow give up: provider too slow', 'jest-timeout-5000'],
  ['a cjs package loads a dependency published solely as ecmascript', 'esm-require-error'],
  ['typescript compiler says the @lib shortcut is unresolved', 'ts-cannot-find-module'],
  ['production bundle dies because ram is exhausted', 'heap-out-of-memory'],
  ['adding a tool system-wide is forbidden for my user', 'eacces-global-install'],
  ['assertion on a day string breaks only late at night because of the timezone', 'flaky-date-test'],
  ['the browser forbids calls from the frontend to the backend on another domain', 'cors-preflight'],
  ['container binary will not start on the server: wrong cpu architecture', 'docker-arm-image'],
  ['audio clips in my repo working copy are tiny placeholders', 'git-lfs-pointer'],
  ['downloading libraries behind the office firewall fails https verification', 'self-signed-cert'],
  ['orm complains the live db structure was edited manually without a changelog', 'prisma-migrate-drift'],
  ['nobody dealt with a rejected future so the server crashed', 'unhandled-rejection-exit'],
  ['hot reload stops noticing edits: kernel ran short of notification handles', 'enospc-watchers'],
  ['cache link gets dropped when quiet for a long time', 'redis-econnreset'],
  ["ci refuses the dependency setup: the pinned tree doesn't reflect manifest edits", 'pnpm-frozen-lockfile'],
  ['the editor launches the specs with a global runtime so a third-party library import is absent', 'python-venv-missing'],
  ['payments provider throttles us when populating sample data', 'stripe-rate-limit'],
  ['the release helper breaks due to dos carriage returns', 'crlf-shell-script'],
  ['ssr markup differs from what the page shows after load for a day label', 'react-hydration-mismatch'],
  ['parallel specs fight over one embedded db', 'sqlite-locked'],
  ['pod keeps getting killed because the health endpoint returns unavailable', 'k8s-crashloop-probe'],
  ['currency sums are off by tiny fractions', 'float-money-rounding'],
  ['capitalisation of a relative require differs between apple laptops and the ci server', 'case-sensitive-import'],
  ['the document database listener is taken by another instance, so ours cannot start', 'mongo-port-conflict'],
  ['issuing bearer credentials throws: hmac passphrase unset', 'jwt-secret-missing'],
  ['a check runs longer than the allowed limit and is aborted', 'jest-timeout-5000'],
  ['a serverless sql engine rejects writes while a second job holds it', 'sqlite-locked'],
  ['adding modules breaks since two of them want different majors of the same framework', 'npm-eresolve-peer'],
  ['webpack compile exhausts ram', 'heap-out-of-memory'],
];

/** Exact error strings, as pasted: [query, target entry name]. */
export const EXACT = [
  ['ECONNREFUSED 127.0.0.1:27017', 'mongo-port-conflict'],
  ['secretOrPrivateKey must have a value', 'jwt-secret-missing'],
  ['npm ERR! code ERESOLVE', 'npm-eresolve-peer'],
  ['Exceeded timeout of 5000 ms for a test', 'jest-timeout-5000'],
  ['ERR_REQUIRE_ESM', 'esm-require-error'],
  ["TS2307: Cannot find module '@app/utils'", 'ts-cannot-find-module'],
  ['JavaScript heap out of memory', 'heap-out-of-memory'],
  ['exec format error', 'docker-arm-image'],
  ['SELF_SIGNED_CERT_IN_CHAIN', 'self-signed-cert'],
  ['ERR_PNPM_OUTDATED_LOCKFILE', 'pnpm-frozen-lockfile'],
  ['/bin/bash^M: bad interpreter', 'crlf-shell-script'],
  ['SQLITE_BUSY database is locked', 'sqlite-locked'],
  ['Text content did not match', 'react-hydration-mismatch'],
  ['System limit for number of file watchers reached', 'enospc-watchers'],
];
