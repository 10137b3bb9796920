import { resolve } from 'node:path';
import { reviewProposal, type RegistryProposal } from '@ratchet/goals';
import type { Context } from '../../context.js';
import { CliError } from '../../errors.js';
import { EXIT_OK } from '../../exit-codes.js';
import { amendProposalResult, amendRegistryProposal, submitProposalResult, submitRegistryProposal, type ProposalAmendInput, type ProposalSubmitInput } from '../../operations/notes.js';
import { withInput, type OptionBag } from '../../option-values.js';
import { displayPath } from '../../paths.js';
import { proposalAmendInput, proposalsInput, proposalSubmitInput, type ProposalsInput } from './notes-inputs.js';
import { PROJECT_REGISTRIES, actorOf, clockOf, loadRegistryFor, mapErrors, openState, projectRegistry, registryPath } from './shared.js';
import { traceProposal } from './trace-proposals.js';

/** `ratchet proposals submit|amend|list|show|review|merge|export` (submit and amend: typed operations, src/operations/notes.ts). */
export default async function proposals(ctx: Context, args: string[], options: OptionBag): Promise<number> {
  const [command] = args;
  if (command === 'submit') return withInput(proposalSubmitInput, submit)(ctx, args, options);
  if (command === 'amend') return withInput(proposalAmendInput, amend)(ctx, args, options);
  return move(ctx, proposalsInput(args, options));
}

/** list, show, review, merge, export. */
async function move(ctx: Context, input: ProposalsInput): Promise<number> {
  const store = await openState(ctx, input);
  const actor = actorOf(ctx, input);
  return mapErrors(ctx, async () => {
    if (input.command === 'list') {
      const state = await store.read();
      const list = state.proposals.filter((p) => input.status === undefined || p.status === input.status);
      if (ctx.json) ctx.emitJson({ ok: true, proposals: list });
      else if (list.length === 0) ctx.out('no proposals');
      else for (const p of list) ctx.out(line(p));
      return EXIT_OK;
    }
    const { id } = input;
    if (input.command === 'show') {
      const proposal = (await store.read()).proposals.find((p) => p.id === id);
      if (proposal === undefined) throw new CliError(`no proposal ${JSON.stringify(id)} (ratchet proposals list shows them)`, { code: 'not-found' });
      if (ctx.json) ctx.emitJson({ ok: true, proposal });
      else ctx.out(details(proposal));
      return EXIT_OK;
    }
    if (input.command === 'review') {
      const { decision } = input;
      const r = await store.mutate({ actor, expected_version: input.expectedVersion, op: 'proposal.review' }, (tx) => reviewProposal(tx, id, decision, input.comments));
      await traceProposal(ctx, input, r.result, decision === 'approve' ? 'approved' : 'rejected', clockOf(input)());
      if (ctx.json) ctx.emitJson({ ok: true, version: r.version, proposal: r.result });
      else ctx.out(`${decision === 'approve' ? 'approved' : 'rejected'} ${line(r.result)}`);
      return EXIT_OK;
    }
    // merge and export work on the project's registry file, never the bundled copy: a project that
    // has none yet gets protocols/action_types.json, made from the bundled registry plus the change.
    const project = input.registry !== undefined ? registryPath(ctx, input)! : projectRegistry(ctx);
    const path = project ?? resolve(ctx.cwd, PROJECT_REGISTRIES[0]);
    const ifMissing = project === undefined ? (await loadRegistryFor(ctx, input)).document : undefined;
    const shown = displayPath(ctx, path);
    if (input.command === 'export') {
      const patch = await store.exportProposal(id, path, shown, { ifMissing });
      if (ctx.json) ctx.emitJson({ ok: true, registry: shown, patch });
      else if (patch === '') ctx.note(`proposal ${id} changes nothing in ${shown}`);
      else ctx.io.stdout(patch);
      return EXIT_OK;
    }
    const r = await store.mergeProposal(id, path, { actor, displayPath: shown, ifMissing, expected_version: input.expectedVersion });
    await traceProposal(ctx, input, r.proposal, 'merged', clockOf(input)());
    if (ctx.json) ctx.emitJson({ ok: true, registry: shown, proposal: r.proposal, patch: r.patch });
    else ctx.out(`merged ${line(r.proposal)} into ${shown}; turns already running keep the registry they loaded`);
    return EXIT_OK;
  });
}

/** `ratchet proposals submit [file]` (src/operations/notes.ts does it). */
async function submit(ctx: Context, input: ProposalSubmitInput): Promise<number> {
  const w = await submitRegistryProposal(ctx, input);
  const result = submitProposalResult(w);
  if (ctx.json) ctx.emitJson(result.document);
  else ctx.out(`submitted ${line(w.result)}  (review: ratchet proposals review ${w.result.id} approve --as user)`);
  return result.exitCode;
}

/** `ratchet proposals amend <id> [file]`. */
async function amend(ctx: Context, input: ProposalAmendInput): Promise<number> {
  const w = await amendRegistryProposal(ctx, input);
  const result = amendProposalResult(w);
  if (ctx.json) ctx.emitJson(result.document);
  else if (!w.changed) ctx.out(`${line(w.result)}  (the amendment changes nothing)`);
  else {
    ctx.out(`amended ${line(w.result)}  (state v${w.version}; before and after: ratchet goals history)`);
    if (w.before === 'approved') ctx.note(`proposal ${input.id} was approved; the amendment sends it back to review: ratchet proposals review ${input.id} approve --as user`);
  }
  return result.exitCode;
}

function line(p: RegistryProposal): string {
  return `${p.id}  [${p.status}]  ${p.proposal_type} ${p.type_id ?? '(no type id)'}  by ${p.created_by}  ${p.rationale.split('\n')[0] ?? ''}`;
}

/** Everything a reviewer decides on, one field per line; multi-line text indented under its label. */
function details(p: RegistryProposal): string {
  const out = [line(p), `  created ${p.created_at}${p.created_from_turn_id === undefined ? '' : ` in turn ${p.created_from_turn_id}`}, updated ${p.updated_at}`];
  const field = (label: string, value: unknown): void => {
    if (value === undefined || (Array.isArray(value) && value.length === 0)) return;
    const text = typeof value === 'string' ? value : JSON.stringify(value);
    const [head = '', ...rest] = text.split('\n');
    out.push(`  ${label}: ${head}`, ...rest.map((l) => `    ${l}`));
  };
  field('display name', p.display_name);
  field('description', p.description);
  field('owners', p.allowed_owners?.join(', '));
  field('policies', p.suggested_policies);
  field('statuses', p.allowed_statuses?.join(', '));
  if (p.allowed_transitions !== undefined) {
    out.push('  transitions:');
    for (const [from, to] of Object.entries(p.allowed_transitions)) out.push(`    ${from} -> ${to.length > 0 ? to.join(', ') : '(final)'}`);
  }
  field('policy handlers', p.policy_handlers);
  field('diff', p.diff);
  field('rationale', p.rationale);
  for (const e of p.examples) field('example', e);
  for (const r of p.risks) field('risk', r);
  if (p.reviewers.length === 0) out.push('  reviews: none yet');
  for (const r of p.reviewers) field(`review ${r.at}`, `${r.decision} by ${r.reviewer}${r.comments === '' ? '' : `: ${r.comments}`}`);
  return out.join('\n');
}
