import { promisify } from 'node:util';
import { brotliCompress, constants, gzip } from 'node:zlib';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';

const brotli = promisify(brotliCompress);
const gzipAsync = promisify(gzip);

/**
 * Answers smaller than this go out as they are: below about one network packet, compressing
 * saves no round trip and costs the CPU of both ends (an error envelope, `{statusCode: 1}`).
 */
export const compressionThreshold = 1024;

export type Encoding = 'br' | 'gzip';

/** Text the server writes itself; media and files have their own paths (the static handler sends precompressed copies). */
const compressibleType = /^(?:text\/|application\/(?:json|javascript|xml|[\w.+-]+\+json|[\w.+-]+\+xml)\b|image\/svg\+xml\b)/i;

export function isCompressibleType(contentType: string | undefined): boolean {
  return contentType !== undefined && compressibleType.test(contentType);
}

/**
 * The encoding to answer with, from Accept-Encoding: the one with the highest weight, Brotli
 * on a tie (smaller at the same speed), none when neither is acceptable. `*` stands for any
 * encoding the header does not name; `q=0` refuses one.
 */
export function negotiateEncoding(header: string | string[] | undefined): Encoding | null {
  if (header === undefined) return null;
  // Browsers send one of a few spellings, every request: each is read once.
  if (typeof header === 'string') {
    const known = negotiated.get(header);
    if (known !== undefined) return known;
    const encoding = readAcceptEncoding(header);
    if (negotiated.size >= maxNegotiated) negotiated.clear();
    negotiated.set(header, encoding);
    return encoding;
  }
  return readAcceptEncoding(header);
}

const negotiated = new Map<string, Encoding | null>();
const maxNegotiated = 256;

function readAcceptEncoding(header: string | string[]): Encoding | null {
  const weights = new Map<string, number>();
  for (const part of (Array.isArray(header) ? header.join(',') : header).split(',')) {
    const [rawName, ...params] = part.trim().split(';');
    const name = (rawName ?? '').trim().toLowerCase();
    if (name === '') continue;
    let q = 1;
    for (const param of params) {
      const [key, value] = param.trim().split('=');
      if (key?.trim().toLowerCase() === 'q') q = Number(value);
    }
    weights.set(name, Number.isFinite(q) ? Math.min(Math.max(q, 0), 1) : 0);
  }
  const weightOf = (encoding: Encoding) => weights.get(encoding) ?? (encoding === 'gzip' ? weights.get('x-gzip') : undefined) ?? weights.get('*') ?? 0;
  const br = weightOf('br');
  const gz = weightOf('gzip');
  if (br === 0 && gz === 0) return null;
  return br >= gz ? 'br' : 'gzip';
}

/** Adds `value` to the Vary header, keeping what the route said (`Vary: Language`). */
export function addVary(reply: FastifyReply, value: string): void {
  const current = reply.getHeader('vary');
  if (current === undefined || current === '') {
    reply.header('vary', value);
    return;
  }
  // Most often the name is not there at all (`Vary: Origin`): append without parsing.
  if (typeof current === 'string' && !current.includes('*') && !current.toLowerCase().includes(value.toLowerCase())) {
    reply.header('vary', `${current}, ${value}`);
    return;
  }
  const names = (Array.isArray(current) ? current.join(',') : current === undefined ? '' : String(current))
    .split(',')
    .map((name) => name.trim())
    .filter(Boolean);
  if (names.includes('*') || names.some((name) => name.toLowerCase() === value.toLowerCase())) return;
  reply.header('vary', [...names, value].join(', '));
}

/**
 * The encoding to send an answer of `size` bytes in, or null to send it as it is: nothing under
 * {@link compressionThreshold}, else what the request's Accept-Encoding prefers. Any answer of
 * that size may go out compressed, so it varies on the header even when this request did not
 * ask (a shared cache must key on it).
 */
export function encodingFor(request: FastifyRequest, reply: FastifyReply, size: number): Encoding | null {
  if (size < compressionThreshold) return null;
  addVary(reply, 'Accept-Encoding');
  return negotiateEncoding(request.headers['accept-encoding']);
}

/**
 * Whether an If-None-Match names `etag`, by the weak comparison HTTP prescribes for it: a
 * compressed answer carries the weak form of its route's validator (below), which the client
 * then sends back.
 */
export function etagMatches(ifNoneMatch: string | undefined, etag: string): boolean {
  if (ifNoneMatch === undefined) return false;
  const bare = (tag: string) => tag.trim().replace(/^W\//, '');
  if (ifNoneMatch.trim() === '*') return true;
  return ifNoneMatch.split(',').some((tag) => bare(tag) === bare(etag));
}

/** The payload in `encoding`, as the server compresses its answers. */
export async function encode(payload: Buffer, encoding: Encoding): Promise<Buffer> {
  if (encoding === 'gzip') return gzipAsync(payload, { level: 6 });
  // Quality 4: close to gzip's speed and still smaller; the best qualities are for the build's
  // precompressed files, where time does not count.
  return brotli(payload, {
    params: {
      [constants.BROTLI_PARAM_QUALITY]: 4,
      [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT,
      [constants.BROTLI_PARAM_SIZE_HINT]: payload.length,
    },
  });
}

/**
 * Brotli or gzip for the API's own answers (JSON, the OpenAPI document, the sandbox's pages)
 * from {@link compressionThreshold} bytes up, by the request's Accept-Encoding. Streams are
 * left alone: files and media are sent by their own routes, files precompressed and media
 * (already compressed, and read in ranges) as they are.
 */
export function registerCompression(app: FastifyInstance): void {
  app.addHook('onSend', async (request, reply, payload) => {
    if (typeof payload !== 'string' && !Buffer.isBuffer(payload)) return payload;
    const status = reply.statusCode;
    if (status < 200 || status === 204 || status === 206 || status === 304) return payload;
    if (reply.getHeader('content-encoding') !== undefined) return payload;
    const contentType = reply.getHeader('content-type');
    if (!isCompressibleType(typeof contentType === 'string' ? contentType : undefined)) return payload;
    const cacheControl = reply.getHeader('cache-control');
    if (typeof cacheControl === 'string' && /\bno-transform\b/i.test(cacheControl)) return payload;
    // Measured without copying: an answer that goes out as it is is encoded once, by Node.
    const encoding = encodingFor(request, reply, typeof payload === 'string' ? Buffer.byteLength(payload) : payload.length);
    if (encoding === null) return payload;
    const encoded = await encode(typeof payload === 'string' ? Buffer.from(payload) : payload, encoding);
    reply.header('content-encoding', encoding);
    reply.removeHeader('content-length');
    // A strong validator promises these very bytes; the encoded ones differ from the route's.
    const etag = reply.getHeader('etag');
    if (typeof etag === 'string' && !etag.startsWith('W/')) reply.header('etag', `W/${etag}`);
    return encoded;
  });
}
