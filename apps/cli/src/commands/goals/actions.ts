import type { PendingAction, RegistryProposal } from '@ratchet/goals';
import type { Context } from '../../context.js';
import { CliError } from '../../errors.js';
import { EXIT_OK } from '../../exit-codes.js';
import {
  addAction,
  addActionResult,
  changeAction,
  changeActionResult,
  listActions,
  listActionsResult,
  updateActionFields,
  updateActionResult,
  type AddActionInput,
  type ChangeActionInput,
  type ListActionsInput,
  type UpdateActionInput,
} from '../../operations/goals-actions.js';
import type { GoalsLocation } from '../../operations/goals-input.js';
import type { OptionBag } from '../../option-values.js';
import { displayPath } from '../../paths.js';
import { addActionInput, changeActionInput, listActionsInput, locationInput, updateActionInput } from './goals-inputs.js';
import { loadRegistryFor, mapErrors, registryPath } from './shared.js';

/** `ratchet actions add|list|update|move|complete|confirm|retype|types`. */
export default async function actions(ctx: Context, args: string[], options: OptionBag): Promise<number> {
  const [command, ...rest] = args;
  if (command === 'types') return types(ctx, locationInput(options));
  if (command === 'list') return list(ctx, listActionsInput(rest, options));
  if (command === 'add') return add(ctx, addActionInput(rest, options));
  if (command === 'update') return update(ctx, updateActionInput(rest, options));
  if (command === 'move' || command === 'complete' || command === 'retype' || command === 'confirm') return change(ctx, changeActionInput(command, rest, options));
  throw new CliError(`actions ${command ?? ''}: unknown command`);
}

/** `actions types`: the registry in use, checked. */
async function types(ctx: Context, location: GoalsLocation): Promise<number> {
  return mapErrors(ctx, async () => {
    const registry = await loadRegistryFor(ctx, location);
    const path = registryPath(ctx, location);
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
  });
}

async function list(ctx: Context, input: ListActionsInput): Promise<number> {
  const r = await listActions(ctx, input);
  if (ctx.json) ctx.emitJson(listActionsResult(r).document);
  else if (r.actions.length === 0) ctx.out('no pending actions');
  else for (const a of r.actions) ctx.out(line(a));
  return EXIT_OK;
}

async function add(ctx: Context, input: AddActionInput): Promise<number> {
  const r = await addAction(ctx, input);
  if (ctx.json) ctx.emitJson(addActionResult(r).document);
  else {
    ctx.out(`added ${line(r.action)}  (state v${r.version})`);
    if (r.proposal !== undefined) ctx.note(filedNote(r.proposal));
  }
  return EXIT_OK;
}

async function update(ctx: Context, input: UpdateActionInput): Promise<number> {
  const r = await updateActionFields(ctx, input);
  if (ctx.json) ctx.emitJson(updateActionResult(r).document);
  else ctx.out(`${r.changed ? 'updated' : 'unchanged'} ${line(r.action)}  (state v${r.version})`);
  return EXIT_OK;
}

const DONE = { confirm: 'confirmed', retype: 're-typed', move: 'moved', complete: 'moved' } as const;

async function change(ctx: Context, input: ChangeActionInput): Promise<number> {
  const r = await changeAction(ctx, input);
  if (ctx.json) ctx.emitJson(changeActionResult(r).document);
  else ctx.out(`${r.changed ? DONE[input.change] : 'unchanged'} ${line(r.action)}  (state v${r.version})`);
  return EXIT_OK;
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
