/**
 * A scripted model on loopback for the agent CLIs that are not Claude Code, in the three wire
 * formats they speak offline: OpenAI's Responses API (Codex), the Gemini API (Gemini CLI) and
 * OpenAI Chat Completions (Copilot CLI's own-model mode, OpenCode's openai-compatible provider).
 *
 * Requests that offer tools are the agent loop: each gets the next scripted turn (tool calls in the
 * harness's own tool names, or text). Side calls without tools (titles, model routing, token
 * counts) get a harmless answer. Every agent-loop request is recorded in a neutral form, so a test
 * asserts what the harness told the model, whatever its wire: the tool results it sent back (a
 * hook's deny reason) and the user turns (a stop hook's reason, sent as a new prompt).
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export type Wire = 'responses' | 'gemini' | 'chat';

export interface ToolCall {
  name: string;
  /** The tool's arguments; for Codex's freeform `apply_patch`, `{ patch }` (sent as its raw input). */
  input: Record<string, unknown>;
}

/** One model turn: optional text, then tool calls (the harness runs them) or none (the turn ends). */
export interface Turn {
  text?: string;
  tools?: ToolCall[];
}

/** A turn, or a function of the request it answers (to echo an id the harness made up). */
export type ScriptStep = Turn | ((request: SeenRequest) => Turn);

/** What one agent-loop request carried, whatever the wire. */
export interface SeenRequest {
  path: string;
  /** Names of the tools offered. */
  tools: string[];
  /** Every tool result in the conversation, in order. */
  toolResults: string[];
  /** Every user turn's text, in order (the prompt first). */
  userTexts: string[];
  body: unknown;
}

export interface ModelServer {
  url: string;
  wire: Wire;
  requests: SeenRequest[];
  /** Requests that were not the agent loop (side calls, probes). */
  other: { method: string; path: string }[];
  close(): Promise<void>;
}

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);
const asArray = (v: unknown): unknown[] => (Array.isArray(v) ? v : []);

/** The text inside a content value of any of the three wires (strings, parts, blocks). */
function textOf(content: unknown): string {
  if (typeof content === 'string') return content;
  if (Array.isArray(content)) return content.map(textOf).join('\n');
  if (!isObject(content)) return '';
  for (const key of ['text', 'output', 'content', 'error']) if (key in content) return textOf(content[key]);
  return '';
}

/** Tool results and user texts, per wire. */
function digest(wire: Wire, body: Json): Pick<SeenRequest, 'tools' | 'toolResults' | 'userTexts'> {
  const toolResults: string[] = [];
  const userTexts: string[] = [];
  let tools: string[];
  if (wire === 'responses') {
    tools = asArray(body.tools).map((t) => (isObject(t) ? String(t.name ?? t.type) : ''));
    for (const item of asArray(body.input)) {
      if (!isObject(item)) continue;
      if (item.type === 'function_call_output' || item.type === 'custom_tool_call_output') toolResults.push(textOf(item.output));
      else if (item.type === 'message' && item.role === 'user') userTexts.push(textOf(item.content));
    }
  } else if (wire === 'gemini') {
    tools = asArray(body.tools).flatMap((t) => (isObject(t) ? asArray(t.functionDeclarations).map((f) => (isObject(f) ? String(f.name) : '')) : []));
    for (const content of asArray(body.contents)) {
      if (!isObject(content) || content.role !== 'user') continue;
      const texts: string[] = [];
      for (const part of asArray(content.parts)) {
        if (!isObject(part)) continue;
        if (isObject(part.functionResponse)) toolResults.push(JSON.stringify(part.functionResponse.response ?? {}));
        else if (typeof part.text === 'string') texts.push(part.text);
      }
      if (texts.length > 0) userTexts.push(texts.join('\n'));
    }
  } else {
    tools = asArray(body.tools).map((t) => (isObject(t) && isObject(t.function) ? String(t.function.name) : ''));
    for (const message of asArray(body.messages)) {
      if (!isObject(message)) continue;
      if (message.role === 'tool') toolResults.push(textOf(message.content));
      else if (message.role === 'user') userTexts.push(textOf(message.content));
    }
  }
  return { tools, toolResults, userTexts };
}

let ids = 0;

function send(res: ServerResponse, status: number, type: string, body: string): void {
  res.writeHead(status, { 'content-type': type, 'content-length': Buffer.byteLength(body) });
  res.end(body);
}

/** Responses API: a turn as SSE output items (Codex streams every request). */
function answerResponses(res: ServerResponse, turn: Turn): void {
  const id = `resp_${++ids}`;
  const items: Json[] = [];
  if (turn.text !== undefined) items.push({ type: 'message', role: 'assistant', id: `msg_${++ids}`, content: [{ type: 'output_text', text: turn.text, annotations: [] }] });
  for (const tool of turn.tools ?? []) {
    const callId = `call_${++ids}`;
    if (typeof tool.input.patch === 'string') items.push({ type: 'custom_tool_call', id: `ctc_${ids}`, call_id: callId, name: tool.name, input: tool.input.patch });
    else items.push({ type: 'function_call', id: `fc_${ids}`, call_id: callId, name: tool.name, arguments: JSON.stringify(tool.input) });
  }
  let out = '';
  const event = (data: Json): void => {
    out += `event: ${String(data.type)}\ndata: ${JSON.stringify(data)}\n\n`;
  };
  event({ type: 'response.created', response: { id } });
  for (const item of items) {
    event({ type: 'response.output_item.added', item });
    event({ type: 'response.output_item.done', item });
  }
  event({ type: 'response.completed', response: { id, usage: { input_tokens: 1, input_tokens_details: null, output_tokens: 1, output_tokens_details: null, total_tokens: 2 } } });
  send(res, 200, 'text/event-stream', out);
}

/** Gemini API: one candidate; streamed as one SSE event when asked. */
function answerGemini(res: ServerResponse, path: string, parts: Json[]): void {
  const body = JSON.stringify({
    candidates: [{ content: { role: 'model', parts }, finishReason: 'STOP', index: 0 }],
    usageMetadata: { promptTokenCount: 1, candidatesTokenCount: 1, totalTokenCount: 2 },
    modelVersion: 'scripted',
  });
  if (path.includes(':streamGenerateContent')) send(res, 200, 'text/event-stream', `data: ${body}\r\n\r\n`);
  else send(res, 200, 'application/json', body);
}

/** Chat Completions: streamed as chunks when asked. */
function answerChat(res: ServerResponse, request: Json, turn: Turn): void {
  const id = `chatcmpl-${++ids}`;
  const model = typeof request.model === 'string' ? request.model : 'scripted';
  const calls = (turn.tools ?? []).map((t, index) => ({ index, id: `call_${++ids}`, type: 'function', function: { name: t.name, arguments: JSON.stringify(t.input) } }));
  const finish = calls.length > 0 ? 'tool_calls' : 'stop';
  const usage = { prompt_tokens: 1, completion_tokens: 1, total_tokens: 2 };
  if (request.stream !== true) {
    const message: Json = { role: 'assistant', content: turn.text ?? null };
    if (calls.length > 0) message.tool_calls = calls.map(({ index: _index, ...c }) => c);
    send(res, 200, 'application/json', JSON.stringify({ id, object: 'chat.completion', created: 0, model, choices: [{ index: 0, message, finish_reason: finish }], usage }));
    return;
  }
  let out = '';
  const chunk = (delta: Json, finishReason: string | null, withUsage = false): void => {
    out += `data: ${JSON.stringify({ id, object: 'chat.completion.chunk', created: 0, model, choices: [{ index: 0, delta, finish_reason: finishReason }], ...(withUsage ? { usage } : {}) })}\n\n`;
  };
  if (turn.text !== undefined) chunk({ role: 'assistant', content: turn.text }, null);
  if (calls.length > 0) chunk({ role: 'assistant', tool_calls: calls }, null);
  chunk({}, finish, true);
  out += 'data: [DONE]\n\n';
  send(res, 200, 'text/event-stream', out);
}

/** Gemini CLI's side calls that want JSON (model routing, next-speaker checks) get a neutral verdict. */
const GEMINI_SIDE_JSON = JSON.stringify({ reasoning: 'scripted', next_speaker: 'user', model_choice: 'flash', complexity_reasoning: 'scripted', complexity_score: 1 });

async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

/**
 * Start a server for `wire`. The script is used in order; once it runs out every agent-loop
 * request gets `{ text: 'Done.' }`, so a harness that asks more than expected still ends.
 */
export async function startModelServer(wire: Wire, script: ScriptStep[]): Promise<ModelServer> {
  const requests: SeenRequest[] = [];
  const other: ModelServer['other'] = [];
  let used = 0;
  const next = (): Turn => {
    const step = script[used++] ?? { text: 'Done.' };
    return typeof step === 'function' ? step(requests.at(-1)!) : step;
  };
  const server = createServer((req, res) => {
    void (async () => {
      const path = req.url ?? '/';
      const raw = await readBody(req);
      let body: Json = {};
      try {
        const parsed = JSON.parse(raw || '{}') as unknown;
        if (isObject(parsed)) body = parsed;
      } catch {
        // Not JSON: a probe; answered below like any side call.
      }
      const agentLoop = req.method === 'POST' && asArray(body.tools).length > 0 && !path.includes(':countTokens');
      if (agentLoop) requests.push({ path, ...digest(wire, body), body });
      else other.push({ method: req.method ?? 'GET', path });
      if (wire === 'responses') {
        if (req.method === 'POST' && /\/responses\/?$/.test(path.split('?')[0]!)) return answerResponses(res, agentLoop ? next() : { text: 'Scripted side answer.' });
        return send(res, 200, 'application/json', JSON.stringify({ data: [], models: [] }));
      }
      if (wire === 'gemini') {
        if (path.includes(':countTokens')) return send(res, 200, 'application/json', '{"totalTokens":10}');
        if (req.method !== 'POST') return send(res, 200, 'application/json', '{"models":[]}');
        if (agentLoop) {
          const turn = next();
          const parts: Json[] = [];
          if (turn.text !== undefined) parts.push({ text: turn.text });
          for (const tool of turn.tools ?? []) parts.push({ functionCall: { name: tool.name, args: tool.input } });
          return answerGemini(res, path, parts);
        }
        const config = isObject(body.generationConfig) ? body.generationConfig : {};
        const wantsJson = config.responseMimeType === 'application/json' || config.responseJsonSchema !== undefined || config.responseSchema !== undefined;
        return answerGemini(res, path, [{ text: wantsJson ? GEMINI_SIDE_JSON : 'Scripted side answer.' }]);
      }
      if (req.method !== 'POST') return send(res, 200, 'application/json', JSON.stringify({ object: 'list', data: [{ id: 'scripted', object: 'model' }] }));
      return answerChat(res, body, agentLoop ? next() : { text: 'Scripted title' });
    })().catch((err: unknown) => send(res, 500, 'application/json', JSON.stringify({ error: { message: String(err) } })));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    wire,
    requests,
    other,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** Every tool result the harness sent back, from the last agent-loop request (the whole conversation). */
export function toolResults(server: ModelServer): string[] {
  return server.requests.at(-1)?.toolResults ?? [];
}

/** Every user turn of the last request: the prompt, then what stop hooks sent the model back with. */
export function userTexts(server: ModelServer): string[] {
  return server.requests.at(-1)?.userTexts ?? [];
}
