/**
 * The server's stdio transport: newline-delimited JSON-RPC, like the SDK's StdioServerTransport,
 * with what a server fed by an agent needs and that one lacks:
 * - A limit per message, not per buffer. A longer line is discarded as it arrives (never held in
 *   memory) and answered with -32600, and the next line is read as usual. The SDK's ReadBuffer
 *   closed the transport past 10 MiB, so the server exited 0 without a word.
 * - An error reply for every line that is not a message, so the client is not left waiting:
 *   -32700 for bad JSON, -32600 for JSON that is not a JSON-RPC message, -32602 for a request whose
 *   params are not an object. The SDK only passed these to `onerror`. The id is the request's own
 *   where it can be told (a string or a number at the top level), else null, as JSON-RPC says.
 * - End of input closes the transport, and so the server.
 */
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { formatBytes } from '@ratchet/store';
import { TopLevelIdScanner } from './jsonrpc-id.js';

/** 16 MiB: far above any tool call's arguments, far below what would hurt memory. */
export const DEFAULT_MAX_MESSAGE_BYTES = 16 * 1024 * 1024;

const PARSE_ERROR = -32700;
const INVALID_REQUEST = -32600;
const INVALID_PARAMS = -32602;

type Id = string | number | null;

export interface LimitedStdioOptions {
  /** The longest message (one line, without its newline) read; default DEFAULT_MAX_MESSAGE_BYTES. */
  maxMessageBytes?: number;
  /** Called with a one-line note for each message refused (the server writes it to stderr). */
  onRefused?: (note: string) => void;
}

export class LimitedStdioServerTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;

  private readonly maxBytes: number;
  private parts: Buffer[] = [];
  private size = 0;
  /** Set while the current line is over the limit: its bytes go only through the id scanner. */
  private scanner: TopLevelIdScanner | undefined;
  private started = false;
  private closed = false;
  private validate: ((value: unknown) => boolean) | undefined;

  constructor(
    private readonly stdin: NodeJS.ReadableStream = process.stdin,
    private readonly stdout: NodeJS.WritableStream = process.stdout,
    private readonly options: LimitedStdioOptions = {},
  ) {
    this.maxBytes = options.maxMessageBytes ?? DEFAULT_MAX_MESSAGE_BYTES;
  }

  async start(): Promise<void> {
    if (this.started) throw new Error('LimitedStdioServerTransport already started');
    this.started = true;
    // The SDK's own message schema, loaded with the SDK (createServer already did).
    const { JSONRPCMessageSchema } = await import('@modelcontextprotocol/sdk/types.js');
    this.validate = (value) => JSONRPCMessageSchema.safeParse(value).success;
    this.stdin.on('data', this.onData);
    this.stdin.on('end', this.onEnd);
    this.stdin.on('error', this.onStreamError);
    this.stdout.on('error', this.onStreamError);
  }

  send(message: JSONRPCMessage): Promise<void> {
    return this.write(message);
  }

  close(): Promise<void> {
    if (this.closed) return Promise.resolve();
    this.closed = true;
    this.stdin.off('data', this.onData);
    this.stdin.off('end', this.onEnd);
    this.stdin.off('error', this.onStreamError);
    this.stdout.off('error', this.onStreamError);
    this.stdin.pause();
    this.parts = [];
    this.scanner = undefined;
    this.onclose?.();
    return Promise.resolve();
  }

  private readonly onData = (chunk: Buffer | string): void => {
    const bytes = typeof chunk === 'string' ? Buffer.from(chunk, 'utf8') : chunk;
    let start = 0;
    for (;;) {
      const newline = bytes.indexOf(0x0a, start);
      if (newline === -1) break;
      this.add(bytes.subarray(start, newline));
      this.endLine();
      start = newline + 1;
    }
    if (start < bytes.length) this.add(bytes.subarray(start));
  };

  private readonly onEnd = (): void => {
    // A last message without a newline is still a message.
    if (this.size > 0 || this.scanner !== undefined) this.endLine();
    void this.close();
  };

  private readonly onStreamError = (error: Error): void => {
    this.onerror?.(error);
    // Standard input or output gone (the client died): nothing more can be read or answered.
    void this.close();
  };

  private add(bytes: Buffer): void {
    if (bytes.length === 0) return;
    this.size += bytes.length;
    if (this.scanner !== undefined) {
      this.scanner.feed(bytes);
      return;
    }
    if (this.size <= this.maxBytes) {
      // A copy: the stream may reuse its chunk's memory.
      this.parts.push(Buffer.from(bytes));
      return;
    }
    // Over the limit: from now on only look for the id, and let go of what was kept.
    this.scanner = new TopLevelIdScanner();
    for (const part of this.parts) this.scanner.feed(part);
    this.scanner.feed(bytes);
    this.parts = [];
  }

  private endLine(): void {
    const size = this.size;
    const scanner = this.scanner;
    const parts = this.parts;
    this.parts = [];
    this.size = 0;
    this.scanner = undefined;
    if (scanner !== undefined) {
      this.refuse(scanner.id(), INVALID_REQUEST, `the message is ${formatBytes(size)}, over the ${formatBytes(this.maxBytes)} limit (RATCHET_MCP_MAX_MESSAGE_BYTES); it was not read`);
      return;
    }
    let text = Buffer.concat(parts, size).toString('utf8');
    if (text.endsWith('\r')) text = text.slice(0, -1);
    if (text.trim() === '') return;
    this.handle(text);
  }

  private handle(text: string): void {
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch (err) {
      this.refuse(null, PARSE_ERROR, `parse error: ${(err as Error).message}`);
      return;
    }
    if (this.validate?.(value) === true) {
      try {
        this.onmessage?.(value as JSONRPCMessage);
      } catch (err) {
        this.onerror?.(err instanceof Error ? err : new Error(String(err)));
      }
      return;
    }
    if (typeof value !== 'object' || value === null || Array.isArray(value)) {
      this.refuse(null, INVALID_REQUEST, Array.isArray(value) ? 'invalid request: batches are not supported; send one JSON-RPC message per line' : 'invalid request: a JSON-RPC message is a JSON object');
      return;
    }
    const message = value as Record<string, unknown>;
    const id = typeof message.id === 'string' || (typeof message.id === 'number' && Number.isFinite(message.id)) ? message.id : null;
    const isRequest = message.jsonrpc === '2.0' && typeof message.method === 'string';
    if (isRequest && 'params' in message && (typeof message.params !== 'object' || message.params === null || Array.isArray(message.params))) {
      // A notification gets no reply, even a bad one (JSON-RPC 2.0, section 4.1).
      if (!('id' in message)) this.options.onRefused?.(`notification ${message.method as string} refused: its params are not an object`);
      else this.refuse(id, INVALID_PARAMS, `invalid params: params must be an object, got ${describe(message.params)}`);
      return;
    }
    this.refuse(id, INVALID_REQUEST, `invalid request: ${whatIsWrong(message)}`);
  }

  private refuse(id: Id, code: number, message: string): void {
    this.options.onRefused?.(`message refused (${code}): ${message}`);
    void this.write({ jsonrpc: '2.0', id, error: { code, message } });
  }

  private write(message: unknown): Promise<void> {
    if (this.closed) return Promise.resolve();
    return new Promise((resolve) => {
      if (this.stdout.write(`${JSON.stringify(message)}\n`)) resolve();
      else this.stdout.once('drain', resolve);
    });
  }
}

function whatIsWrong(message: Record<string, unknown>): string {
  if (message.jsonrpc !== '2.0') return `"jsonrpc" must be "2.0", got ${describe(message.jsonrpc)}`;
  if ('id' in message && typeof message.id !== 'string' && typeof message.id !== 'number') return `"id" must be a string or a number, got ${describe(message.id)}`;
  if ('method' in message && typeof message.method !== 'string') return `"method" must be a string, got ${describe(message.method)}`;
  if (!('method' in message) && !('result' in message) && !('error' in message)) return 'it has no "method" (a request or notification) and no "result" or "error" (a response)';
  return 'it is not a request, notification or response MCP accepts';
}

function describe(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  return typeof value === 'string' ? `the string ${JSON.stringify(value.slice(0, 40))}` : `a ${typeof value}`;
}
