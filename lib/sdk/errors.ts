import type { Envelope } from '../contract';

/**
 * Every failure the SDK reports. `code` is a message key of the error catalogue (SPEC §8),
 * translated under `errors.*`; `statusCode` is the envelope's code (-1, -2, -5, ...) or 0 when
 * no envelope arrived; `retryable` says whether the same call may succeed later unchanged.
 *
 * Without an envelope the code is one of the SDK's own: 'network' (no answer at all),
 * 'timeout', 'server_not_responding' (an answer that is not the API's), or 'aborted' (the
 * caller cancelled; never worth showing to anyone).
 */
export class SdkError extends Error {
  override readonly name = 'SdkError';
  readonly code: string;
  readonly statusCode: number;
  readonly httpStatus: number | undefined;
  readonly retryable: boolean;
  readonly body: unknown;
  /**
   * The server's id of the request that failed (its `X-Request-Id`), which its log lines carry:
   * worth quoting in a report. Undefined when no answer came.
   */
  readonly requestId: string | undefined;

  constructor(init: { code: string; statusCode: number; httpStatus?: number; retryable?: boolean; body?: unknown; cause?: unknown; requestId?: string | null }) {
    super(init.code, init.cause === undefined ? undefined : { cause: init.cause });
    this.code = init.code;
    this.statusCode = init.statusCode;
    this.httpStatus = init.httpStatus;
    this.retryable = init.retryable ?? false;
    this.body = init.body;
    this.requestId = init.requestId ?? undefined;
  }

  static fromEnvelope(envelope: Envelope, httpStatus?: number, requestId?: string | null): SdkError {
    return new SdkError({
      code: envelope.statusText ?? 'internal-error',
      statusCode: envelope.statusCode,
      httpStatus,
      // The server's own trouble and throttling may pass; anything the caller sent will not.
      retryable: httpStatus !== undefined && (httpStatus >= 500 || httpStatus === 429),
      body: envelope.body,
      requestId,
    });
  }
}

export function isSdkError(value: unknown): value is SdkError {
  return value instanceof SdkError;
}
