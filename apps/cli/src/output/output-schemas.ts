/**
 * JSON Schemas (draft 2020-12) of the versioned `--json` outputs (json-output.ts says what the
 * version promises). Written as plain schema objects rather than zod: the outputs embed documents
 * whose schemas the packages already publish (a session, a campaign task, a goal, a memory entry),
 * and a schema object can point at those by URL (`$ref`) instead of restating them. Only
 * scripts/generate.ts and the tests import this module; the CLI never loads it.
 */
import { OUTPUT_VERSIONS, outputSchemaUrl, type OutputName } from './json-output.js';

type Schema = Record<string, unknown>;

const SESSION = 'https://unpkg.com/@ratchet/orchestrator/schemas/session.schema.json';
const CAMPAIGN = 'https://unpkg.com/@ratchet/campaign-dag/schemas/campaign.schema.json';
const GOALS = 'https://unpkg.com/@ratchet/goals/schemas/goals-state.schema.json';
const TRACE = 'https://unpkg.com/@ratchet/goals/schemas/turn-trace.schema.json';
const FLOW_SESSION = 'https://unpkg.com/@ratchet/flows/schemas/flow-session.schema.json';

const str = (description: string, extra: Schema = {}): Schema => ({ type: 'string', description, ...extra });
const int = (description: string, extra: Schema = {}): Schema => ({ type: 'integer', description, ...extra });
const num = (description: string, extra: Schema = {}): Schema => ({ type: 'number', description, ...extra });
const bool = (description: string): Schema => ({ type: 'boolean', description });
const arr = (items: Schema, description: string): Schema => ({ type: 'array', items, description });
const nullable = (schema: Schema): Schema => ({ anyOf: [schema, { type: 'null' }], ...(schema.description !== undefined ? { description: schema.description } : {}) });
/** An object whose listed properties are typed; further properties may be added within a version. */
const obj = (properties: Record<string, Schema>, required: string[], description: string): Schema => ({ type: 'object', description, properties, required });
const ref = (url: string, description: string): Schema => ({ $ref: url, description });

/** Every successful output: `$schema` names this schema; `ok` is true unless `properties` says otherwise (plan lint). */
function success(name: OutputName, title: string, description: string, properties: Record<string, Schema>, required: string[]): Schema {
  const url = outputSchemaUrl(name);
  return {
    $schema: 'https://json-schema.org/draft/2020-12/schema',
    $id: url,
    title,
    description: `${description} Version ${OUTPUT_VERSIONS[name]}: fields may be added within this version, never removed, renamed or retyped.`,
    type: 'object',
    properties: { $schema: { const: url, description: 'This schema; dispatch on it.' }, ok: { const: true, description: 'The command succeeded (see exit code for findings).' }, ...properties },
    required: ['$schema', 'ok', ...required],
  };
}

const severity = { enum: ['error', 'warning'], description: 'error fails the lint (exit 1); warning does not.' };
const finding = obj(
  {
    ruleId: str('The rule that fired (see the plan-lint README rule table).'),
    severity,
    message: str('What is wrong, with the command and argument.'),
    file: str('Project-relative path of the plan, forward slashes.'),
    line: int('1-based line.', { minimum: 1 }),
    column: int('1-based column.', { minimum: 1 }),
    chain: arr(str('A plan path.'), 'For findings inside sub-plans: the plans on the call chain, outermost first, this one last.'),
    callSites: arr(obj({ file: str('The calling plan.'), line: int('1-based line of the call_plan.', { minimum: 1 }) }, ['file', 'line'], 'A call_plan line.'), 'For findings inside sub-plans: the call_plan lines that led here, outermost first.'),
  },
  ['ruleId', 'severity', 'message', 'file', 'line', 'column'],
  'One lint finding.',
);

const step = obj(
  {
    line: str('The plan command line to run now.'),
    planPath: str('The plan the line is in.'),
    index: int('Index of the line among its plan\'s flattened steps (0-based).', { minimum: 0 }),
    chain: arr(str('A plan path.'), 'Plan paths from the root plan to the plan the line is in.'),
  },
  ['line', 'planPath', 'index', 'chain'],
  'The plan step to execute.',
);

const directive = obj(
  {
    state: str('The lifecycle state the directive is for.'),
    instruction: str('One sentence: what to do now.'),
    commands: arr(str('A command; `<...>` marks a value to fill in.'), 'The commands that move the task on, most likely first.'),
    step: { ...step, properties: { ...(step.properties as Record<string, Schema>), total: int('Steps in that plan.', { minimum: 0 }) }, required: [...(step.required as string[]), 'total'], description: 'Present in EXECUTING (and RESEARCHING on the research plan): the step to execute.' },
  },
  ['state', 'instruction', 'commands'],
  'What the agent must do next.',
);

const legal = arr(str('A trigger name.'), 'Triggers the lifecycle machine accepts in this state.');

const signals = obj(
  {
    relevance: num('Fused relevance in [0, 1] (BM25 and the semantic signal; BM25 alone with --retrieval bm25), before the match override.', { minimum: 0, maximum: 1 }),
    match: bool('The entry\'s match regex hit the topic (relevance then counts as 1).'),
    value: num('log2(cost + 1) for failures, log2(saved + 1) for patterns.'),
    helpRatio: num('How often the entry helped when it was used.'),
    decay: num('Age decay factor in (0, 1].'),
    ageDays: num('Days since the entry was last accessed (or created).'),
  },
  ['relevance', 'match', 'value', 'helpRatio', 'decay', 'ageDays'],
  'The signals the score multiplies.',
);

const hit = obj(
  {
    kind: { enum: ['failure', 'pattern'], description: 'Which list the entry is in.' },
    name: str('The entry\'s unique name.'),
    tier: { enum: ['critical', 'productive', 'exploration'], description: 'Score tier.' },
    relevance: num('max(relevance signal, 1 if the match regex hit).'),
    score: num('The ranking score.'),
    trigger: str('What the entry is about (the error or situation).'),
    fix: str('Failures: what fixed it.'),
    match: nullable(str('Failures: the regex that recognises the error text, or null.')),
    cost: num('Failures: what the failure cost (tokens).'),
    insight: str('Patterns: what worked.'),
    saved: num('Patterns: what it saved (tokens).'),
    source: arr(str('A campaign/workspace reference.'), 'Where the entry was learned.'),
    signals,
  },
  ['kind', 'name', 'tier', 'relevance', 'score', 'trigger', 'source', 'signals'],
  'A memory entry returned for the topic.',
);

const assessed = obj(
  {
    action: ref(`${GOALS}#/$defs/PendingAction`, 'The pending action.'),
    density: num('Priority density used for ranking.'),
    overdue: bool('Past its due time.'),
    escalation_due: bool('Past its escalation time and not escalated yet (the next commit escalates it).'),
  },
  ['action', 'density', 'overdue', 'escalation_due'],
  'A pending action with its ranking.',
);

export function outputJsonSchemas(): Record<OutputName, Schema> {
  const errorUrl = outputSchemaUrl('error');
  return {
    error: {
      $schema: 'https://json-schema.org/draft/2020-12/schema',
      $id: errorUrl,
      title: 'ratchet --json: a failed command',
      description: `What every command prints with --json when it fails (exit 2 for bad input, 70 for an internal error). Version ${OUTPUT_VERSIONS.error}: fields may be added within this version, never removed, renamed or retyped.`,
      type: 'object',
      properties: {
        $schema: { const: errorUrl, description: 'This schema.' },
        ok: { const: false },
        error: obj(
          {
            code: str('A stable machine-readable code (e.g. usage, file-not-found, invalid-json).'),
            message: str('What went wrong, for a person.'),
            file: str('The file at fault, relative to --cwd when inside it.'),
            line: int('1-based line in that file.', { minimum: 1 }),
            column: int('1-based column.', { minimum: 1 }),
            pointer: str('JSON Pointer to the value at fault.'),
            problems: arr(obj({ message: str('One problem.'), file: str('Its file.'), line: int('Its line.', { minimum: 1 }), column: int('Its column.', { minimum: 1 }) }, ['message'], 'One of several problems.'), 'Every problem, in file order, when there was more than one.'),
          },
          ['code', 'message'],
          'The error.',
        ),
      },
      required: ['$schema', 'ok', 'error'],
    },
    'plan-lint': success('plan-lint', 'ratchet plan lint --json', 'Every finding in a plan and the sub-plans it calls. Exit 1 when errorCount > 0.', { ok: bool('False when a finding is an error (exit 1).'), findings: arr(finding, 'Findings in file order.'), errorCount: int('Findings with severity error.', { minimum: 0 }), warningCount: int('Findings with severity warning.', { minimum: 0 }) }, ['findings', 'errorCount', 'warningCount']),
    'run-next': success(
      'run-next',
      'ratchet run next --json',
      'The step to execute now, or what to do in the current lifecycle state. Read-only. Exit 1 (ok false) when the state has no step to execute.',
      { ok: bool('True when a step is pending (next.step); false, with exit 1, when the state has none: next says what to do instead.'), taskId: str('The task (absent before a task starts).'), sessionId: nullable(str('The session id (null for sessions written before session ids).')), state: str('The lifecycle state (START before a task starts).'), legal, next: directive },
      ['state', 'next'],
    ),
    'run-status': success(
      'run-status',
      'ratchet run status --json',
      'The task session (null before a task starts), the triggers legal now and the current step. Read-only.',
      { session: { anyOf: [ref(SESSION, 'The task session as its file holds it.'), { type: 'null' }], description: 'The task session, or null when no task has started.' }, state: { const: 'START', description: 'Only when session is null.' }, legal, allowed: arr(str('A command, e.g. `ratchet run done`.'), 'The commands that move the task on from its state (the legal triggers as commands), in the lifecycle\'s order.'), step: nullable(step) },
      ['session'],
    ),
    'task-transition': success(
      'task-transition',
      'ratchet task start|close|submit, run plan|done, research done --json',
      'A move of the task lifecycle that happened: the session after it, the triggers legal now, and what to do next. The fields after `legal` are those of the command that moved it.',
      {
        ok: bool('False only from run done when the step\'s verification could not run (error says why; the move still happened).'),
        taskId: str('The task.'),
        sessionId: nullable(str('The session id (null for sessions written before session ids).')),
        state: str('The lifecycle state after the move.'),
        legal,
        next: directive,
        report: str('task start: the orientation report file.'),
        orientation: { type: 'object', description: 'task start: the orientation report.' },
        plan: str('run plan: the plan now executing.'),
        warnings: int('run plan: lint warnings (errors reject the plan).', { minimum: 0 }),
        done: { type: 'object', description: 'run done: the step reported done or failed.' },
        verified: { type: 'object', description: 'run done: what the step\'s verification found.' },
        postMortem: str('task close: the post-mortem file to fill in.'),
        outcome: str('task close: the outcome the post-mortem records.'),
        alreadyClosed: bool('task close: the task was closed before (a retry).'),
        repaired: arr(str('A repair.'), 'task close: what was repaired in the post-mortem file.'),
        error: obj({ code: str('A stable code.'), message: str('What went wrong.') }, ['message'], 'run done: why the verification could not run.'),
      },
      ['taskId', 'state', 'legal', 'next'],
    ),
    'campaign-ready': success(
      'campaign-ready',
      'ratchet campaign ready --json',
      'Tasks whose dependencies are complete (`ready`), or with --claim the task claimed for the runner (`claimed`, null when none was ready).',
      { ready: arr(ref(`${CAMPAIGN}#/$defs/Task`, 'A ready task.'), 'Ready tasks in sequence order.'), claimed: { anyOf: [ref(`${CAMPAIGN}#/$defs/Task`, 'The claimed task, now in_progress.'), { type: 'null' }], description: 'With --claim: the task claimed, or null.' },
        leaseUntil: str('With --claim --lease: when the claim expires unless renewed with `campaign heartbeat` (ISO-8601, the store\'s clock).'),
        recovered: obj({ runner: str('Whose lease had expired.'), attempt: int('That runner\'s attempt number.', { minimum: 1 }), leaseUntil: str('When its lease expired.') }, ['runner', 'attempt', 'leaseUntil'], 'With --claim --lease: the claim took the task over from an expired lease (that attempt is recorded as lost).') },
      [],
    ),
    'campaign-status': success(
      'campaign-status',
      'ratchet campaign status --json',
      'The campaign\'s summary and every task.',
      {
        summary: obj(
          {
            id: str('Campaign id.'),
            objective: str('What the campaign is for.'),
            framework: nullable(str('The framework the campaign targets.')),
            status: str('active or complete.'),
            state: str('The cascade state (e.g. in_progress, all_complete, stuck).'),
            total: int('Number of tasks.', { minimum: 0 }),
            counts: obj({ pending: int('', { minimum: 0 }), in_progress: int('', { minimum: 0 }), complete: int('', { minimum: 0 }), blocked: int('', { minimum: 0 }) }, ['pending', 'in_progress', 'complete', 'blocked'], 'Tasks per status.'),
            rootFailures: arr(int('A task seq.'), 'Tasks blocked by their own failure.'),
            cascaded: arr(int('A task seq.'), 'Tasks blocked because a dependency is.'),
            waves: int('Number of parallel waves in the dependency graph.', { minimum: 0 }),
            deltaFiles: arr(str('A file path.'), 'Every file some task changes, sorted.'),
          },
          ['id', 'objective', 'framework', 'status', 'state', 'total', 'counts', 'rootFailures', 'cascaded', 'waves', 'deltaFiles'],
          'Counts and cascade state.',
        ),
        tasks: arr(ref(`${CAMPAIGN}#/$defs/Task`, 'A task.'), 'Every task in sequence order, as the claim queue sees them now: a task whose lease expired reads as pending.'),
        claims: arr(
          obj({ seq: int('The task.', { minimum: 0 }), runner: str('Who holds (or held) the lease.'), attempt: int('The claim\'s attempt number.', { minimum: 1 }), leaseUntil: str('When the lease ends (ISO-8601).'), expired: bool('The lease ran out: the task is ready again.') }, ['seq', 'runner', 'attempt', 'leaseUntil', 'expired'], 'A leased claim.'),
          'Leased claims of in-progress tasks (ready --claim R --lease ...).',
        ),
        lostAttempts: arr(
          obj({ seq: int('The task.', { minimum: 0 }), runner: str('Whose lease expired.'), attempt: int('The attempt lost.', { minimum: 1 }), leaseUntil: str('When the lease ran out.'), recoveredAt: str('When another claim took the task over.') }, ['seq', 'runner', 'attempt', 'leaseUntil', 'recoveredAt'], 'A lost attempt.'),
          'Leased claims that expired before their runner finished, oldest task first.',
        ),
      },
      ['summary', 'tasks'],
    ),
    'memory-query': success(
      'memory-query',
      'ratchet memory query --json',
      'The failures and patterns relevant to a topic, best first.',
      {
        file: str('The memory file read.'),
        topic: str('The topic queried.'),
        failures: arr(hit, 'Failures, best first.'),
        patterns: arr(hit, 'Patterns, best first.'),
        skipped: arr(obj({ name: str('The entry.'), reason: str('Why its match regex was not run.') }, ['name', 'reason'], 'An entry scored without its match regex.'), 'Entries whose match regex was refused or ran out of time.'),
        scanned: int('Entries considered.', { minimum: 0 }),
      },
      ['file', 'topic', 'failures', 'patterns', 'skipped', 'scanned'],
    ),
    'memory-explain': success(
      'memory-explain',
      'ratchet memory explain --json',
      'Why each entry ranks where it does for a topic (or why it was not returned).',
      {
        file: str('The memory file read.'),
        topic: str('The topic.'),
        explanations: arr(
          obj(
            {
              kind: { enum: ['failure', 'pattern'] },
              name: str('The entry.'),
              returned: bool('In the list `memory query` would return.'),
              rank: int('Its rank in that list (1-based) when returned.', { minimum: 1 }),
              excludedBecause: str('Why it was not returned.'),
              tier: { enum: ['critical', 'productive', 'exploration'] },
              score: num('The ranking score.'),
              signals,
              terms: arr(obj({ term: str('A query term.'), tf: num('Occurrences in the entry.'), idf: num('Inverse document frequency.') }, ['term'], 'One term\'s contribution.'), 'BM25 per query term.'),
              factors: arr(obj({ signal: { enum: ['relevance', 'value', 'helpRatio', 'decay'] }, value: num('The factor.') }, ['signal', 'value'], 'A multiplicative factor.'), 'The factors of the score, in order.'),
              retrieval: obj(
                {
                  bm25: obj({ score: num('BM25 relevance in [0, 1].'), rank: int('Rank among all entries by this signal (absent at 0).', { minimum: 1 }) }, ['score'], 'The lexical signal.'),
                  semantic: obj(
                    { score: num('Semantic relevance in [0, 1].'), rank: int('Rank among all entries by this signal (absent at 0).', { minimum: 1 }), source: { enum: ['builtin', 'embedder'] } },
                    ['score', 'source'],
                    'The semantic signal: built-in (concepts, stems, n-grams) or the configured embedder. Absent with --retrieval bm25.',
                  ),
                  fused: obj({ score: num('1 - (1 - bm25) x (1 - 0.9 x semantic).'), rank: int('Rank among all entries (absent at 0).', { minimum: 1 }) }, ['score'], 'The fused relevance.'),
                },
                ['bm25', 'fused'],
                'Each retrieval signal, and the fused relevance.',
              ),
              semantic: arr(
                obj({ word: str('A query word (stemmed).'), weight: num('Its weight (idf).'), via: str('How it met the entry: word, concept:<name>, ngram.'), credit: num('Credit in [0, 1].') }, ['word', 'weight', 'credit'], 'One query word.'),
                'How each query word met the entry in the built-in semantic signal.',
              ),
            },
            ['kind', 'name', 'returned', 'score', 'signals', 'factors'],
            'One entry\'s explanation.',
          ),
          'Explanations, best first.',
        ),
      },
      ['file', 'topic', 'explanations'],
    ),
    'turn-assess': success(
      'turn-assess',
      'ratchet turn assess --json',
      'The start of a turn: the goals, pending actions and questions that matter now, ranked. Read-only.',
      {
        version: int('The goals state version assessed (pass it to `turn commit --expected-version`).', { minimum: 0 }),
        goals: arr(ref(`${GOALS}#/$defs/Goal`, 'An active goal.'), 'Top goals, best first.'),
        actions: arr(assessed, 'Top pending actions overall.'),
        by_owner: obj({ agent: arr(assessed, 'The agent\'s.'), user: arr(assessed, 'The user\'s.') }, ['agent', 'user'], 'Top pending actions per owner.'),
        questions: arr(obj({ question: ref(`${GOALS}#/$defs/Question`, 'An open question.'), story: ref(`${GOALS}#/$defs/Story`, 'The story that raised it.') }, ['question'], 'A question to ask.'), 'Top open questions.'),
        counts: obj({ pending: int('', { minimum: 0 }), agent: int('', { minimum: 0 }), user: int('', { minimum: 0 }), overdue: int('', { minimum: 0 }), escalation_due: int('', { minimum: 0 }) }, ['pending', 'agent', 'user', 'overdue', 'escalation_due'], 'Totals over all pending actions.'),
      },
      ['version', 'goals', 'actions', 'by_owner', 'questions', 'counts'],
    ),
    'actions-update': success(
      'actions-update',
      'ratchet actions update --json',
      "An action after its title, description, priority, effort, due date, goal or blocking flag changed. The agent cannot change a user-owned action's (an error document, exit 1).",
      {
        version: int('The goals state version after the change (unchanged when nothing changed).', { minimum: 0 }),
        action: ref(`${GOALS}#/$defs/PendingAction`, 'The action as it is now.'),
      },
      ['version', 'action'],
    ),
    'flow-decline': success(
      'flow-decline',
      'ratchet flow decline --json',
      "The finished session after the user declined the flow it routed to: `session.state.handoff.declined` holds the reason; the directive no longer starts the routed flow.",
      {
        outcome: { const: 'declined', description: 'What the command did.' },
        flow: obj({ id: str('The flow.'), title: str('Its title.'), kind: { enum: ['protocol', 'skill'] } }, ['id', 'title', 'kind'], 'The session\'s flow.'),
        session: obj(
          {
            id: str('The session id.'),
            status: { enum: ['COMPLETED', 'FULLY_COMPLETE'], description: 'A finished session.' },
            current: { type: 'null', description: 'No current step: the session is finished.' },
            mode: { enum: ['normal', 'agent'] },
            file: str('The session file, relative to --cwd.'),
            state: obj(
              {
                sessionId: str('The session id.'),
                handoff: obj(
                  { flow: str('The flow it routed to.'), session: str('The session it would have started it as.'), declined: obj({ reason: str('Why, in the user\'s words.'), at: str('When (ISO 8601).') }, ['reason', 'at'], "The user's decision.") },
                  ['flow', 'session', 'declined'],
                  'What the session handed over to, and the decision.',
                ),
              },
              ['sessionId', 'handoff'],
              `The session as its file holds it, without the file's envelope ($schema, schemaVersion): ${FLOW_SESSION}.`,
            ),
          },
          ['id', 'status', 'current', 'mode', 'file', 'state'],
          'The session.',
        ),
        step: { type: 'null', description: 'No current step.' },
        gates: arr(obj({}, [], 'A gate.'), 'Empty: nothing is required any more.'),
        missing: arr(str('Never present.'), 'Empty.'),
        directive: obj({ command: str('The next command: `flow status` for the session.'), before: arr(str('A step to do first.'), 'Empty.'), text: str('The directive as printed.') }, ['command', 'before', 'text'], 'The directive.'),
        text: str('Everything a person reads, Markdown.'),
      },
      ['outcome', 'flow', 'session', 'step', 'gates', 'missing', 'directive', 'text'],
    ),
    import: importSchema(),
    serve: success(
      'serve',
      'ratchet serve --json',
      'The first line `ratchet serve` prints with --json, as soon as the dashboard listens (the process then keeps serving until SIGINT or SIGTERM).',
      {
        url: str('The page, e.g. http://127.0.0.1:7420/.'),
        host: str('The address the server is bound to (127.0.0.1 unless --host named another).'),
        port: int('The port it listens on (the one chosen by the system for --port 0).', { minimum: 1, maximum: 65535 }),
        loopback: bool('True when only this machine can reach it.'),
        project: str('The project shown (--cwd).'),
        backend: obj({ kind: str('file or postgres.'), location: str('The directory, or the database URL without its password.') }, ['kind', 'location'], 'Where the shared state is read from.'),
      },
      ['url', 'host', 'port', 'loopback', 'project', 'backend'],
    ),
    ...traceSchemas(),
  };
}

/** `ratchet turn trace show|replay --json`: the trace itself is @ratchet/goals' turn-trace schema. */
function traceSchemas(): Pick<Record<OutputName, Schema>, 'turn-trace-show' | 'turn-trace-replay'> {
  const warnings = arr(str('A torn last line skipped, with its file and line.'), 'Problems read past (never a bad line in the middle: that is an error).');
  const node: Schema = { type: 'object', description: 'A span and the spans nested in it.', properties: { span_id: str('The span.'), events: arr(str('An event id.'), "The span's own events, in recording order."), children: { type: 'array', items: { $ref: '#/$defs/node' }, description: 'Child spans, in start order.' } }, required: ['span_id', 'events', 'children'] };
  const show = success(
    'turn-trace-show',
    'ratchet turn trace show --json',
    'One turn\'s trace: its spans and events, usage against budgets, the spans as a tree, and the budgets gone past. Read-only.',
    {
      trace: ref(`${TRACE}#/$defs/TurnTrace`, 'The trace: {trace_id, turn_id, budgets, usage, spans, events}.'),
      tree: arr({ $ref: '#/$defs/node' }, 'Top-level spans (no parent), each with its children.'),
      over: arr(
        obj({ scope: { enum: ['turn', 'span'], description: 'The turn or one span.' }, span_id: str('For a span: which.'), budget: { enum: ['tokens', 'tools', 'time_ms'], description: 'Which budget.' }, allowed: int('The budget.', { minimum: 0 }), used: int('Used so far.', { minimum: 0 }), over: int('By how much.', { minimum: 1 }) }, ['scope', 'budget', 'allowed', 'used', 'over'], 'A budget gone past.'),
        'Budgets the turn or its spans have gone past.',
      ),
      warnings,
    },
    ['trace', 'tree', 'over', 'warnings'],
  );
  show.$defs = { node };
  const replay = success(
    'turn-trace-replay',
    'ratchet turn trace replay --json',
    "A turn's spans in a topological order over depends_on (ties: start time, then span id), each with its events. A cycle or a dangling depends_on is an error document (exit 2). Read-only.",
    {
      trace_id: str('The trace.'),
      turn_id: str('The turn.'),
      order: arr(str('A span id.'), 'Span ids in replay order.'),
      steps: arr(
        obj({ position: int('1-based place in the replay.', { minimum: 1 }), span: ref(`${TRACE}#/$defs/TraceSpan`, 'The span.'), events: arr(ref(`${TRACE}#/$defs/TraceEvent`, 'An event.'), "The span's own events.") }, ['position', 'span', 'events'], 'One span to replay.'),
        'The spans, in replay order.',
      ),
      turn_events: arr(ref(`${TRACE}#/$defs/TraceEvent`, 'An event.'), 'Events outside any span (turn-level decisions, policies, the summary).'),
      warnings,
    },
    ['trace_id', 'turn_id', 'order', 'steps', 'turn_events', 'warnings'],
  );
  return { 'turn-trace-show': show, 'turn-trace-replay': replay };
}

/** `ratchet import --json`: `ok` is false when a file is broken, nothing was found or a conversion was refused. */
function importSchema(): Schema {
  const problem = obj({ file: str('Path relative to the directory imported.'), line: int('1-based line.', { minimum: 1 }), column: int('1-based column.', { minimum: 1 }), message: str('What is wrong.') }, ['file', 'message'], 'A broken input file, with its place.');
  const system = { enum: ['jules', 'jixo', 'ftl', 'claude-orchestration', 'frontal-cortex'], description: 'An original system.' };
  const schema = success(
    'import',
    'ratchet import --json',
    "An original system's layout: the files found, those Ratchet reads in place, the conversions planned (or, with --write, written or refused), and every broken input file.",
    {
      system: { enum: ['jules', 'jixo', 'ftl', 'claude-orchestration', 'frontal-cortex', 'auto'], description: 'The system asked for.' },
      dir: str('The directory imported, relative to --cwd.'),
      write: bool('True when --write was given.'),
      systems: arr(
        obj(
          {
            system,
            found: arr(str('A file, relative to dir.'), 'Every file of the layout found.'),
            readInPlace: arr(
              obj({ path: str('A file, relative to dir.'), by: str('What reads it (the command).'), checked: bool('True when the import parsed it with that reader.') }, ['path', 'by', 'checked'], 'A file Ratchet reads where it is.'),
              'Files Ratchet reads in place (a broken one is listed under problems instead).',
            ),
            ignored: arr(obj({ path: str('A file, relative to dir.'), why: str('Why Ratchet does not read it.') }, ['path', 'why'], 'A file of the layout Ratchet does not read.'), 'Files found but neither read nor converted: never parsed, so they block nothing.'),
            convert: arr(
              obj({ from: str('The original file.'), to: str('The Ratchet file it becomes.'), how: str('What converts it.'), status: { enum: ['planned', 'written', 'refused'], description: 'planned without --write; refused when the target exists (never overwritten) or the conversion failed.' }, reason: str('Why it was refused.') }, ['from', 'to', 'how', 'status'], 'A conversion.'),
              'Conversions.',
            ),
            problems: arr(problem, 'Broken input files of this system.'),
            notes: arr(str('A remark.'), 'Remarks.'),
          },
          ['system', 'found', 'readInPlace', 'convert', 'ignored', 'problems', 'notes'],
          'What was found for one system.',
        ),
        'One report per system inspected (auto: every layout found).',
      ),
      problems: arr(problem, 'Every broken input file (exit 2, nothing written).'),
    },
    ['system', 'dir', 'write', 'systems', 'problems'],
  );
  (schema.properties as Record<string, Schema>).ok = bool('False when a file is broken (exit 2), no layout was found (exit 2) or a conversion was refused (exit 1).');
  return schema;
}
