import type { FastifyInstance } from 'fastify';
import { failure } from './envelope';

/**
 * A NUL, or half of a UTF-16 surrogate pair without its other half. PostgreSQL refuses NUL in
 * `text` outright (PGlite may keep it, so it would pass tests and fail in production), and a
 * lone surrogate cannot be encoded as UTF-8 at all: the driver silently turns it into U+FFFD,
 * so what is stored is not what was sent. Neither is ever part of legitimate text.
 */
const unsafeText = /\0|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

export function isUnsafeText(value: string): boolean {
  return unsafeText.test(value);
}

/**
 * The path (`a.b.0`) of the first string, or object key, in `value` holding unsafe text, or
 * null. Walks parsed data (objects and arrays); uploads arrive as buffers and streams and are
 * left alone. Iterative, because a client controls the nesting depth.
 */
export function findUnsafeText(value: unknown): string | null {
  const stack: { value: unknown; path: string }[] = [{ value, path: '' }];
  const join = (path: string, key: string | number) => (path === '' ? String(key) : `${path}.${key}`);
  while (stack.length > 0) {
    const { value: current, path } = stack.pop()!;
    if (typeof current === 'string') {
      if (isUnsafeText(current)) return path;
      continue;
    }
    if (typeof current !== 'object' || current === null) continue;
    if (Array.isArray(current)) {
      for (let i = current.length - 1; i >= 0; i--) stack.push({ value: current[i], path: join(path, i) });
      continue;
    }
    // Query strings parse into objects of their own prototype, so the test is what is not data.
    if (ArrayBuffer.isView(current) || current instanceof ArrayBuffer || typeof (current as { pipe?: unknown }).pipe === 'function') continue;
    for (const [key, item] of Object.entries(current)) {
      if (isUnsafeText(key)) return join(path, key.replace(unsafeText, '?'));
      stack.push({ value: item, path: join(path, key) });
    }
  }
  return null;
}

/**
 * Refuses unsafe text in the path, the query and the body of every request, before any
 * schema or handler sees it — one check for every route, including routes whose schemas
 * declare plain strings, so no handler has to remember it. The answer has the shape of a
 * schema validation failure: 400 `invalid-request` naming where the text was.
 */
export function registerInputBounds(app: FastifyInstance): void {
  app.addHook('preValidation', async (request, reply) => {
    const parts = [
      ['params', request.params],
      ['querystring', request.query],
      ['body', request.body],
    ] as const;
    for (const [location, value] of parts) {
      const field = findUnsafeText(value);
      if (field === null) continue;
      return reply.code(400).send(failure('invalid-request', { location, field: field === '' ? null : field, reason: 'must not contain NUL or unpaired surrogates' }));
    }
  });
}
