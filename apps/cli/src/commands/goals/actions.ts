import { assess, completeAction, confirmAction, createAction, isPending, moveAction, retypeAction, updateAction, type PendingAction, type RegistryProposal } from '@ratchet/goals';
import type { Context } from '../../context.js';
import { CliError } from '../../errors.js';
import { EXIT_OK } from '../../exit-codes.js';
import { parsePairs } from '../../pairs.js';
import { versioned } from '../../output/json-output.js';
import { displayPath } from '../../paths.js';
import { actorOf, expectedVersion, loadRegistryFor, mapErrors, numberOption, openState, registryFileOf, registryPath, type Options } from './shared.js';

/** `ratchet actions add|list|update|move|complete|confirm|retype|types`. */
export default async function actions(ctx: Context, args: string[], options: Options): Promise<number> {
  const [command, first, second] = args;
  return mapErrors(ctx, async () => {
    const registry = await loadRegistryFor(ctx, options);
    if (command === 'types') {
      const path = registryPath(ctx, options);
      const types = registry.document.action_types;
      if (ctx.json) ctx.emitJson({ ok: true, registry: path ?? 'built-in', action_types: types });
      else {
        ctx.out(`${path === undefined ? 'built-in registry' : displayPath(ctx, path)}: ${types.length} action types, valid`);
        for (const t of types) {
          const flags = Object.entries(t.default_policies).filter(([, v]) => v === true).map(([k]) => k);
          ctx.out(`  ${t.id}${t.deprecation_status === 'deprecated' ? ' (deprecated)' : ''}  owners: ${t.allowed_owners.join('|')}  statuses: ${t.allowed_statuses.join(' ')}${flags.length > 0 ? `  ${flags.join(', ')}` : ''}`);
        }
      }
      return EXIT_OK;
    }
    const store = await openState(ctx, options);
    const meta = { actor: actorOf(ctx, options), expected_version: expectedVersion(options), registry: command === 'list' ? undefined : registryFileOf(ctx, options, registry) };
    if (command === 'list') {
      const state = await store.read();
      const now = Date.now();
      const pending = assess(state, registry, { now, actions: Number.MAX_SAFE_INTEGER, owner: options.owner as 'agent' | 'user' | undefined }).actions.map((a) => a.action);
      // A status filter names what it wants: finished statuses included, as with --all.
      const withDone = options.all === true || options.status !== undefined;
      const done = withDone ? state.actions.filter((a) => !isPending(registry, a) && (options.owner === undefined || a.owner === options.owner)) : [];
      const filters = listFilters(options);
      if (filters.goal !== undefined && !state.goals.some((g) => g.id === filters.goal)) throw new CliError(`actions list --goal: no goal "${filters.goal}" (ratchet goals list --all)`);
      const list = [...pending, ...done].filter((a) => (filters.status === undefined || filters.status.includes(a.status)) && (filters.type === undefined || filters.type.includes(a.type)) && (filters.goal === undefined || a.goal_id === filters.goal));
      if (ctx.json) ctx.emitJson({ ok: true, version: state.version, actions: list });
      else if (list.length === 0) ctx.out('no pending actions');
      else for (const a of list) ctx.out(line(a));
      return EXIT_OK;
    }
    if (command === 'add') {
      if (first === undefined || second === undefined) throw new CliError('actions add: needs <type> and <title>');
      const r = await store.mutate({ ...meta, op: 'action.create' }, (tx) =>
        createAction(tx, registry, {
          id: options.id as string | undefined,
          type: first,
          title: second,
          owner: options.owner as 'agent' | 'user' | undefined,
          priority: numberOption(options.priority, '--priority'),
          effort: numberOption(options.effort, '--effort'),
          due_at: options.due as string | undefined,
          goal_id: options.goal as string | undefined,
          blocking: options.blocking === true ? true : undefined,
          metadata: { ...parsePairs(options.meta, '--meta') },
        }),
      );
      const { action, proposal } = r.result;
      if (ctx.json) ctx.emitJson({ ok: true, version: r.version, action, proposal });
      else {
        ctx.out(`added ${line(action)}  (state v${r.version})`);
        if (proposal !== undefined) ctx.note(filedNote(proposal));
      }
      return EXIT_OK;
    }
    if (first === undefined) throw new CliError(`actions ${command ?? ''}: missing <id>`);
    if (command === 'update') {
      const patch = {
        title: options.title as string | undefined,
        description: options.description as string | undefined,
        priority: numberOption(options.priority, '--priority'),
        effort: numberOption(options.effort, '--effort'),
        due_at: options.due as string | undefined,
        goal_id: options.goal as string | undefined,
        blocking: options.blocking as boolean | undefined,
      };
      if (Object.values(patch).every((v) => v === undefined)) throw new CliError('actions update: give at least one of --title, --description, --priority, --effort, --due, --goal, --blocking/--no-blocking');
      const r = await store.mutate({ ...meta, op: 'action.update' }, (tx) => updateAction(tx, first, patch));
      if (ctx.json) ctx.emitJson(versioned('actions-update', { ok: true, version: r.version, action: r.result }));
      else ctx.out(`${r.entry === undefined ? 'unchanged' : 'updated'} ${line(r.result)}  (state v${r.version})`);
      return EXIT_OK;
    }
    const evidence = options.evidence as string[] | undefined;
    const metadata = { ...parsePairs(options.meta, '--meta') };
    const r = await store.mutate({ ...meta, op: `action.${command ?? ''}` }, (tx) => {
      if (command === 'confirm') return confirmAction(tx, first);
      if (command === 'retype') return retypeAction(tx, registry, first);
      // Recorded in the same version as the move, and before it: a completion guard may need it.
      if (Object.keys(metadata).length > 0) updateAction(tx, first, { metadata });
      if (command === 'complete') return completeAction(tx, registry, first, { evidence_refs: evidence });
      if (second === undefined) throw new CliError('actions move: missing <status>');
      return moveAction(tx, registry, first, second, { evidence_refs: evidence });
    });
    if (ctx.json) ctx.emitJson({ ok: true, version: r.version, action: r.result });
    else ctx.out(`${r.entry === undefined ? 'unchanged' : command === 'confirm' ? 'confirmed' : command === 'retype' ? 're-typed' : 'moved'} ${line(r.result)}  (state v${r.version})`);
    return EXIT_OK;
  });
}

/** What to tell the user when an unknown type was coerced and a proposal filed: how the proposal goes on. */
export function filedNote(p: RegistryProposal): string {
  const name = p.type_id ?? p.display_name ?? '';
  const next = p.type_id === undefined ? `give it a valid type id first: ratchet proposals amend ${p.id} --type-id <id>` : `see it with ratchet proposals export ${p.id}; amend it (ratchet proposals amend ${p.id} <file>) or approve it as filed (ratchet proposals review ${p.id} approve --as user)`;
  return `unknown action type ${JSON.stringify(name)}: recorded as a user_task requiring confirmation; proposal ${p.id} filed with user_task's semantics (${next})`;
}

export function line(a: PendingAction): string {
  const flags = [a.blocking === true ? 'blocking' : '', a.requires_confirmation === true ? (a.confirmed_at === undefined ? 'needs confirmation' : 'confirmed') : '', a.due_at !== undefined ? `due ${a.due_at}` : '', a.escalated_at !== undefined ? 'escalated' : ''].filter(Boolean);
  return `${a.id}  ${a.type}  [${a.status}]  ${a.owner}  p${a.priority}${a.effort !== undefined ? `/e${a.effort}` : ''}  ${a.title}${flags.length > 0 ? `  (${flags.join(', ')})` : ''}`;
}

/** `--status a,b`, `--type x,y` (either repeated or comma separated) and `--goal id`. */
function listFilters(options: Options): { status?: string[]; type?: string[]; goal?: string } {
  const many = (v: unknown): string[] | undefined => (v === undefined ? undefined : (Array.isArray(v) ? v : [v]).flatMap((x) => String(x).split(',')).map((x) => x.trim()).filter(Boolean));
  const status = many(options.status);
  const type = many(options.type);
  return { ...(status ? { status } : {}), ...(type ? { type } : {}), ...(typeof options.goal === 'string' ? { goal: options.goal } : {}) };
}
