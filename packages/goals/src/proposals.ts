/**
 * Merging a registry proposal: the pure change to a registry document, its serialisation (JSON or
 * YAML, as the file is), and the patch export. The file write itself is in goals-file.ts.
 */
import { InputError, RegistryError, type RegistryIssue } from './errors.js';
import { BUILTIN_POLICY_HANDLERS, type PolicyHandlers } from './ops.js';
import { checkRegistry, deprecateActionType, registerActionType, type RegistryFormat } from './registry.js';
import type { ActionType, ActionTypeRegistryDocument, RegistryProposal } from './types.js';
import type * as Yaml from 'yaml';

/** The action type an `add` proposal would register (undefined while it lacks a type id, statuses or transitions). */
export function proposedType(proposal: RegistryProposal): ActionType | undefined {
  const id = proposal.type_id;
  if (id === undefined || proposal.allowed_statuses === undefined || proposal.allowed_transitions === undefined) return undefined;
  const type: ActionType = {
    id,
    display_name: proposal.display_name ?? id,
    allowed_owners: proposal.allowed_owners ?? ['user'],
    default_policies: structuredClone(proposal.suggested_policies ?? {}),
    allowed_statuses: [...proposal.allowed_statuses],
    allowed_transitions: structuredClone(proposal.allowed_transitions),
    deprecation_status: 'active',
  };
  if (proposal.description !== undefined) type.description = proposal.description;
  if (proposal.policy_handlers !== undefined) type.policy_handlers = structuredClone(proposal.policy_handlers);
  return type;
}

/** Where a problem in a proposed action type is, in the proposal (its fields are named differently there). */
const PROPOSAL_FIELD: Readonly<Record<string, string>> = { id: 'type_id', default_policies: 'suggested_policies' };

/**
 * Every problem in the action type an `add` proposal would register, checked as the registry checks
 * a type (the ajv validator of the action-type schema, then statuses, transitions and a terminal
 * status), with pointers into the proposal (`/allowed_transitions/open/0`, `/suggested_policies`).
 * Empty when the proposal is not a complete `add` (a draft may be completed later by amending it).
 */
export function proposedTypeIssues(proposal: RegistryProposal): RegistryIssue[] {
  if (proposal.proposal_type !== 'add') return [];
  const type = proposedType(proposal);
  if (type === undefined) return [];
  return checkRegistry({ action_types: [type] }).map(({ pointer, message }) => {
    const rest = pointer.replace(/^\/action_types\/0/, '');
    const [, field = '', tail = ''] = /^\/([^/]*)(.*)$/.exec(rest) ?? [];
    return { pointer: rest === '' ? '' : `/${PROPOSAL_FIELD[field] ?? field}${tail}`, message };
  });
}

/** The registry document after merging `proposal` (validated: RegistryError if the result is invalid). */
export function applyProposal(doc: ActionTypeRegistryDocument, proposal: RegistryProposal): ActionTypeRegistryDocument {
  const id = proposal.type_id;
  if (id === undefined) throw new InputError(`proposal ${proposal.id} names no type_id: amend it to set one before merging`, 'proposal-state');
  const existing = doc.action_types.find((t) => t.id === id);
  if (proposal.proposal_type === 'deprecate') return deprecateActionType(doc, id);
  if (proposal.proposal_type === 'add') {
    const type = proposedType(proposal);
    if (type === undefined) {
      throw new InputError(`proposal ${proposal.id} adds "${id}" without allowed_statuses and allowed_transitions: amend it to give them before merging`, 'proposal-state');
    }
    if (existing !== undefined) {
      // Merging twice (say, after a crash between the file write and the state update) is a no-op.
      if (JSON.stringify(existing) === JSON.stringify(type)) return structuredClone(doc);
      throw new RegistryError([{ pointer: '/action_types', message: `action type "${id}" already exists: propose a modification instead` }]);
    }
    return registerActionType(doc, type);
  }
  if (existing === undefined) throw new RegistryError([{ pointer: '/action_types', message: `no action type "${id}" to modify` }]);
  const type: ActionType = structuredClone(existing);
  if (proposal.display_name !== undefined) type.display_name = proposal.display_name;
  if (proposal.description !== undefined) type.description = proposal.description;
  if (proposal.allowed_owners !== undefined) type.allowed_owners = [...proposal.allowed_owners];
  if (proposal.suggested_policies !== undefined) type.default_policies = { ...type.default_policies, ...structuredClone(proposal.suggested_policies) };
  if (proposal.allowed_statuses !== undefined) type.allowed_statuses = [...proposal.allowed_statuses];
  if (proposal.allowed_transitions !== undefined) type.allowed_transitions = structuredClone(proposal.allowed_transitions);
  if (proposal.policy_handlers !== undefined) type.policy_handlers = { ...type.policy_handlers, ...structuredClone(proposal.policy_handlers) };
  return registerActionType(doc, type);
}

/**
 * Refuse (`completion-guard`) a registry in which the type a proposal merges names a completion
 * guard nothing implements: such a guard refuses every completion (it is never skipped), so no one,
 * the user included, could ever complete an action of that type. `handlers`: the guards the caller
 * implements besides the built-in ones.
 */
export function checkMergedGuard(doc: ActionTypeRegistryDocument, proposal: RegistryProposal, handlers: Readonly<PolicyHandlers> = {}): void {
  const type = doc.action_types.find((t) => t.id === proposal.type_id);
  const guard = type?.policy_handlers?.completion_guard;
  if (type === undefined || guard === undefined || type.deprecation_status === 'deprecated') return;
  if (Object.hasOwn(handlers, guard) || Object.hasOwn(BUILTIN_POLICY_HANDLERS, guard)) return;
  const known = [...new Set([...Object.keys(BUILTIN_POLICY_HANDLERS), ...Object.keys(handlers)])].sort().join(', ');
  throw new InputError(
    `proposal ${proposal.id} would give action type "${type.id}" the completion guard "${guard}", which has no handler here (known: ${known}): ` +
      `a guard without a handler refuses every completion, so no one, the user included, could ever complete a ${type.id}. ` +
      `Amend the proposal to name a known guard or none (ratchet proposals amend ${proposal.id} <file>), then approve and merge it again`,
    'completion-guard',
  );
}

/** The registry file's text: 2-space JSON, or YAML (comments in a YAML registry are not kept). */
export async function serializeRegistry(doc: ActionTypeRegistryDocument, format: RegistryFormat): Promise<string> {
  if (format === 'json') return `${JSON.stringify(doc, null, 2)}\n`;
  const { stringify } = await loadYaml();
  return stringify(doc, { lineWidth: 0 });
}

/**
 * yaml loaded on first use (most files are JSON). Node gives a CommonJS module's exports as named
 * exports of import(); esbuild's code-split bundles (the ratchet CLI) give them only as `default`.
 */
async function loadYaml(): Promise<typeof Yaml> {
  const mod = await import('yaml');
  return 'parseDocument' in mod ? mod : (mod as unknown as { default: typeof Yaml }).default;
}
