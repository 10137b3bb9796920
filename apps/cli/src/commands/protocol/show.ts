import { resolve } from 'node:path';
import { loadProtocolSet, renderProtocolDetail, renderProtocols, type ProtocolSet } from '@ratchet/protocol-compiler';
import type { Context } from '../../context.js';
import { CliError } from '../../errors.js';
import { EXIT_OK } from '../../exit-codes.js';
import { withInput } from '../../option-values.js';
import { planVocabularies } from '../../plan-vocabulary.js';
import { showInput, type ShowProtocolInput } from './inputs.js';
import { cliUsage, displayPath, reportProblems } from './shared.js';

/**
 * `ratchet protocol show <id>` / `--all`: the full text a compact AGENTS.md leaves out, on demand.
 * `--all` prints exactly the block `protocol compile --detail full` writes (same renderer, same
 * inputs), so the two cannot disagree.
 */
async function show(ctx: Context, { id, all, protocols }: ShowProtocolInput): Promise<number> {
  const protocolsDir = resolve(ctx.cwd, protocols ?? 'protocols');
  let set: ProtocolSet;
  try {
    set = await loadProtocolSet(protocolsDir, { schemaRoot: ctx.cwd });
  } catch (err) {
    return reportProblems(ctx, err);
  }
  const usageFor = await cliUsage();
  let text: string;
  if (all) {
    text = renderProtocols(set, { detail: 'full', usageFor, vocabularies: planVocabularies(ctx), sourceLabel: `${displayPath(ctx, protocolsDir)}/` });
  } else {
    const source = set.sources.find((s) => s.protocol.protocol_id === id);
    const prose = (set.prose ?? []).find((p) => p.name.replace(/\.md$/i, '') === id);
    if (source !== undefined) text = renderProtocolDetail(source, { usageFor });
    else if (prose !== undefined) text = `${prose.text.trimEnd()}\n`;
    else {
      const known = set.sources.map((s) => s.protocol.protocol_id);
      throw new CliError(`protocol show: no protocol "${String(id)}" in ${displayPath(ctx, protocolsDir)}/${known.length > 0 ? ` (its protocols: ${known.join(', ')})` : ' (it has no *.protocol.json sources)'}`, {
        code: 'unknown-protocol',
      });
    }
  }
  if (ctx.json) ctx.emitJson({ ok: true, ...(all ? { all: true, protocols: set.sources.map((s) => s.protocol.protocol_id) } : { id }), text });
  else ctx.io.stdout(text);
  return EXIT_OK;
}
export default withInput(showInput, show);
