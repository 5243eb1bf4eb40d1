import type { FastifyInstance } from 'fastify';
import type { TestAccount } from './accounts';

/** An API answer as tests read it: the envelope, with a body of any shape. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type Answer = { statusCode: number; statusText?: string; body?: any };

/**
 * A caller of the API in-process (`app.inject`), as `account` or as a visitor: answers the HTTP
 * status and the envelope. `app` is read at every call, since suites start their server in
 * `beforeAll`.
 */
export function apiCaller(app: () => FastifyInstance) {
  return async function call(method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, account?: TestAccount, payload?: unknown) {
    const response = await app().inject({
      method,
      url,
      headers: account ? { authorization: `Bearer ${account.accessToken}` } : {},
      ...(payload === undefined ? {} : { payload: payload as object }),
    });
    return { status: response.statusCode, json: response.json() as Answer };
  };
}
