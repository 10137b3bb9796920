/**
 * The JavaScript SHA-256 (used for the digests of small state writes) must equal node:crypto's on
 * every input: lengths around the 64-byte block and the 56-byte padding boundary, multi-byte UTF-8,
 * lone surrogates (encoded as U+FFFD, as Buffer.from does), and random texts.
 */
import { createHash } from 'node:crypto';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { sha256Js } from '../src/sha256.js';
import { sha256Hex } from '../src/digest.js';

const native = (bytes: Uint8Array): string => createHash('sha256').update(bytes).digest('hex');

describe('sha256Js', () => {
  it('matches the FIPS 180-4 examples', () => {
    expect(sha256Js(new Uint8Array())).toBe('e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855');
    expect(sha256Js(Buffer.from('abc'))).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
    expect(sha256Js(Buffer.from('abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq'))).toBe('248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1');
  });

  it('matches node:crypto at every length from 0 to 300 bytes (all block and padding boundaries)', () => {
    for (let n = 0; n <= 300; n++) {
      const bytes = Uint8Array.from({ length: n }, (_, i) => (i * 131 + n) & 0xff);
      expect(sha256Js(bytes), `length ${n}`).toBe(native(bytes));
    }
  });

  it('matches node:crypto on random bytes and on random unicode text through sha256Hex', () => {
    fc.assert(fc.property(fc.uint8Array({ maxLength: 2000 }), (bytes) => sha256Js(bytes) === native(bytes)), { numRuns: 300 });
    fc.assert(fc.property(fc.string({ unit: 'binary', maxLength: 500 }), (text) => sha256Hex(text) === createHash('sha256').update(text, 'utf8').digest('hex')), { numRuns: 300 });
  });

  it('sha256Hex agrees with node:crypto on both sides of the JS/native switch', () => {
    for (const length of [8 * 1024 - 1, 8 * 1024, 8 * 1024 + 1]) {
      const text = 'é'.repeat(length);
      expect(sha256Hex(text)).toBe(createHash('sha256').update(text, 'utf8').digest('hex'));
    }
  });
});
