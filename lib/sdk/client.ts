import { ofetch, type $Fetch } from 'ofetch';
import { signal, type ReadonlySignal } from '@preact/signals-core';
import type { Envelope, SpendRequest, SpendRequestRef } from '../contract';
import { SdkError } from './errors';
import { goesOn, type SpendConfirmer } from './spendGate';

export type LanguageIso = 'en' | 'cs';

export interface ClientOptions {
  /** Where the API lives, e.g. `https://fanstage.example` or `''` for the same origin. */
  baseUrl: string;
  language?: LanguageIso;
  /** Milliseconds before a call is abandoned (SPEC §7: 20000). */
  timeout?: number;
  /** A fetch implementation, for runtimes without a global one. */
  fetch?: typeof globalThis.fetch;
  /**
   * Whether the browser sends the API's cookies: `'include'` (default) for the platform's own
   * pages; widgets on other sites use `'omit'`, since the API answers them without credentials
   * and a widget authenticates with its bearer token alone.
   */
  credentials?: RequestCredentials;
}

export type Query = Record<string, string | number | boolean | undefined>;

export interface RequestOptions {
  query?: Query;
  body?: unknown;
  signal?: AbortSignal;
  /**
   * Sends the viewer's token to a `/papi` call too: public lists (timeline, a profile's posts)
   * answer a logged-in viewer with their flags (liked, followed) and without blocked users.
   */
  withToken?: boolean;
  /** The spend request the fan confirmed for this call (header `Fanstage-Confirmation`). */
  confirmation?: string;
}

/**
 * What the client needs from a session to call `/api`: the access token to send, and a way
 * to get a new one when the server answers 401. The session store installs itself here.
 */
export interface ClientAuthenticator {
  /** The access token to send as `Authorization: Bearer`, or null when logged out. */
  accessToken(): string | null;
  /**
   * Called once per 401 with the token that call sent. Resolves true when a (new) token is
   * ready and the call is worth repeating; concurrent callers share one refresh.
   */
  onUnauthorized(sentToken: string | null): Promise<boolean>;
}

export interface FanstageClient {
  readonly baseUrl: string;
  readonly language: ReadonlySignal<LanguageIso>;
  setLanguage(language: LanguageIso): void;
  /** Calls the API and unwraps the envelope: the body on 2, `undefined` on 1, an SdkError otherwise. */
  request<T>(method: 'GET' | 'POST' | 'PUT' | 'DELETE', path: string, options?: RequestOptions): Promise<T>;
  get<T>(path: string, query?: Query, options?: Omit<RequestOptions, 'query'>): Promise<T>;
  post<T>(path: string, body?: unknown, options?: Omit<RequestOptions, 'body'>): Promise<T>;
  /** An absolute address on the API's origin, for links and media. */
  url(path: string): string;
  /** Installs (or with null removes) the session that authorizes `/api` calls. */
  setAuthenticator(authenticator: ClientAuthenticator | null): void;
  /**
   * Hears every refusal the API answers (an envelope with a negative `statusCode`), whichever
   * call it was, before the caller gets it: the site shows the verify-email popup for
   * `email-not-verified` wherever the action came from. Returns the unsubscribe.
   */
  onRefusal(listener: (error: SdkError) => void): () => void;
  /**
   * Installs (or with null removes) what asks the fan to confirm a widget's spend. With one,
   * a call refused with `confirmation-required` asks it and, once the fan confirmed (or paid in
   * the card window), is sent again with the confirmation; a fan who said no rejects it with
   * `spend-cancelled`. Widgets on partner sites install the platform's popup.
   */
  setSpendConfirmer(confirmer: SpendConfirmer | null): void;
  /** Asks the fan through the installed confirmer; null when there is none. */
  confirmSpend(ref: SpendRequestRef, signal?: AbortSignal): Promise<SpendRequest> | null;
}

/** The spend request a `confirmation-required` refusal carries. */
export function spendRequestOf(value: unknown): SpendRequestRef | null {
  if (typeof value !== 'object' || value === null) return null;
  const ref = value as Partial<SpendRequestRef>;
  return typeof ref.id === 'string' && ref.id !== '' && typeof ref.kind === 'string' && typeof ref.amount === 'number' ? (ref as SpendRequestRef) : null;
}

export const API_VERSION = '1.0';
export const DEFAULT_TIMEOUT = 20_000;

export function createClient(options: ClientOptions): FanstageClient {
  const baseUrl = options.baseUrl.replace(/\/+$/, '');
  const language = signal<LanguageIso>(options.language ?? 'en');
  const timeout = options.timeout ?? DEFAULT_TIMEOUT;
  const $fetch: $Fetch = ofetch.create(
    {
      baseURL: baseUrl || undefined,
      credentials: options.credentials ?? 'include',
      // The timeout is ours (see `request`): ofetch drops its own whenever a caller passes a signal.
      retry: 0,
      // The envelope carries the outcome; HTTP errors are read, not thrown.
      ignoreResponseError: true,
    },
    // ofetch takes its fetch from the global options (the second argument), not the defaults.
    options.fetch ? { fetch: options.fetch } : {},
  );

  let authenticator: ClientAuthenticator | null = null;
  let confirmer: SpendConfirmer | null = null;
  const refusalListeners = new Set<(error: SdkError) => void>();

  async function request<T>(method: 'GET' | 'POST' | 'PUT' | 'DELETE', path: string, opts: RequestOptions = {}): Promise<T> {
    try {
      return await authorized<T>(method, path, opts);
    } catch (error) {
      // A widget's spend beyond what the fan allowed the site: his word, then the same call once more.
      const ref = error instanceof SdkError && error.code === 'confirmation-required' ? spendRequestOf(error.body) : null;
      if (ref === null || confirmer === null || opts.confirmation !== undefined) throw error;
      const answer = await confirmer.confirm(ref, opts.signal);
      if (!goesOn(answer)) throw new SdkError({ code: 'spend-cancelled', statusCode: -1, body: answer });
      return authorized<T>(method, path, { ...opts, confirmation: answer.id });
    }
  }

  async function authorized<T>(method: 'GET' | 'POST' | 'PUT' | 'DELETE', path: string, opts: RequestOptions): Promise<T> {
    // Only the logged-in API carries the token: /papi answers the same to everyone.
    if (!authenticator || (!opts.withToken && !/^\/?api(\/|$|\?)/.test(path))) return send<T>(method, path, opts, null);
    const sentToken = authenticator.accessToken();
    try {
      return await send<T>(method, path, opts, sentToken);
    } catch (error) {
      // A 401 means the token expired or was revoked: one refresh and one more try, never a
      // loop. When the refresh fails the session logs out and the caller gets the 401.
      if (!(error instanceof SdkError) || error.httpStatus !== 401 || !authenticator) throw error;
      if (!(await authenticator.onUnauthorized(sentToken))) throw error;
      return send<T>(method, path, opts, authenticator.accessToken());
    }
  }

  async function send<T>(method: 'GET' | 'POST' | 'PUT' | 'DELETE', path: string, opts: RequestOptions, token: string | null): Promise<T> {
    // One controller aborts on the timeout or when the caller aborts, whichever comes first,
    // and remembers which, so a timeout is retryable and a cancellation is not.
    const controller = new AbortController();
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      controller.abort();
    }, timeout);
    const forwardAbort = () => controller.abort();
    if (opts.signal?.aborted) controller.abort();
    else opts.signal?.addEventListener('abort', forwardAbort, { once: true });
    let response;
    try {
      response = await $fetch.raw<Envelope<T>>(path, {
        method,
        query: opts.query ? dropUndefined(opts.query) : undefined,
        body: opts.body as Record<string, unknown> | undefined,
        signal: controller.signal,
        headers: {
          Apiversion: API_VERSION,
          Language: language.value,
          ...(token ? { Authorization: `Bearer ${token}` } : {}),
          ...(opts.confirmation ? { 'Fanstage-Confirmation': opts.confirmation } : {}),
        },
        responseType: 'json',
      });
    } catch (error) {
      if (timedOut) throw new SdkError({ code: 'timeout', statusCode: 0, retryable: true, cause: error });
      if (opts.signal?.aborted) throw new SdkError({ code: 'aborted', statusCode: 0, retryable: false, cause: error });
      throw new SdkError({ code: 'network', statusCode: 0, retryable: true, cause: error });
    } finally {
      clearTimeout(timer);
      opts.signal?.removeEventListener('abort', forwardAbort);
    }
    const envelope = response._data;
    const requestId = response.headers.get('X-Request-Id');
    // A success code under an HTTP error is not our envelope either: Fastify's own answers
    // (e.g. `{"statusCode":503}` while a node shuts down) carry the HTTP status there.
    if (!isEnvelope(envelope) || (envelope.statusCode > 0 && response.status >= 400)) {
      // Whatever answered is not the API (a proxy's error page, a wrong baseUrl): for the
      // user that is a server not responding; only a 5xx may pass by itself.
      throw new SdkError({
        code: 'server_not_responding',
        statusCode: 0,
        httpStatus: response.status,
        retryable: response.status >= 500,
        requestId,
      });
    }
    // 1 is success without a body even if one slipped in; other positive codes are successes
    // of particular calls (SPEC §7: check-id-check "above 0 success") and carry their body.
    if (envelope.statusCode === 1) return undefined as T;
    if (envelope.statusCode > 0) return envelope.body as T;
    const refusal = SdkError.fromEnvelope(envelope, response.status, requestId);
    for (const listener of refusalListeners) {
      try {
        listener(refusal);
      } catch {
        // A listener's failure is its own; the caller still gets the refusal.
      }
    }
    throw refusal;
  }

  return {
    baseUrl,
    language,
    setLanguage(next) {
      language.value = next;
    },
    request,
    get: (path, query, rest) => request('GET', path, { ...rest, query }),
    post: (path, body, rest) => request('POST', path, { ...rest, body }),
    url: (path) => `${baseUrl}${path.startsWith('/') ? '' : '/'}${path}`,
    setAuthenticator(next) {
      authenticator = next;
    },
    onRefusal(listener) {
      refusalListeners.add(listener);
      return () => refusalListeners.delete(listener);
    },
    setSpendConfirmer(next) {
      confirmer = next;
    },
    confirmSpend(ref, signal) {
      return confirmer === null ? null : confirmer.confirm(ref, signal);
    },
  };
}

function isEnvelope(value: unknown): value is Envelope {
  return typeof value === 'object' && value !== null && typeof (value as Envelope).statusCode === 'number';
}

function dropUndefined(query: Query): Record<string, string | number | boolean> {
  return Object.fromEntries(Object.entries(query).filter(([, v]) => v !== undefined)) as Record<string, string | number | boolean>;
}
