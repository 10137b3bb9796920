/**
 * MCP resources: what the agent reads rather than does.
 *   ratchet://protocols/{id}     one per protocol of the project: its full text, rendered by
 *                                @ratchet/protocol-compiler from protocols/ (as AGENTS.md shows it);
 *   ratchet://task               the current task: its status (state, legal moves, step) and the
 *                                next step with the commands that follow (`run status`, `run next`);
 *   ratchet://campaign/ready     the campaign's ready work (`campaign ready`, nothing claimed);
 *   ratchet://flows/{session}    each open flow session's directive: its current step, as text.
 * Every read is a read: no resource changes state.
 */
import { join } from 'node:path';
import type * as McpSdk from '@modelcontextprotocol/sdk/server/mcp.js';
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { loadProtocolSet, renderProtocols, type ProtocolSet } from '@ratchet/protocol-compiler';
import type { Context, OperationResult } from '@ratchet/cli';
import { runOperation, type InvokeOptions } from './invoke.js';

type Sdk = typeof McpSdk;

const JSON_TYPE = 'application/json';
const MARKDOWN = 'text/markdown';

export function registerResources(server: McpServer, sdk: Sdk, options: InvokeOptions): void {
  const protocols = (): Promise<ProtocolSet> => loadProtocolSet(join(options.project, 'protocols'), { schemaRoot: options.project });

  server.registerResource(
    'protocol',
    new sdk.ResourceTemplate('ratchet://protocols/{id}', {
      // No protocols directory (or one that does not load): no protocol resources, not an error.
      list: async () => ({
        resources: (await protocols().catch(() => undefined))?.sources.map((s) => ({
          uri: `ratchet://protocols/${encodeURIComponent(s.protocol.protocol_id)}`,
          name: s.protocol.protocol_id,
          title: `Protocol ${s.protocol.protocol_id}`,
          description: s.protocol.description,
          mimeType: MARKDOWN,
        })) ?? [],
      }),
    }),
    { title: 'Protocol', description: 'A protocol of this project, in full: its rules and JSON definition.', mimeType: MARKDOWN },
    async (uri, variables) => {
      const id = decodeURIComponent(String(variables.id));
      const set = await protocols();
      const source = set.sources.find((s) => s.protocol.protocol_id === id);
      if (source === undefined) throw new Error(`no protocol ${id} in protocols/ (known: ${set.sources.map((s) => s.protocol.protocol_id).join(', ')})`);
      const text = renderProtocols({ ...set, sources: [source], prose: [] }, { title: `Protocol ${id}`, sourceLabel: `protocols/${source.name}` });
      return { contents: [{ uri: uri.href, mimeType: MARKDOWN, text }] };
    },
  );

  server.registerResource(
    'task',
    'ratchet://task',
    { title: 'Current task', description: 'The task: state, legal moves, current step, and the next step with its commands.', mimeType: JSON_TYPE },
    async (uri) => {
      const status = await document('run status', async (ctx) => (await cli()).orchestratorOperations.status(ctx, {}), options);
      const next = await document('run next', async (ctx) => (await cli()).orchestratorOperations.next(ctx, {}), options);
      return { contents: [{ uri: uri.href, mimeType: JSON_TYPE, text: JSON.stringify({ status, next: next?.next ?? next }) }] };
    },
  );

  server.registerResource(
    'campaign-ready',
    'ratchet://campaign/ready',
    { title: 'Ready campaign work', description: 'Campaign tasks whose dependencies are complete (nothing is claimed by reading).', mimeType: JSON_TYPE },
    async (uri) => ({ contents: [{ uri: uri.href, mimeType: JSON_TYPE, text: JSON.stringify(await document('campaign ready', async (ctx) => (await cli()).campaignOperations.ready(ctx, {}), options)) }] }),
  );

  server.registerResource(
    'flow',
    new sdk.ResourceTemplate('ratchet://flows/{session}', {
      list: async () => {
        const listed = (await document('flow status', async (ctx) => (await cli()).flowsOperations.status(ctx, {}), options)) as { sessions?: { sessionId: string; flow: string; status: string; current: string }[] } | undefined;
        return {
          resources: (listed?.sessions ?? [])
            .filter((s) => OPEN.has(s.status))
            .map((s) => ({ uri: `ratchet://flows/${encodeURIComponent(s.sessionId)}`, name: s.sessionId, title: `Flow ${s.flow}, step ${s.current}`, mimeType: MARKDOWN })),
        };
      },
    }),
    { title: 'Flow directive', description: "An open flow session's current step: what to do and the command that leaves it.", mimeType: MARKDOWN },
    async (uri, variables) => {
      const session = decodeURIComponent(String(variables.session));
      const doc = await document('flow status', async (ctx) => (await cli()).flowsOperations.status(ctx, { session }), options);
      if (typeof doc?.text !== 'string') throw new Error(errorOf(doc) ?? `no flow session ${String(variables.session)}`);
      return { contents: [{ uri: uri.href, mimeType: MARKDOWN, text: doc.text }] };
    },
  );
}

/** Sessions still to be worked on: the ones a directive is for. */
const OPEN = new Set(['EXECUTING', 'LEARNINGS_PENDING', 'HALTED']);

/** The CLI, loaded on the first read. */
const cli = async () => import('@ratchet/cli');

/** The read operation's document, whatever its exit code (a read reports "no task yet" as a document). */
async function document(command: string, operation: (ctx: Context) => Promise<OperationResult>, options: InvokeOptions): Promise<Record<string, unknown>> {
  return (await runOperation(command, operation, options)).document;
}

function errorOf(doc: Record<string, unknown>): string | undefined {
  const message = (doc?.error as { message?: unknown } | undefined)?.message;
  return typeof message === 'string' ? message : undefined;
}
