/**
 * The top-level "id" of a JSON-RPC message that is too large to parse, found by streaming its bytes
 * through a small scanner that keeps only its nesting depth and, at the top level, the key it is in.
 * The SDK's client writes the id last (`{"method":…,"params":…,"jsonrpc":"2.0","id":5}`), after
 * megabytes of arguments, so the whole message is scanned. Only ASCII bytes matter here; those of
 * multi-byte UTF-8 characters (all >= 0x80) never look like structure.
 */

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const COLON = 0x3a;
const COMMA = 0x2c;
const OPEN_OBJECT = 0x7b;
const CLOSE_OBJECT = 0x7d;
const OPEN_ARRAY = 0x5b;
const CLOSE_ARRAY = 0x5d;
/** An id longer than this (in its JSON form) is not one a client uses: not collected. */
const MAX_ID_BYTES = 256;

export class TopLevelIdScanner {
  private depth = 0;
  private inString = false;
  private escaped = false;
  /** At depth 1: whether the next string is a key. */
  private expectKey = false;
  /** The first bytes of the top-level key being read. */
  private key: number[] | undefined;
  private lastKey = '';
  /** The raw bytes of the top-level "id" value, while it is being read. */
  private value: number[] | undefined;
  private found: string | number | null = null;
  /** The message did not start as a JSON object: it has no id to find. */
  private notAnObject = false;
  private started = false;

  feed(bytes: Uint8Array): void {
    for (const b of bytes) this.step(b);
  }

  /** The id, when it was a string or a number at the top level; else null. */
  id(): string | number | null {
    if (this.value !== undefined) this.finishValue();
    return this.found;
  }

  private step(b: number): void {
    if (this.notAnObject) return;
    if (!this.started) {
      if (b === 0x20 || b === 0x09 || b === 0x0d || b === 0x0a || b === 0xef || b === 0xbb || b === 0xbf) return;
      this.started = true;
      if (b !== OPEN_OBJECT) {
        this.notAnObject = true;
        return;
      }
    }
    if (this.value !== undefined && (this.depth > 1 || this.inString || (b !== COMMA && b !== CLOSE_OBJECT))) {
      if (this.value.length <= MAX_ID_BYTES) this.value.push(b);
    }
    if (this.inString) {
      if (this.escaped) this.escaped = false;
      else if (b === BACKSLASH) this.escaped = true;
      else if (b === QUOTE) {
        this.inString = false;
        if (this.key !== undefined) {
          this.lastKey = String.fromCharCode(...this.key);
          this.key = undefined;
        }
      } else if (this.key !== undefined && this.key.length <= 2) {
        // Three bytes are enough to know a key is not "id".
        this.key.push(b);
      }
      return;
    }
    switch (b) {
      case QUOTE:
        this.inString = true;
        if (this.depth === 1 && this.expectKey) {
          this.key = [];
          this.expectKey = false;
        }
        return;
      case OPEN_OBJECT:
      case OPEN_ARRAY:
        this.depth++;
        if (this.depth === 1) this.expectKey = true;
        return;
      case CLOSE_OBJECT:
      case CLOSE_ARRAY:
        if (this.depth === 1 && this.value !== undefined) this.finishValue();
        this.depth--;
        return;
      case COMMA:
        if (this.depth === 1) {
          if (this.value !== undefined) this.finishValue();
          this.expectKey = true;
        }
        return;
      case COLON:
        if (this.depth === 1 && this.lastKey === 'id' && this.found === null) this.value = [];
        return;
      default:
        return;
    }
  }

  private finishValue(): void {
    const raw = Buffer.from(this.value ?? []).toString('utf8').trim();
    this.value = undefined;
    if (raw.length === 0 || raw.length > MAX_ID_BYTES) return;
    try {
      const parsed = JSON.parse(raw) as unknown;
      if (typeof parsed === 'string' || (typeof parsed === 'number' && Number.isFinite(parsed))) this.found = parsed;
    } catch {
      // Not a JSON value: no id.
    }
  }
}
