import { shareItem, type ScopedKind } from '@ratchet/goals';
import type { Context } from '../../context.js';
import { CliError } from '../../errors.js';
import { EXIT_OK } from '../../exit-codes.js';
import { choiceOption, stringOption } from '../../option-values.js';
import { actorOf, expectedVersion, mapErrors, openState, type Options } from './shared.js';

const KINDS: readonly ScopedKind[] = ['goal', 'action', 'observation'];
const ACCESS = ['read', 'write', 'none'] as const;

/** `ratchet goals share <kind> <id> --agent-grant|--org-grant <id> --access read|write|none`. */
export default async function share(ctx: Context, args: string[], options: Options): Promise<number> {
  const [kind, id] = args;
  if (!KINDS.includes(kind as ScopedKind)) throw new CliError(`goals share: <kind> must be one of ${KINDS.join(', ')}, got ${JSON.stringify(kind)}`);
  if (id === undefined) throw new CliError('goals share: missing <id>');
  const agent = stringOption(options, 'agentGrant');
  const org = stringOption(options, 'orgGrant');
  if (agent === undefined && org === undefined) throw new CliError('goals share: give --agent-grant <id> and/or --org-grant <id>');
  // Mandatory with these choices in register.ts; checked again here rather than cast.
  const access = choiceOption(options, 'access', ACCESS);
  if (access === undefined) throw new CliError('goals share: give --access read, write or none');
  const store = await openState(ctx, options);
  return mapErrors(ctx, async () => {
    const r = await store.mutate({ actor: actorOf(ctx, options), op: 'scope.share', expected_version: expectedVersion(options) }, (tx) =>
      shareItem(tx, kind as ScopedKind, id, { agent_id: agent, org_id: org, access }),
    );
    if (ctx.json) ctx.emitJson({ ok: true, version: r.version, kind, id, acl: r.result.acl ?? [] });
    else ctx.out(`${kind} ${id}: ${(r.result.acl ?? []).map((e) => `${[e.agent_id && `agent ${e.agent_id}`, e.org_id && `org ${e.org_id}`].filter(Boolean).join(' in ')} ${e.access}`).join(', ') || 'shared with nobody'}  (state v${r.version})`);
    return EXIT_OK;
  });
}
