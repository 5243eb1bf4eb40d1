import { lookup as dnsLookup } from 'node:dns/promises';
import http from 'node:http';
import https from 'node:https';
import { BlockList, isIP, type LookupFunction } from 'node:net';
import type { OriginProofProblem } from '../../../../lib/contract/badge';

/**
 * The one outbound fetch of site proofs: a GET of a partner's page, made so that a creator cannot
 * point the server at anything but a public web server (server-side request forgery):
 *
 * - with `allowPrivate` false (production), the host is resolved and every address it has is
 *   checked: loopback, private, link-local, carrier-grade NAT, multicast and reserved ranges are
 *   refused; the connection then goes to the address that was checked, so a second answer of the
 *   name server (DNS rebinding) cannot send it elsewhere;
 * - a short timeout for the whole exchange, a size limit (a longer body is cut or refused);
 * - redirects only within the same origin, at most three;
 * - no cookies, no credentials, nothing of the server's own in the request.
 */
export interface ProofFetchOptions {
  allowPrivate: boolean;
  timeoutMs?: number;
  maxBytes?: number;
  /** A longer body is an error (`too-large`) rather than cut at `maxBytes`. */
  refuseLonger?: boolean;
}

export type ProofFetchResult = { ok: true; status: number; body: string } | { ok: false; problem: OriginProofProblem; status?: number };

// Two lists: a BlockList also matches IPv4 addresses against IPv6 rules of ::ffff:0:0/96.
const refused = new BlockList();
const refusedV6 = new BlockList();
for (const [net, prefix] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.0.2.0', 24],
  ['192.88.99.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['198.51.100.0', 24],
  ['203.0.113.0', 24],
  ['224.0.0.0', 4],
  ['240.0.0.0', 4],
] as const) {
  refused.addSubnet(net, prefix, 'ipv4');
}
for (const [net, prefix] of [
  ['::', 128],
  ['::1', 128],
  // IPv4 inside IPv6 (`::ffff:7f00:1` is 127.0.0.1 as the URL parser writes it), and NAT64.
  ['::ffff:0:0', 96],
  ['64:ff9b::', 96],
  ['100::', 64],
  ['2001:db8::', 32],
  ['fc00::', 7],
  ['fe80::', 10],
  ['fec0::', 10],
  ['ff00::', 8],
] as const) {
  refusedV6.addSubnet(net, prefix, 'ipv6');
}

/** Whether `address` is anything but a public unicast address (an IPv4 inside IPv6 is judged as IPv4). */
export function isPrivateAddress(address: string): boolean {
  const family = isIP(address);
  if (family === 4) return refused.check(address, 'ipv4');
  if (family !== 6) return true;
  const mapped = /^(?:0{0,4}:){0,4}:?(?:0{0,4}:)?ffff:(\d{1,3}(?:\.\d{1,3}){3})$/i.exec(address) ?? /^::(\d{1,3}(?:\.\d{1,3}){3})$/.exec(address);
  if (mapped) return refused.check(mapped[1]!, 'ipv4');
  return refusedV6.check(address, 'ipv6');
}

class AddressRefused extends Error {}

/** Resolves `host` and checks every address; the connection uses the first, already checked. */
function checkedLookup(allowPrivate: boolean): LookupFunction {
  return (hostname, options, callback) => {
    dnsLookup(hostname, { all: true, verbatim: true })
      .then((addresses) => {
        if (addresses.length === 0) throw new Error('no address');
        if (!allowPrivate && addresses.some((entry) => isPrivateAddress(entry.address))) throw new AddressRefused(hostname);
        const chosen = addresses.find((entry) => options.family === undefined || options.family === 0 || entry.family === options.family) ?? addresses[0]!;
        if (options.all) callback(null, [{ address: chosen.address, family: chosen.family }]);
        else callback(null, chosen.address, chosen.family);
      })
      .catch((error: Error) => callback(error as NodeJS.ErrnoException, '', 4));
  };
}

function getOnce(url: URL, options: Required<Omit<ProofFetchOptions, 'allowPrivate' | 'refuseLonger'>> & ProofFetchOptions, deadline: number): Promise<ProofFetchResult & { location?: string }> {
  return new Promise((resolve) => {
    const host = url.hostname.replace(/^\[|\]$/g, '');
    if (isIP(host) !== 0 && !options.allowPrivate && isPrivateAddress(host)) {
      resolve({ ok: false, problem: 'address-refused' });
      return;
    }
    const left = deadline - Date.now();
    if (left <= 0) {
      resolve({ ok: false, problem: 'timeout' });
      return;
    }
    const client = url.protocol === 'https:' ? https : http;
    const request = client.request(url, {
      method: 'GET',
      lookup: checkedLookup(options.allowPrivate),
      headers: { 'User-Agent': 'FanstageSiteVerification/1.0', Accept: 'text/plain, text/html;q=0.9, */*;q=0.1', 'Accept-Encoding': 'identity' },
      agent: false,
      timeout: left,
    });
    const timer = setTimeout(() => request.destroy(new Error('timeout')), left);
    const finish = (result: ProofFetchResult & { location?: string }) => {
      clearTimeout(timer);
      resolve(result);
    };
    request.on('timeout', () => request.destroy(new Error('timeout')));
    request.on('error', (error) => {
      if (error instanceof AddressRefused) finish({ ok: false, problem: 'address-refused' });
      else finish({ ok: false, problem: error.message === 'timeout' ? 'timeout' : 'unreachable' });
    });
    request.on('response', (response) => {
      const status = response.statusCode ?? 0;
      if (status >= 300 && status < 400) {
        response.resume();
        const location = response.headers.location;
        finish(location === undefined ? { ok: false, problem: 'http-status', status } : { ok: false, problem: 'redirect-refused', status, location });
        request.destroy();
        return;
      }
      const chunks: Buffer[] = [];
      let size = 0;
      response.on('data', (chunk: Buffer) => {
        size += chunk.length;
        if (size > options.maxBytes) {
          if (options.refuseLonger) {
            finish({ ok: false, problem: 'too-large', status });
          } else {
            chunks.push(chunk.subarray(0, chunk.length - (size - options.maxBytes)));
            finish({ ok: true, status, body: Buffer.concat(chunks).toString('utf8') });
          }
          request.destroy();
          return;
        }
        chunks.push(chunk);
      });
      response.on('end', () => finish({ ok: true, status, body: Buffer.concat(chunks).toString('utf8') }));
      response.on('error', () => finish({ ok: false, problem: 'unreachable', status }));
    });
    request.end();
  });
}

/** GET `url` under the rules above; a redirect is followed only to the same origin. */
export async function proofFetch(url: string, options: ProofFetchOptions): Promise<ProofFetchResult> {
  const settings = { timeoutMs: 5000, maxBytes: 64 * 1024, ...options };
  const deadline = Date.now() + settings.timeoutMs;
  let current = new URL(url);
  for (let hop = 0; hop <= 3; hop += 1) {
    const answer = await getOnce(current, settings, deadline);
    if (answer.ok || answer.problem !== 'redirect-refused' || answer.location === undefined) {
      const { location: _location, ...result } = answer;
      return result;
    }
    let next: URL;
    try {
      next = new URL(answer.location, current);
    } catch {
      return { ok: false, problem: 'redirect-refused', status: answer.status };
    }
    if (next.origin !== current.origin) return { ok: false, problem: 'redirect-refused', status: answer.status };
    current = next;
  }
  return { ok: false, problem: 'redirect-refused' };
}
