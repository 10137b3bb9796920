import { describe, expect, test } from 'vitest';
import { TopLevelIdScanner } from '../src/jsonrpc-id.js';

function idOf(text: string, pieces = 1): string | number | null {
  const scanner = new TopLevelIdScanner();
  const bytes = Buffer.from(text, 'utf8');
  const size = Math.ceil(bytes.length / pieces);
  for (let i = 0; i < bytes.length; i += size) scanner.feed(bytes.subarray(i, i + size));
  return scanner.id();
}

describe('TopLevelIdScanner: the id of a message too large to parse', () => {
  test.each<[string, string | number | null]>([
    ['{"jsonrpc":"2.0","id":5,"method":"x"}', 5],
    ['{"method":"tools/call","params":{"arguments":{"pad":"xxx"}},"jsonrpc":"2.0","id":42}', 42],
    ['{ "id" : "req-1" , "method":"x"}', 'req-1'],
    ['{"id":"a,b}\\"c","method":"x"}', 'a,b}"c'],
    ['{"id":-1.5e3}', -1500],
    // An "id" inside params, or in a string, is not the message's.
    ['{"params":{"id":7,"x":"\\"id\\":8"},"method":"x"}', null],
    ['{"params":[{"id":7}],"method":"x","id":9}', 9],
    ['{"idx":1,"xid":2,"identifier":3}', null],
    ['{"id":{"nested":1}}', null],
    ['{"id":[1]}', null],
    ['{"id":null}', null],
    ['{"id":true}', null],
    ['[{"id":1}]', null],
    ['"id"', null],
    ['\uFEFF {"id":3}', 3],
    ['{"pad":"ü€😀{[","id":11}', 11],
    // Cut off before the end (the message was not read whole): what was seen counts.
    ['{"id":12,"params":{"pad":"xxxx', 12],
    ['{"params":{"pad":"xxxx', null],
  ])('%s', (text, id) => {
    expect(idOf(text)).toEqual(id);
    // Split anywhere, the same answer.
    for (const pieces of [2, 3, 7, text.length]) expect(idOf(text, pieces), `${pieces} pieces`).toEqual(id);
  });

  test('the id after 20 MiB of arguments, fed in 64 KiB chunks', () => {
    const scanner = new TopLevelIdScanner();
    scanner.feed(Buffer.from('{"method":"tools/call","params":{"arguments":{"pad":"'));
    const chunk = Buffer.alloc(64 * 1024, 'x'.charCodeAt(0));
    for (let i = 0; i < 320; i++) scanner.feed(chunk);
    scanner.feed(Buffer.from('"}},"jsonrpc":"2.0","id":"last"}'));
    expect(scanner.id()).toBe('last');
  });
});
