/**
 * `ratchet scratch add|list|review|promote|archive|expire`: the Scratch Page of @ratchet/goals,
 * low-commitment observations beside the formal goals and actions. Items past their time leave
 * `list` on read; `expire` archives them.
 */
import {
  addObservation,
  archiveObservation,
  expireObservations,
  parseDuration,
  promoteObservation,
  reviewObservation,
  scratchView,
  type Observation,
  type ObservationStatus,
} from '@ratchet/goals';
import type { Context } from '../../context.js';
import { CliError } from '../../errors.js';
import { EXIT_OK } from '../../exit-codes.js';
import { filedNote, line as actionLine } from './actions.js';
import { actorOf, clockOf, expectedVersion, loadRegistryFor, mapErrors, numberOption, openState, registryFileOf, type Options } from './shared.js';

export default async function scratch(ctx: Context, args: string[], options: Options): Promise<number> {
  const [command, first, second] = args;
  const store = await openState(ctx, options);
  const meta = { actor: actorOf(ctx, options), expected_version: expectedVersion(options) };
  return mapErrors(ctx, async () => {
    if (command === 'list') {
      const view = scratchView(await store.read(), clockOf(options)(), { status: options.status as ObservationStatus | undefined, tag: options.tag as string | undefined });
      if (ctx.json) ctx.emitJson({ ok: true, ...view, ...(options.all === true ? {} : { settled: undefined }) });
      else {
        if (view.active.length === 0) ctx.out('no active observations (ratchet scratch add "..." --source <where>)');
        for (const o of view.active) ctx.out(line(o));
        if (view.expired.length > 0) ctx.out(`${view.expired.length} expired (out of the active set; ratchet scratch expire archives them)${options.all === true ? ':' : ''}`);
        if (options.all === true) for (const o of [...view.expired, ...view.settled]) ctx.out(line(o));
      }
      return EXIT_OK;
    }
    if (command === 'add') {
      if (first === undefined) throw new CliError('scratch add: missing <content>');
      const ttl = options.ttl === undefined ? undefined : parseDuration(options.ttl as string);
      if (options.ttl !== undefined && (ttl === undefined || ttl <= 0)) throw new CliError(`--ttl must be an ISO 8601 duration such as P7D or PT12H, got ${JSON.stringify(options.ttl)}`);
      const r = await store.mutate({ ...meta, op: 'scratch.add' }, (tx) =>
        addObservation(tx, {
          id: options.id as string | undefined,
          type: options.type as Observation['type'] | undefined,
          content: first,
          source: (options.source as string | undefined) ?? '',
          owner: options.owner as Observation['owner'] | undefined,
          confidence: numberOption(options.confidence, '--confidence'),
          tags: options.tag as string[] | undefined,
          ttl_ms: ttl,
          expires_at: options.expires as string | undefined,
        }),
      );
      return done(ctx, r.version, r.result, 'added');
    }
    if (first === undefined && command !== 'expire') throw new CliError(`scratch ${command ?? ''}: missing <id>`);
    if (command === 'review') {
      if (second === undefined) throw new CliError('scratch review: missing <status> (active, pending_review or resolved)');
      const r = await store.mutate({ ...meta, op: 'scratch.review' }, (tx) => reviewObservation(tx, first!, second as ObservationStatus, options.note as string | undefined));
      return done(ctx, r.version, r.result, 'reviewed');
    }
    if (command === 'archive') {
      const r = await store.mutate({ ...meta, op: 'scratch.archive' }, (tx) => archiveObservation(tx, first!));
      return done(ctx, r.version, r.result, 'archived');
    }
    if (command === 'expire') {
      const r = await store.mutate({ ...meta, op: 'scratch.expire' }, (tx) => expireObservations(tx));
      if (ctx.json) ctx.emitJson({ ok: true, version: r.version, archived: r.result });
      else ctx.out(r.result.length === 0 ? 'nothing has expired' : `archived ${r.result.length} expired: ${r.result.join(', ')}  (state v${r.version})`);
      return EXIT_OK;
    }
    // promote <id> goal|action
    if (second !== 'goal' && second !== 'action') throw new CliError('scratch promote: give <id> goal or <id> action');
    const registry = await loadRegistryFor(ctx, options);
    const title = options.title as string | undefined;
    const priority = numberOption(options.priority, '--priority');
    const r = await store.mutate({ ...meta, op: 'scratch.promote', registry: registryFileOf(ctx, options, registry) }, (tx) => {
      const content = tx.get('observation', first!).content;
      return second === 'goal'
        ? promoteObservation(tx, registry, first!, { to: 'goal', goal: { title: title ?? content.slice(0, 1000), priority } })
        : promoteObservation(tx, registry, first!, { to: 'action', action: { type: (options.actionType as string | undefined) ?? 'agent_task', title: title ?? content.slice(0, 1000), priority, goal_id: options.goal as string | undefined } });
    });
    if (ctx.json) ctx.emitJson({ ok: true, version: r.version, ...r.result });
    else {
      ctx.out(`promoted ${first} to ${r.result.goal !== undefined ? `goal ${r.result.goal.id}: ${r.result.goal.title}` : `action ${actionLine(r.result.action!.action)}`}  (state v${r.version})`);
      if (r.result.action?.proposal !== undefined) ctx.note(filedNote(r.result.action.proposal));
    }
    return EXIT_OK;
  });
}

function done(ctx: Context, version: number, o: Observation, what: string): number {
  if (ctx.json) ctx.emitJson({ ok: true, version, observation: o });
  else ctx.out(`${what} ${line(o)}  (state v${version})`);
  return EXIT_OK;
}

function line(o: Observation): string {
  const flat = o.content.replace(/\s+/g, ' ');
  const text = flat.length > 100 ? `${flat.slice(0, 97)}...` : flat;
  return `${o.id}  ${o.type}  [${o.status}]  ${o.owner}  c${o.confidence}  ${text}  (from ${o.source}; expires ${o.expires_at}${o.tags.length > 0 ? `; ${o.tags.join(', ')}` : ''}${o.promoted_to !== undefined ? `; became ${o.promoted_to.kind} ${o.promoted_to.id}` : ''})`;
}
