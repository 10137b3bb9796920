import { amendProposal, reviewProposal, submitProposal, type ProposalAmendment, type ProposalInput, type RegistryProposal } from '@ratchet/goals';
import type { Context } from '../../context.js';
import { CliError } from '../../errors.js';
import { EXIT_OK } from '../../exit-codes.js';
import { displayPath } from '../../paths.js';
import { PROJECT_REGISTRIES, actorOf, expectedVersion, loadRegistryFor, mapErrors, openState, projectRegistry, readJsonArg, registryPath, type Options } from './shared.js';
import { resolve } from 'node:path';
import { clockOf } from './shared.js';
import { traceProposal } from './trace-proposals.js';

/** `ratchet proposals submit|amend|list|show|review|merge|export`. */
export default async function proposals(ctx: Context, args: string[], options: Options): Promise<number> {
  const [command, first, second] = args;
  const store = await openState(ctx, options);
  const meta = { actor: actorOf(ctx, options), expected_version: expectedVersion(options) };
  return mapErrors(ctx, async () => {
    if (command === 'list') {
      const state = await store.read();
      const list = state.proposals.filter((p) => options.status === undefined || p.status === options.status);
      if (ctx.json) ctx.emitJson({ ok: true, proposals: list });
      else if (list.length === 0) ctx.out('no proposals');
      else for (const p of list) ctx.out(line(p));
      return EXIT_OK;
    }
    if (command === 'submit') {
      const input = first === undefined ? undefined : await readJsonArg(ctx, first);
      const value = input === undefined ? {} : input.value;
      if (value === null || typeof value !== 'object' || Array.isArray(value)) throw new CliError('a proposal must be a JSON object', { file: input?.file, line: 1, column: 1 });
      const merged = { ...(value as Record<string, unknown>) } as unknown as ProposalInput;
      if (options.kind !== undefined) merged.proposal_type = options.kind as ProposalInput['proposal_type'];
      if (options.typeId !== undefined) merged.type_id = options.typeId as string;
      if (options.rationale !== undefined) merged.rationale = options.rationale as string;
      if (merged.proposal_type === undefined) throw new CliError('proposals submit: give --kind (add, modify, deprecate) or a file with proposal_type');
      // Problems in the file are placed in it (line:col); without a file, --kind/--type-id/--rationale are what is wrong.
      const r = await mapErrors(ctx, () => store.mutate({ ...meta, op: 'proposal.submit' }, (tx) => submitProposal(tx, merged)), input);
      await traceProposal(ctx, options, r.result, 'submitted', clockOf(options)());
      if (ctx.json) ctx.emitJson({ ok: true, version: r.version, proposal: r.result });
      else ctx.out(`submitted ${line(r.result)}  (review: ratchet proposals review ${r.result.id} approve --as user)`);
      return EXIT_OK;
    }
    if (first === undefined) throw new CliError(`proposals ${command ?? ''}: missing <id>`);
    if (command === 'amend') {
      const input = second === undefined ? undefined : await readJsonArg(ctx, second);
      const value = input === undefined ? {} : input.value;
      if (value === null || typeof value !== 'object' || Array.isArray(value)) throw new CliError('an amendment must be a JSON object', { file: input?.file, line: 1, column: 1 });
      const amendment = { ...(value as Record<string, unknown>) } as ProposalAmendment;
      if (options.typeId !== undefined) amendment.type_id = options.typeId as string;
      if (options.rationale !== undefined) amendment.rationale = options.rationale as string;
      const before = (await store.read()).proposals.find((p) => p.id === first)?.status;
      const r = await mapErrors(ctx, () => store.mutate({ ...meta, op: 'proposal.amend' }, (tx) => amendProposal(tx, first, amendment)), input);
      if (r.entry !== undefined) await traceProposal(ctx, options, r.result, 'amended', clockOf(options)());
      if (ctx.json) ctx.emitJson({ ok: true, version: r.version, changed: r.entry !== undefined, proposal: r.result });
      else if (r.entry === undefined) ctx.out(`${line(r.result)}  (the amendment changes nothing)`);
      else {
        ctx.out(`amended ${line(r.result)}  (state v${r.version}; before and after: ratchet goals history)`);
        if (before === 'approved') ctx.note(`proposal ${first} was approved; the amendment sends it back to review: ratchet proposals review ${first} approve --as user`);
      }
      return EXIT_OK;
    }
    if (command === 'show') {
      const proposal = (await store.read()).proposals.find((p) => p.id === first);
      if (proposal === undefined) throw new CliError(`no proposal ${JSON.stringify(first)} (ratchet proposals list shows them)`, { code: 'not-found' });
      if (ctx.json) ctx.emitJson({ ok: true, proposal });
      else ctx.out(details(proposal));
      return EXIT_OK;
    }
    if (command === 'review') {
      if (second !== 'approve' && second !== 'reject') throw new CliError('proposals review: <decision> must be approve or reject');
      const r = await store.mutate({ ...meta, op: 'proposal.review' }, (tx) => reviewProposal(tx, first, second, (options.comments as string | undefined) ?? ''));
      await traceProposal(ctx, options, r.result, second === 'approve' ? 'approved' : 'rejected', clockOf(options)());
      if (ctx.json) ctx.emitJson({ ok: true, version: r.version, proposal: r.result });
      else ctx.out(`${second === 'approve' ? 'approved' : 'rejected'} ${line(r.result)}`);
      return EXIT_OK;
    }
    // merge and export work on the project's registry file, never the bundled copy: a project that
    // has none yet gets protocols/action_types.json, made from the bundled registry plus the change.
    const project = options.registry !== undefined ? registryPath(ctx, options)! : projectRegistry(ctx);
    const path = project ?? resolve(ctx.cwd, PROJECT_REGISTRIES[0]);
    const ifMissing = project === undefined ? (await loadRegistryFor(ctx, options)).document : undefined;
    const shown = displayPath(ctx, path);
    if (command === 'export') {
      const patch = await store.exportProposal(first, path, shown, { ifMissing });
      if (ctx.json) ctx.emitJson({ ok: true, registry: shown, patch });
      else if (patch === '') ctx.note(`proposal ${first} changes nothing in ${shown}`);
      else ctx.io.stdout(patch);
      return EXIT_OK;
    }
    const r = await store.mergeProposal(first, path, { ...meta, displayPath: shown, ifMissing });
    await traceProposal(ctx, options, r.proposal, 'merged', clockOf(options)());
    if (ctx.json) ctx.emitJson({ ok: true, registry: shown, proposal: r.proposal, patch: r.patch });
    else ctx.out(`merged ${line(r.proposal)} into ${shown}; turns already running keep the registry they loaded`);
    return EXIT_OK;
  });
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
