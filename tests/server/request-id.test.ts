import type { IncomingMessage } from 'node:http';
import { describe, expect, it } from 'vitest';
import { requestIds } from '../../server/src/http/request-id';

/** A request as the server's socket sees it: who sent it, and the id it names. */
const from = (remoteAddress: string, id?: string) => ({ socket: { remoteAddress }, headers: id === undefined ? {} : { 'x-request-id': id } }) as unknown as IncomingMessage;
const uuid = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

describe('request ids (http/request-id.ts)', () => {
  it('keeps the id of a proxy TRUST_PROXY names, and of no one else', () => {
    const idOf = requestIds('loopback,10.0.0.0/8');
    expect(idOf(from('127.0.0.1', '0123456789abcdef0123456789abcdef'))).toBe('0123456789abcdef0123456789abcdef');
    expect(idOf(from('10.1.2.3', 'trace-7f3a:01'))).toBe('trace-7f3a:01');
    // A client on the internet, speaking to the server directly, names nobody's request.
    expect(idOf(from('203.0.113.9', '0123456789abcdef0123456789abcdef'))).toMatch(uuid);
    // Nor does a proxy's header that is no id: too short, too long, or with other characters.
    for (const bad of ['short', 'x'.repeat(65), 'has space in it', 'line\nbreak-0123']) expect(idOf(from('127.0.0.1', bad))).toMatch(uuid);
    expect(idOf(from('127.0.0.1'))).toMatch(uuid);
  });

  it('takes no header at all without a trusted proxy, and any peer’s when TRUST_PROXY is true', () => {
    expect(requestIds(false)(from('127.0.0.1', '0123456789abcdef0123456789abcdef'))).toMatch(uuid);
    expect(requestIds(true)(from('203.0.113.9', '0123456789abcdef0123456789abcdef'))).toBe('0123456789abcdef0123456789abcdef');
    const idOf = requestIds(false);
    expect(idOf(from('127.0.0.1'))).not.toBe(idOf(from('127.0.0.1')));
  });
});
