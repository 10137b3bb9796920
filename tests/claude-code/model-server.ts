/**
 * A scripted stand-in for the Anthropic Messages API on loopback, so real Claude Code sessions run
 * without a network or a model. Each `POST /v1/messages` that offers `tools` (the agent loop) gets
 * the next scripted reply, streamed in the API's SSE format; calls without tools (titles, summaries,
 * side questions) get plain text. Every request body is recorded so a test can assert what Claude
 * Code sent back to the model: tool results, hook reasons, the Stop hook's continuation.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface ToolCall {
  name: string;
  input: Record<string, unknown>;
}

/** One assistant turn: optional text, then tool calls (stop_reason tool_use) or none (end_turn). */
export interface Reply {
  text?: string;
  tools?: ToolCall[];
}

export interface ContentBlock {
  type: string;
  text?: string;
  content?: unknown;
  is_error?: boolean;
  tool_use_id?: string;
  name?: string;
  input?: unknown;
}

export interface Message {
  role: 'user' | 'assistant';
  content: string | ContentBlock[];
}

export interface MessagesRequest {
  model?: string;
  stream?: boolean;
  tools?: { name: string }[];
  system?: unknown;
  messages: Message[];
}

export interface ModelServer {
  url: string;
  /** Bodies of the agent-loop requests (those offering tools), in order. */
  requests: MessagesRequest[];
  /** Every other request (side calls without tools, probes), with its body when it had one. */
  other: { method: string; path: string; body?: unknown }[];
  /** Scripted replies not yet used. */
  remaining(): number;
  close(): Promise<void>;
}

/**
 * The script: a list of replies used in order, or a function of the request and its index among
 * agent-loop requests (return undefined to end the turn with plain text).
 */
export type Script = Reply[] | ((request: MessagesRequest, index: number) => Reply | undefined);

let toolIds = 0;

function sse(res: ServerResponse, event: string, data: unknown): void {
  res.write(`event: ${event}\ndata: ${JSON.stringify(data)}\n\n`);
}

function blocksOf(reply: Reply): ContentBlock[] {
  const blocks: ContentBlock[] = [];
  if (reply.text) blocks.push({ type: 'text', text: reply.text });
  for (const tool of reply.tools ?? []) blocks.push({ type: 'tool_use', id: `toolu_scripted_${++toolIds}`, name: tool.name, input: tool.input } as ContentBlock);
  return blocks;
}

function answer(res: ServerResponse, model: string, reply: Reply, stream: boolean): void {
  const content = blocksOf(reply);
  const stopReason = reply.tools?.length ? 'tool_use' : 'end_turn';
  const id = `msg_scripted_${++toolIds}`;
  const usage = { input_tokens: 10, output_tokens: 10, cache_creation_input_tokens: 0, cache_read_input_tokens: 0 };
  if (!stream) {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ id, type: 'message', role: 'assistant', model, content, stop_reason: stopReason, stop_sequence: null, usage }));
    return;
  }
  res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', connection: 'keep-alive' });
  sse(res, 'message_start', { type: 'message_start', message: { id, type: 'message', role: 'assistant', model, content: [], stop_reason: null, stop_sequence: null, usage: { ...usage, output_tokens: 1 } } });
  content.forEach((block, index) => {
    if (block.type === 'text') {
      sse(res, 'content_block_start', { type: 'content_block_start', index, content_block: { type: 'text', text: '' } });
      sse(res, 'content_block_delta', { type: 'content_block_delta', index, delta: { type: 'text_delta', text: block.text } });
    } else {
      const { input, ...start } = block as ContentBlock & { id: string };
      sse(res, 'content_block_start', { type: 'content_block_start', index, content_block: { ...start, input: {} } });
      const json = JSON.stringify(input);
      // Split the input across two deltas, as the API does for anything but tiny inputs.
      const half = Math.floor(json.length / 2);
      sse(res, 'content_block_delta', { type: 'content_block_delta', index, delta: { type: 'input_json_delta', partial_json: json.slice(0, half) } });
      sse(res, 'content_block_delta', { type: 'content_block_delta', index, delta: { type: 'input_json_delta', partial_json: json.slice(half) } });
    }
    sse(res, 'content_block_stop', { type: 'content_block_stop', index });
  });
  sse(res, 'message_delta', { type: 'message_delta', delta: { stop_reason: stopReason, stop_sequence: null }, usage: { output_tokens: 10 } });
  sse(res, 'message_stop', { type: 'message_stop' });
  res.end();
}

async function body(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

export async function startModelServer(script: Script): Promise<ModelServer> {
  const requests: MessagesRequest[] = [];
  const other: ModelServer['other'] = [];
  let used = 0;
  const next = (request: MessagesRequest): Reply => {
    const index = requests.length - 1;
    if (typeof script === 'function') return script(request, index) ?? { text: 'Done.' };
    return script[used++] ?? { text: 'Done.' };
  };
  const server = createServer((req, res) => {
    void (async () => {
      const path = (req.url ?? '/').split('?')[0] ?? '/';
      const raw = await body(req);
      if (req.method === 'POST' && path === '/v1/messages') {
        const request = JSON.parse(raw) as MessagesRequest;
        const model = request.model ?? 'claude-scripted';
        if (request.tools?.length) {
          requests.push(request);
          answer(res, model, next(request), request.stream === true);
        } else {
          other.push({ method: req.method, path, body: request });
          answer(res, model, { text: 'Scripted side answer.' }, request.stream === true);
        }
        return;
      }
      other.push({ method: req.method ?? 'GET', path, ...(raw ? { body: raw } : {}) });
      if (path === '/v1/messages/count_tokens') {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ input_tokens: 100 }));
        return;
      }
      // Anything else Claude Code probes (model lists, metrics, feature flags): harmless and empty.
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ data: [] }));
    })().catch((err: unknown) => {
      res.writeHead(500, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ type: 'error', error: { type: 'api_error', message: String(err) } }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    other,
    remaining: () => (typeof script === 'function' ? 0 : Math.max(0, script.length - used)),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** The text of a message's blocks (tool results included), for assertions. */
export function textOf(content: unknown): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  return content
    .map((b: ContentBlock) => {
      if (b.type === 'text') return b.text ?? '';
      if (b.type === 'tool_result') return textOf(b.content);
      return '';
    })
    .join('\n');
}

/** Every tool_result block Claude Code sent back, in order. */
export function toolResults(server: ModelServer): { text: string; isError: boolean; toolUseId: string }[] {
  const last = server.requests.at(-1);
  if (!last) return [];
  const out: { text: string; isError: boolean; toolUseId: string }[] = [];
  for (const message of last.messages) {
    if (message.role !== 'user' || typeof message.content === 'string') continue;
    for (const b of message.content) if (b.type === 'tool_result') out.push({ text: textOf(b.content), isError: b.is_error === true, toolUseId: b.tool_use_id ?? '' });
  }
  return out;
}
