import { shareItem } from '@ratchet/goals';
import type { Context } from '../../context.js';
import { EXIT_OK } from '../../exit-codes.js';
import { withInput } from '../../option-values.js';
import { shareInput, type ShareInput } from './goals-inputs.js';
import { actorOf, mapErrors, openState } from './shared.js';

/** `ratchet goals share <kind> <id> --agent-grant|--org-grant <id> --access read|write|none`. */
async function share(ctx: Context, input: ShareInput): Promise<number> {
  const { kind, id } = input;
  const store = await openState(ctx, input);
  return mapErrors(ctx, async () => {
    const r = await store.mutate({ actor: actorOf(ctx, input), op: 'scope.share', expected_version: input.expectedVersion }, (tx) =>
      shareItem(tx, kind, id, { agent_id: input.agentGrant, org_id: input.orgGrant, access: input.access }),
    );
    if (ctx.json) ctx.emitJson({ ok: true, version: r.version, kind, id, acl: r.result.acl ?? [] });
    else ctx.out(`${kind} ${id}: ${(r.result.acl ?? []).map((e) => `${[e.agent_id && `agent ${e.agent_id}`, e.org_id && `org ${e.org_id}`].filter(Boolean).join(' in ')} ${e.access}`).join(', ') || 'shared with nobody'}  (state v${r.version})`);
    return EXIT_OK;
  });
}

export default withInput(shareInput, share);
