import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import type { InjectOptions } from 'light-my-request';
import fc from 'fast-check';
import { ErrorKeys } from '../../lib/contract/errors';
import { Int, Int32, MaxTimestampMs, Timestamp } from '../../lib/contract/bounds';
import { findUnsafeText } from '../../server/src/http/input-bounds';
import { startTestServer, type TestServer } from '../support/server';
import { closeSockets, connectSocket } from '../support/sockets';

/**
 * Malformed input against every operation of the OpenAPI document, as a visitor and as a
 * logged-in user: every answer is a 4xx envelope or a success, never a 5xx, and no answer
 * shows the server's insides (stack traces, SQL, file paths). The document is built from
 * lib/contract, so a new route is fuzzed the day it is added.
 */

let server: TestServer;
let app: FastifyInstance;

let webRoot: string;

/**
 * A front-end build of the test's own, so the site's routes answer the same whether or not the
 * checkout ran `npm run build` (without one they answer 503 "not built yet", by design).
 */
async function fakeBuild(): Promise<string> {
  const root = await mkdtemp(path.join(tmpdir(), 'fanstage-fuzz-web-'));
  const files: Record<string, string> = {
    'web/index.html': '<!doctype html><title>site</title><div id="root"></div>',
    'web/embed-login.html': '<!doctype html><title>popup</title><div id="root"></div>',
    'demo/index.html': '<!doctype html><title>demo</title>',
    'demo/react.html': '<!doctype html><title>demo</title>',
    'embed/fanstage.js': 'void 0;',
    'embed/fanstage-elements.js': 'void 0;',
  };
  for (const [file, text] of Object.entries(files)) {
    await mkdir(path.dirname(path.join(root, file)), { recursive: true });
    await writeFile(path.join(root, file), text);
  }
  return root;
}

beforeAll(async () => {
  webRoot = await fakeBuild();
  // A generous socket budget: the websocket part sends many messages back to back.
  server = await startTestServer({ seed: false, webRoot, realtime: { messagesPerSecond: 10_000, messageBurst: 10_000 } });
  app = server.app;
}, 120_000);
afterAll(async () => {
  closeSockets();
  await server?.close();
  await rm(webRoot, { recursive: true, force: true });
});

// ---------------------------------------------------------------------------------------------
// The OpenAPI document, as far as this test reads it.

interface JsonSchema {
  type?: string | string[];
  $ref?: string;
  properties?: Record<string, JsonSchema>;
  required?: string[];
  items?: JsonSchema;
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  allOf?: JsonSchema[];
  enum?: unknown[];
  const?: unknown;
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: number;
  exclusiveMaximum?: number;
  minLength?: number;
  maxLength?: number;
  minItems?: number;
  pattern?: string;
  default?: unknown;
}

interface Parameter {
  in: 'path' | 'query' | 'header' | 'cookie';
  name: string;
  required?: boolean;
  schema?: JsonSchema;
}

interface Operation {
  parameters?: Parameter[];
  requestBody?: { content?: Record<string, { schema?: JsonSchema }> };
}

interface OpenApi {
  paths: Record<string, Record<string, Operation>>;
  components?: { schemas?: Record<string, JsonSchema> };
}

interface Op {
  method: 'GET' | 'POST' | 'PUT' | 'DELETE';
  path: string;
  params: Parameter[];
  body: JsonSchema | undefined;
  /** The route takes a body of its own kind (an upload): only raw-body mutations apply. */
  rawBody: boolean;
}

function resolve(document: OpenApi, schema: JsonSchema | undefined): JsonSchema {
  if (schema === undefined) return {};
  if (schema.$ref === undefined) return schema;
  const name = schema.$ref.replace(/^#\/components\/schemas\//, '');
  return document.components?.schemas?.[name] ?? {};
}

/** A value the schema accepts, as plain as possible, so one bad field at a time reaches deep. */
function sample(document: OpenApi, raw: JsonSchema | undefined, name = ''): unknown {
  const schema = resolve(document, raw);
  if (schema.const !== undefined) return schema.const;
  if (schema.enum !== undefined) return schema.enum[0];
  if (schema.default !== undefined) return schema.default;
  const choices = schema.anyOf ?? schema.oneOf;
  if (choices !== undefined) return sample(document, choices.find((c) => resolve(document, c).type !== 'null') ?? choices[0], name);
  if (schema.allOf !== undefined) return Object.assign({}, ...schema.allOf.map((part) => sample(document, part, name) as object));
  const type = Array.isArray(schema.type) ? schema.type.find((t) => t !== 'null') : schema.type;
  switch (type) {
    case 'integer':
    case 'number': {
      const low = schema.minimum ?? (schema.exclusiveMinimum === undefined ? 1 : schema.exclusiveMinimum + 1);
      return Math.min(Math.max(low, 1), schema.maximum ?? Number.MAX_SAFE_INTEGER);
    }
    case 'boolean':
      return false;
    case 'array':
      return (schema.minItems ?? 0) > 0 ? [sample(document, schema.items, name)] : [];
    case 'object':
    case undefined: {
      if (schema.properties === undefined) return type === 'object' ? {} : 'fuzz';
      const value: Record<string, unknown> = {};
      for (const key of schema.required ?? []) value[key] = sample(document, schema.properties[key], key);
      return value;
    }
    default: {
      if (schema.pattern?.includes('\\d{4}')) return '1990-01-01';
      if (schema.pattern !== undefined) return 'sandbox';
      if (/mail/i.test(name)) return 'fuzz.visitor@example.com';
      if (/password/i.test(name)) return 'a fuzzing password';
      const length = Math.max(schema.minLength ?? 1, Math.min(8, schema.maxLength ?? 8));
      return 'f'.repeat(length);
    }
  }
}

function operationsOf(document: OpenApi): Op[] {
  const ops: Op[] = [];
  for (const [path, methods] of Object.entries(document.paths)) {
    for (const [method, operation] of Object.entries(methods)) {
      const upper = method.toUpperCase();
      if (upper !== 'GET' && upper !== 'POST' && upper !== 'PUT' && upper !== 'DELETE') continue;
      const content = operation.requestBody?.content;
      const json = content?.['application/json']?.schema;
      ops.push({
        method: upper,
        path,
        params: (operation.parameters ?? []).filter((p) => p.in === 'path' || p.in === 'query'),
        body: json === undefined ? undefined : resolve(document, json),
        rawBody: content !== undefined && json === undefined,
      });
    }
  }
  return ops;
}

// ---------------------------------------------------------------------------------------------
// What is sent.

/** Bad values for a JSON field: wrong types, numbers out of every range, hostile text. */
const badJsonValues: unknown[] = [
  2 ** 31,
  -(2 ** 31) - 1,
  2 ** 53,
  -(2 ** 53),
  -1,
  0,
  1.5,
  1e308,
  -1e308,
  MaxTimestampMs + 1,
  'NaN',
  'Infinity',
  '1e308',
  '9007199254740993',
  '2147483648',
  '',
  true,
  null,
  {},
  [],
  [[[]]],
  { nested: { deeper: [1, 'two'] } },
  'nul\u0000inside',
  '\u0000',
  'lone \ud800 high',
  'lone \udc00 low',
  '\u202eRTL override\u202c',
  '\u200f\u200e\u061c marks',
  '\ufeffBOM',
  '𝒻𝓊𝓏𝓏 👩‍👩‍👧 e\u0301',
  "' OR 1=1 --",
  '../../../../etc/passwd',
];

/** Bad values for a path or query parameter, already URL-encoded as a client would send them. */
const badUrlValues: string[] = [
  '2147483648',
  '-2147483649',
  '9007199254740993',
  '99999999999999999999999999',
  '1e308',
  '-1',
  '0',
  '1.5',
  'NaN',
  'Infinity',
  'abc',
  '',
  '%00',
  'a%00b',
  '%ED%A0%80',
  '%C0%AE%C0%AE%2F',
  '%E2%80%AE',
  '..%2f..%2fetc%2fpasswd',
  '..%5c..%5cwindows',
  '%25',
  'x'.repeat(300),
  'x'.repeat(20_000),
  'true',
  '%5B%5D',
  String(MaxTimestampMs + 1),
];

/** Bodies that break the request as a whole rather than one field. */
function wholeBodies(): { payload: string | Buffer; contentType: string }[] {
  return [
    { payload: '{"a":', contentType: 'application/json' },
    { payload: '{"a":1,}', contentType: 'application/json' },
    { payload: '', contentType: 'application/json' },
    { payload: 'null', contentType: 'application/json' },
    { payload: '[]', contentType: 'application/json' },
    { payload: '"a string"', contentType: 'application/json' },
    { payload: '123', contentType: 'application/json' },
    { payload: '{"__proto__":{"admin":true},"constructor":{"prototype":{"x":1}}}', contentType: 'application/json' },
    { payload: '['.repeat(10_000) + ']'.repeat(10_000), contentType: 'application/json' },
    { payload: '{"a":'.repeat(10_000) + '1' + '}'.repeat(10_000), contentType: 'application/json' },
    { payload: JSON.stringify({ text: 'x'.repeat(1_000_000) }), contentType: 'application/json' },
    { payload: JSON.stringify({ text: 'x'.repeat(1_100_000) }), contentType: 'application/json' },
    { payload: Buffer.from([0xff, 0xfe, 0x00, 0x7b, 0x22, 0xed, 0xa0, 0x80, 0x22, 0x7d]), contentType: 'application/json' },
    { payload: '{"a":1}', contentType: 'text/plain' },
    { payload: 'a=1&b=%00', contentType: 'application/x-www-form-urlencoded' },
    { payload: '--x\r\nContent-Disposition: form-data; name="a"\r\n\r\n1\r\n--x--', contentType: 'multipart/form-data; boundary=x' },
    { payload: '<a/>', contentType: 'application/xml' },
    { payload: '{"a":1}', contentType: 'application/json; charset=utf-16' },
    { payload: Buffer.from([0x00, 0x01, 0x02, 0xff]), contentType: 'application/octet-stream' },
    { payload: Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0x00]), contentType: 'image/png' },
  ];
}

/** Headers with values the server reads (cookies, language, origin, range, accept). */
const oddHeaders: Record<string, string>[] = [
  { cookie: 'fs_refresh=%00' },
  { cookie: `fs_refresh=%ED%A0%80; fs_refresh=${'r'.repeat(4000)}` },
  { cookie: 'fs_refresh' },
  { language: 'x'.repeat(2000) },
  { language: 'cs;q=NaN, en;q=1e308, *' },
  { origin: 'null' },
  { origin: 'http://%00.example' },
  { origin: `https://${'a'.repeat(3000)}.example` },
  { range: 'bytes=99999999999999999999-' },
  { range: 'bytes=-1,-1,-1,-1,5-2' },
  { accept: '*/*;q=NaN' },
  { apiversion: '9'.repeat(400) },
];

/** Signs of the server's insides that must never reach a client. */
const internals: RegExp[] = [
  /\n\s+at [^\n]*:\d+:\d+/,
  /node_modules/,
  /\/work\/|\/home\/|\/tmp\/|\/usr\//,
  /server\/src\//,
  /\.[cm]?[jt]s:\d+/,
  /syntax error at or near/i,
  /violates [a-z ]*constraint/i,
  /out of range for type/i,
  /invalid byte sequence/i,
  /invalid input syntax/i,
  /\bselect\b[^"]{0,200}\bfrom\b/i,
  /\binsert into\b/i,
  /pglite|postgres|drizzle/i,
  /(Range|Type|Reference|Syntax)Error/,
  /FST_ERR/,
];

interface Finding {
  request: string;
  status: number;
  body: string;
  problem: string;
}

function encodePath(template: string, values: Record<string, string>): string {
  return template.replace(/\{(\w+)\}/g, (_, name: string) => values[name] ?? '1');
}

function queryString(values: Record<string, string>): string {
  const parts = Object.entries(values).map(([key, value]) => `${encodeURIComponent(key)}=${value}`);
  return parts.length === 0 ? '' : `?${parts.join('&')}`;
}

describe('the input bounds', () => {
  it('clamp integers to int32 and keep narrower bounds', () => {
    expect(Int()).toMatchObject({ type: 'integer', minimum: Int32.min, maximum: Int32.max });
    expect(Int({ minimum: 1 })).toMatchObject({ minimum: 1, maximum: Int32.max });
    expect(Int({ minimum: 0, maximum: 50 })).toMatchObject({ minimum: 0, maximum: 50 });
    expect(Int({ minimum: -1e300, maximum: 1e300 })).toMatchObject({ minimum: Int32.min, maximum: Int32.max });
    expect(Timestamp()).toMatchObject({ minimum: 0, maximum: MaxTimestampMs });
    expect(new Date(MaxTimestampMs).toISOString()).toBe('9999-12-31T23:59:59.999Z');
  });

  it('find NUL and unpaired surrogates anywhere in parsed input, and nothing in sound text', () => {
    expect(findUnsafeText({ a: ['ok', 'emoji 👩‍👩‍👧', '\u202eRTL', 'e\u0301'], b: { c: 1, d: null, e: true } })).toBeNull();
    expect(findUnsafeText('a\u0000b')).toBe('');
    expect(findUnsafeText({ a: { b: ['fine', 'x\ud800'] } })).toBe('a.b.1');
    expect(findUnsafeText({ a: '\udc00 low' })).toBe('a');
    expect(findUnsafeText({ a: '\ude00\ud83d reversed pair' })).toBe('a');
    expect(findUnsafeText({ ['k\u0000']: 1 })).toBe('k?');
    // Deeper than any recursion would survive.
    let deep: unknown = 'deep\u0000';
    for (let i = 0; i < 100_000; i++) deep = [deep];
    expect(findUnsafeText(deep)).toMatch(/^0(\.0)+$/);
    // Uploads are bytes, not text.
    expect(findUnsafeText({ file: Buffer.from([0, 0xd8, 0]) })).toBeNull();
  });
});

describe('fuzzing the API from its OpenAPI document', () => {
  it('never answers a 5xx or shows internals, with or without a token', async () => {
    const documentAnswer = await app.inject({ method: 'GET', url: '/papi/openapi.json' });
    expect(documentAnswer.statusCode).toBe(200);
    const document = documentAnswer.json() as OpenApi;
    const ops = operationsOf(document);
    // The outside review counted 33 operations that answered 500; the document has far more.
    expect(ops.length).toBeGreaterThan(100);

    // A real user who signed up, verified the e-mail through the mailed link and logged in.
    let token = await logInFreshUser();

    let sent = 0;
    let serverErrors = 0;
    const findings: Finding[] = [];

    async function send(options: InjectOptions & { url: string }, label: string, opIndex: number): Promise<void> {
      // Each operation's traffic comes from its own address, so throttles meant for one
      // address (login, signup) do not refuse the whole run.
      const response = await app.inject({ ...options, remoteAddress: `198.51.100.${(opIndex % 250) + 1}` });
      sent += 1;
      const body = response.body;
      const request = `${label} ${options.method} ${options.url.slice(0, 160)}`;
      const record = (problem: string) => findings.push({ request, status: response.statusCode, body: body.slice(0, 300), problem });
      if (response.statusCode >= 500) {
        serverErrors += 1;
        record('5xx');
      }
      for (const pattern of internals) if (pattern.test(body)) record(`internals ${pattern}`);
      // The API answers envelopes; a page it serves (the sandbox processor's checkout) HTML.
      const apiPath = options.url.startsWith('/api/') || options.url.startsWith('/papi/');
      const page = String(response.headers['content-type'] ?? '').startsWith('text/html');
      if (apiPath && !page && response.statusCode >= 400) {
        let envelope: { statusCode?: unknown; statusText?: unknown } | undefined;
        try {
          envelope = JSON.parse(body) as typeof envelope;
        } catch {
          envelope = undefined;
        }
        if (typeof envelope?.statusCode !== 'number' || envelope.statusCode >= 0 || !(ErrorKeys as readonly unknown[]).includes(envelope.statusText)) record('no error envelope');
      }
    }

    // fast-check, on a fixed seed, adds arbitrary text (lone surrogates included) and arbitrary
    // JSON to the hand-picked values: the same run every time.
    const arbitraryText = fc.sample(fc.string({ unit: 'binary', maxLength: 24 }), { seed: 20_261_125, numRuns: 40 });
    const arbitraryJson = fc.sample(fc.jsonValue({ maxDepth: 3 }), { seed: 20_261_126, numRuns: 40 });

    const started = Date.now();
    for (const [opIndex, op] of ops.entries()) {
      const pathParams = op.params.filter((p) => p.in === 'path');
      const queryParams = op.params.filter((p) => p.in === 'query');
      const validPath: Record<string, string> = {};
      for (const p of pathParams) validPath[p.name] = encodeURIComponent(String(sample(document, p.schema, p.name)));
      const validQuery: Record<string, string> = {};
      for (const p of queryParams) if (p.required) validQuery[p.name] = encodeURIComponent(String(sample(document, p.schema, p.name)));
      const baseBody = op.body === undefined ? undefined : (sample(document, op.body) as Record<string, unknown>);
      const bodyFields = Object.keys(op.body?.properties ?? {});
      const extra = (i: number) => [arbitraryText[(opIndex + i) % arbitraryText.length]!, arbitraryJson[(opIndex * 3 + i) % arbitraryJson.length]];

      for (const auth of [false, true]) {
        const label = auth ? 'user' : 'visitor';
        // A visitor on /api is turned away whatever the input: every third value shows that
        // the refusal holds for bad input too, at a third of the cost.
        const visitorOnApi = !auth && op.path.startsWith('/api/');
        const some = <T>(values: T[]) => (visitorOnApi ? values.filter((_, i) => i % 3 === 0) : values);
        const headers = (more: Record<string, string> = {}) => ({ ...(auth ? { authorization: `Bearer ${token}` } : {}), ...more });
        const url = (path: Record<string, string>, query: Record<string, string>) => encodePath(op.path, path) + queryString(query);
        const validUrl = url(validPath, validQuery);
        const jsonBody = (value: unknown) => (op.body === undefined ? {} : { payload: JSON.stringify(value), headers: headers({ 'content-type': 'application/json' }) });

        for (const p of pathParams) {
          for (const value of some(badUrlValues)) await send({ method: op.method, url: url({ ...validPath, [p.name]: value }, validQuery), headers: headers(), ...jsonBody(baseBody) }, label, opIndex);
        }
        for (const p of queryParams) {
          for (const value of some([...badUrlValues, ...extra(0).filter((v): v is string => typeof v === 'string').map(encodeURIComponent)])) {
            await send({ method: op.method, url: url(validPath, { ...validQuery, [p.name]: value }), headers: headers(), ...jsonBody(baseBody) }, label, opIndex);
          }
          // The same name twice makes an array where one value is expected.
          await send({ method: op.method, url: `${validUrl}${validUrl.includes('?') ? '&' : '?'}${p.name}=1&${p.name}=2`, headers: headers() }, label, opIndex);
        }
        if (op.body !== undefined) {
          for (const field of bodyFields) {
            for (const value of some([...badJsonValues, ...extra(bodyFields.indexOf(field))])) {
              await send({ method: op.method, url: validUrl, ...jsonBody({ ...baseBody, [field]: value }) }, label, opIndex);
            }
          }
          // Unknown fields, and a field whose name itself is hostile.
          await send({ method: op.method, url: validUrl, ...jsonBody({ ...baseBody, ['k\u0000ey']: 1, ['\ud800']: 'x', extra: 'x' }) }, label, opIndex);
        }
        if (op.body !== undefined || op.rawBody || op.method !== 'GET') {
          for (const { payload, contentType } of some(wholeBodies())) {
            await send({ method: op.method, url: validUrl, payload, headers: headers({ 'content-type': contentType }) }, label, opIndex);
          }
        } else {
          // A body where none belongs still gets an answer, not a crash.
          await send({ method: op.method, url: validUrl, headers: headers() }, label, opIndex);
        }
      }
      // Broken credentials, and odd values in the headers the server reads.
      const url = encodePath(op.path, validPath) + queryString(validQuery);
      for (const authorization of ['Bearer', 'Bearer x', `Bearer ${'a'.repeat(5000)}`, 'Basic Zm9vOmJhcg==', `Bearer ${token}x`]) {
        await send({ method: op.method, url, headers: { authorization } }, 'broken token', opIndex);
      }
      for (const headers of oddHeaders) await send({ method: op.method, url, headers: { authorization: `Bearer ${token}`, ...headers } }, 'odd headers', opIndex);
      // Some operations end the session (deleting the account, logging out): log in again.
      const me = await app.inject({ method: 'GET', url: '/api/users/me', headers: { authorization: `Bearer ${token}` } });
      if (me.statusCode !== 200) token = await logInFreshUser();
    }

    // Routes the document leaves out (the site's files, the widgets' pages, the sandbox
    // checkout, the dev mailbox): their path parameters and wildcards get the same values.
    const hidden = app.fanstage.routes.filter((r) => r.hidden && (r.method === 'GET' || r.method === 'POST') && r.url !== '*');
    for (const [index, route] of hidden.entries()) {
      for (const value of badUrlValues) {
        const url = route.url.includes(':') || route.url.includes('*') ? route.url.replace(/:\w+|\*/g, value) : `${route.url}?to=${value}&limit=${value}`;
        await send({ method: route.method as 'GET' | 'POST', url, headers: { authorization: `Bearer ${token}` } }, 'hidden route', ops.length + index);
      }
    }

    console.log(`fuzz: ${sent} requests, ${serverErrors} server errors (${ops.length} operations, ${Math.round((Date.now() - started) / 1000)} s)`);
    const summary = findings.slice(0, 40).map((f) => `${f.problem}: ${f.request} -> ${f.status} ${f.body}`);
    expect(summary, `${findings.length} findings`).toEqual([]);
    expect(sent).toBeGreaterThan(5000);
  }, 300_000);

  it('declares a range for every number a client sends', async () => {
    // The bounds are what keeps 2^31 out of an int4 column and 1e300 out of a Date: a request
    // schema with an open-ended number is how the 500s came in.
    const document = (await app.inject({ method: 'GET', url: '/papi/openapi.json' })).json() as OpenApi;
    const open: string[] = [];
    let checked = 0;
    const walk = (raw: JsonSchema | undefined, where: string) => {
      const schema = resolve(document, raw);
      const type = Array.isArray(schema.type) ? schema.type : [schema.type];
      if (schema.const === undefined && schema.enum === undefined && (type.includes('integer') || type.includes('number'))) {
        checked += 1;
        const low = schema.minimum ?? schema.exclusiveMinimum;
        const high = schema.maximum ?? schema.exclusiveMaximum;
        if (low === undefined || high === undefined || low < Int32.min || high > MaxTimestampMs) open.push(where);
      }
      for (const [key, child] of Object.entries(schema.properties ?? {})) walk(child, `${where}.${key}`);
      if (schema.items !== undefined) walk(schema.items, `${where}[]`);
      for (const child of [...(schema.anyOf ?? []), ...(schema.oneOf ?? []), ...(schema.allOf ?? [])]) walk(child, where);
    };
    for (const op of operationsOf(document)) {
      for (const p of op.params) walk(p.schema, `${op.method} ${op.path} ${p.in}:${p.name}`);
      walk(op.body, `${op.method} ${op.path} body`);
    }
    expect(open).toEqual([]);
    expect(checked).toBeGreaterThan(100);
  });
});

/** Writes raw bytes to the listening server and reads the whole answer (the server closes after it). */
async function rawRequest(head: string, body: Buffer | string = ''): Promise<{ status: number; text: string }> {
  const { port, hostname } = new URL(server.baseUrl);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), hostname);
    const chunks: Buffer[] = [];
    socket.setTimeout(15_000, () => socket.destroy(new Error('no answer')));
    socket.on('data', (chunk) => chunks.push(chunk));
    socket.on('error', reject);
    socket.on('close', () => {
      const text = Buffer.concat(chunks).toString('latin1');
      resolve({ status: Number(/^HTTP\/1\.1 (\d{3})/.exec(text)?.[1] ?? 0), text });
    });
    socket.write(Buffer.concat([Buffer.from(head, 'latin1'), Buffer.isBuffer(body) ? body : Buffer.from(body, 'utf8')]));
  });
}

describe('fuzzing over a real connection', () => {
  it('answers requests broken below the JSON level with a 4xx and keeps serving', async () => {
    const json = (path: string, body: Buffer | string, extra = '') =>
      rawRequest(`POST ${path} HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\n${extra}\r\n`, body);
    const cases: [string, Promise<{ status: number; text: string }>][] = [];
    const add = (name: string, answer: () => Promise<{ status: number; text: string }>) => cases.push([name, answer()]);
    add('raw NUL in the path', () => rawRequest('GET /papi/users/a\0b HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n'));
    add('a 100 KB path', () => rawRequest(`GET /papi/users/${'9'.repeat(100_000)} HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n`));
    add('a header without a colon', () => rawRequest('GET /papi/settings HTTP/1.1\r\nHost: localhost\r\nbroken header\r\nConnection: close\r\n\r\n'));
    add('a broken chunk', () => rawRequest('POST /papi/login HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n{}\r\n0\r\n\r\n'));
    add('both Content-Length and chunked', () => rawRequest('POST /papi/login HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\nContent-Length: 2\r\nTransfer-Encoding: chunked\r\n\r\n2\r\n{}\r\n0\r\n\r\n'));
    add('invalid UTF-8 in JSON', () => json('/papi/login', Buffer.from([0x7b, 0x22, 0x65, 0x6d, 0x61, 0x69, 0x6c, 0x22, 0x3a, 0x22, 0xc0, 0xaf, 0xed, 0xa0, 0x80, 0x22, 0x7d])));
    add('an escaped NUL in JSON', () => json('/papi/check/username', '{"username":"a\\u0000b"}'));
    add('an escaped lone surrogate in JSON', () => json('/papi/check/email', '{"email":"\\ud800@example.com"}'));
    add('10 000 levels of arrays', () => json('/papi/login', '['.repeat(10_000) + ']'.repeat(10_000)));
    add('a 1 MB string', () => json('/papi/check/username', JSON.stringify({ username: 'u'.repeat(1_000_000) })));
    add('a body over the limit', () => json('/papi/check/username', JSON.stringify({ username: 'u'.repeat(2_000_000) })));
    add('a body shorter than announced', () => rawRequest('POST /papi/login HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\nContent-Type: application/json\r\nContent-Length: 1\r\n\r\n{"email":"a"}'));
    add('2^31 in the path', () => rawRequest('GET /papi/posts/2147483648 HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n'));
    add('a huge ts', () => rawRequest('GET /papi/2/timeline?ts=1e300 HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n'));
    const problems: string[] = [];
    const statuses: string[] = [];
    for (const [name, pending] of cases) {
      const { status, text } = await pending;
      statuses.push(`${name} ${status}`);
      if (status < 400 || status >= 500) problems.push(`${name}: ${status} ${text.slice(0, 200)}`);
      for (const pattern of internals) if (pattern.test(text)) problems.push(`${name}: shows ${pattern}`);
    }
    expect(problems).toEqual([]);
    const settings = await fetch(`${server.baseUrl}/papi/settings`);
    expect(settings.status).toBe(200);
    console.log(`fuzz: ${cases.length} raw requests over a socket, 0 server errors (${statuses.join(', ')})`);
  }, 60_000);
});

describe('fuzzing the websocket', () => {
  it('answers malformed messages with an error and keeps serving', async () => {
    const token = await logInFreshUser();
    const account = { id: 0, email: '', password: '', username: '', accessToken: token };
    const client = await connectSocket(server, account);
    const big = 2 ** 31;
    const cases: { message: unknown; answer: 'error' | 'any' }[] = [
      { message: 'not json', answer: 'error' },
      { message: '{"type":', answer: 'error' },
      { message: '[]', answer: 'error' },
      { message: 'null', answer: 'error' },
      { message: '"chatMessage"', answer: 'error' },
      { message: '1e308', answer: 'error' },
      { message: '['.repeat(5000) + ']'.repeat(5000), answer: 'error' },
      { message: { type: 123 }, answer: 'error' },
      { message: { type: 'x'.repeat(10_000) }, answer: 'error' },
      { message: { type: 'chat\u0000Message' }, answer: 'error' },
      { message: { type: 'chatMessage', msgId: 'm-1', receiverId: big, text: 'hi', price: 0 }, answer: 'error' },
      { message: { type: 'chatMessage', msgId: 'm-2', receiverId: 1e308, text: 'hi' }, answer: 'error' },
      { message: { type: 'chatMessage', msgId: 'm-3', receiverId: 1, text: 'nul\u0000byte' }, answer: 'error' },
      { message: { type: 'chatMessage', msgId: 'm-4', receiverId: 1, text: 'lone \ud800' }, answer: 'error' },
      { message: { type: 'chatMessage', msgId: 'm\u0000-5', receiverId: 1, text: 'hi' }, answer: 'error' },
      { message: { type: 'chatMessage', msgId: 'm-6', receiverId: 1, text: 'hi', price: 2 ** 53 }, answer: 'error' },
      { message: { type: 'chatMessage', msgId: 'm-7', receiverId: 1, mediaId: big, price: 0 }, answer: 'error' },
      { message: { type: 'chatMessage', msgId: 'm-8', receiverId: 1, giftId: big, price: 0 }, answer: 'error' },
      { message: { type: 'chatMessage', msgId: 'm-9', receiverId: '1', text: { a: 1 } }, answer: 'error' },
      { message: { type: 'massChatMessage', msgId: 'm-10', recGroup: 'followers', text: '\u0000' }, answer: 'error' },
      { message: { type: 'massChatMessage', msgId: 'm-11', recGroup: 'followers', mediaId: big }, answer: 'error' },
      { message: { type: 'chatReaction', messageId: big, reactionId: big }, answer: 'error' },
      { message: { type: 'chatReaction', messageId: 1, reactionId: 2 ** 53 }, answer: 'error' },
      { message: { type: 'chatConvRead', userId: 2 ** 40 }, answer: 'error' },
      { message: { type: 'resume', after: 2 ** 53 }, answer: 'error' },
      { message: { type: 'resume', after: big }, answer: 'error' },
      { message: { type: 'resume', after: -1 }, answer: 'error' },
      { message: { type: 'profileVisit', profileUserId: big }, answer: 'error' },
      { message: { type: 'newPost', postId: -1 }, answer: 'error' },
      { message: { type: 'newPost', postId: big }, answer: 'error' },
      { message: { type: 'callMessage', callId: '\ud800', callMessageType: 'preOffer', receiverId: 2 }, answer: 'error' },
      { message: { type: 'callMessage', callId: 'c', callMessageType: 'preOffer', receiverId: big }, answer: 'error' },
      { message: { type: 'callMessage', callId: 'c', callMessageType: 'preOffer', receiverId: 2, callMessageBody: { sdp: 'a\u0000' } }, answer: 'error' },
      { message: { type: 'eventMessage', event: 'typing', userId: big }, answer: 'error' },
      { message: { type: 'eventMessage', event: 'typing', userId: Number.MAX_SAFE_INTEGER }, answer: 'error' },
      { message: { type: 'eventMessage', event: '\u202etyping', userId: 2 }, answer: 'error' },
      { message: { type: 'ping', ts: 1e308 }, answer: 'any' },
      { message: { type: 'ping', ts: 'soon' }, answer: 'any' },
      { message: { type: 'notificationsRead', extra: '\u0000' }, answer: 'error' },
    ];
    const problems: string[] = [];
    for (const { message, answer } of cases) {
      const mark = client.mark;
      client.send(message);
      await client.sync();
      const answers = client.received.slice(mark).filter((m) => m.type !== 'pong' && m.type !== 'ping');
      const shown = JSON.stringify(message).slice(0, 80);
      const errors = answers.filter((m) => m.type === 'error');
      if (errors.some((m) => m.type === 'error' && !['invalid-request', 'invalid-json', 'user-not-found', 'cannot-target-self'].includes(m.statusText))) problems.push(`${shown} -> ${JSON.stringify(errors)}`);
      if (answer === 'error' && errors.length === 0) problems.push(`${shown} -> no error answer: ${JSON.stringify(answers)}`);
    }
    expect(problems).toEqual([]);

    // A frame above the size limit closes that socket (1009); the server keeps serving others.
    const flooded = await connectSocket(server, account);
    flooded.send('x'.repeat(64 * 1024));
    expect(await flooded.closed).toBe(1009);
    await client.sync();
    const another = await connectSocket(server, account);
    await another.sync();
    console.log(`fuzz: ${cases.length + 1} websocket messages, 0 server errors`);
  }, 60_000);
});

// ---------------------------------------------------------------------------------------------

let users = 0;

/** Signs a new user up, confirms the e-mail through the mailed link, logs in: the access token. */
async function logInFreshUser(): Promise<string> {
  users += 1;
  const email = `fuzz.${users}.${Date.now()}@example.com`;
  const password = 'fuzzing is fun 123';
  const signup = await app.inject({ method: 'POST', url: '/papi/signup', payload: { email, password } });
  expect(signup.statusCode).toBe(200);
  const mails = (await app.inject({ method: 'GET', url: `/dev/mail.json?to=${encodeURIComponent(email)}` })).json() as { mails: { links: string[] }[] };
  const link = new URL(mails.mails[0]!.links[0]!);
  const hash = link.pathname.replace(/^\/action\//, '');
  const verified = await app.inject({ method: 'POST', url: '/papi/action/jwt', payload: { hash } });
  expect(verified.json()).toEqual({ statusCode: 2, body: { action: 'verify-email' } });
  const login = await app.inject({ method: 'POST', url: '/papi/login', payload: { email, password, tokenInBody: true } });
  const token = (login.json() as { body?: { accessToken?: string } }).body?.accessToken;
  expect(typeof token).toBe('string');
  const me = await app.inject({ method: 'GET', url: '/api/users/me', headers: { authorization: `Bearer ${token}` } });
  expect(me.statusCode).toBe(200);
  return token!;
}
