import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { AppError } from '../../../errors';
import type { IdentityCallbackRequest, IdentityEvent, IdentityProvider } from './types';

/**
 * The built-in test identity provider: a page served by this server where the person uploads
 * the front and back of an ID and a selfie, test document numbers with known verdicts, and a
 * signed callback to the platform, so the whole redirect flow runs without a contract with a
 * real provider. Nobody's identity is really checked.
 */
export const SANDBOX_IDENTITY = 'sandbox';

/** The header carrying `sha256=<hex HMAC of the raw body>` on sandbox identity callbacks. */
export const IDENTITY_SIGNATURE_HEADER = 'fanstage-identity-signature';

/** How old a callback may be when it arrives; older ones are refused as replays. */
export const CALLBACK_MAX_AGE_MS = 10 * 60_000;

export type TestDocumentOutcome = IdentityEvent['outcome'];

/** The documented test document numbers; any other valid number is approved. */
export const testDocuments: Readonly<Record<string, TestDocumentOutcome>> = {
  '100000001': 'approved',
  '200000002': 'declined',
  '300000003': 'review',
};

/** A document number: 6 to 12 letters and digits. */
export function isDocumentNumber(value: string): boolean {
  return /^[A-Z0-9]{6,12}$/.test(value);
}

export function outcomeOf(documentNumber: string): TestDocumentOutcome {
  return testDocuments[documentNumber] ?? 'approved';
}

/** The reason the sandbox gives with a verdict other than approved. */
export function reasonOf(outcome: TestDocumentOutcome): string | null {
  if (outcome === 'declined') return 'The document could not be verified (sandbox test document).';
  if (outcome === 'review') return 'The selfie does not clearly match the document (sandbox test document).';
  return null;
}

/** The sandbox's keys, derived from the server's JWT secret so nothing else needs configuring. */
export function identityKeys(jwtSecret: string) {
  const key = createHmac('sha256', jwtSecret).update('fanstage sandbox identity provider v1').digest();
  const mac = (text: string) => createHmac('sha256', key).update(text).digest();
  const same = (expected: Buffer, given: string, encoding: 'hex' | 'base64url') => {
    const buffer = Buffer.from(given, encoding);
    return buffer.length === expected.length && timingSafeEqual(buffer, expected);
  };
  return {
    signBody: (rawBody: string) => `sha256=${mac(`callback:${rawBody}`).toString('hex')}`,
    verifyBody(rawBody: string, header: string | undefined): boolean {
      const match = /^sha256=([0-9a-f]{64})$/.exec(header ?? '');
      return match !== null && same(mac(`callback:${rawBody}`), match[1]!, 'hex');
    },
    /** The `sig` of a check's page, so nobody else can open it. */
    pageSig: (checkId: string) => mac(`check:${checkId}`).toString('base64url'),
    verifyPageSig(checkId: string, sig: string | undefined): boolean {
      return typeof sig === 'string' && /^[A-Za-z0-9_-]{43}$/.test(sig) && same(mac(`check:${checkId}`), sig, 'base64url');
    },
  };
}

export type IdentityKeys = ReturnType<typeof identityKeys>;

export function newIdentityExternalId(): string {
  return `sbx_id_${randomBytes(12).toString('hex')}`;
}

export function newEventId(): string {
  return `sbx_ev_${randomBytes(16).toString('hex')}`;
}

/** The address of a check's sandbox page. */
export function identityPageUrl(publicUrl: string, keys: IdentityKeys, checkId: string, language: string | null): string {
  const url = new URL(`/papi/identity/${SANDBOX_IDENTITY}/check/${encodeURIComponent(checkId)}`, publicUrl);
  url.searchParams.set('sig', keys.pageSig(checkId));
  if (language !== null) url.searchParams.set('lang', language);
  return url.toString();
}

function isEvent(value: unknown): value is IdentityEvent {
  if (typeof value !== 'object' || value === null) return false;
  const event = value as Record<string, unknown>;
  return (
    typeof event.eventId === 'string' &&
    event.eventId.length > 0 &&
    event.eventId.length <= 100 &&
    typeof event.checkId === 'string' &&
    event.checkId.length <= 64 &&
    typeof event.externalId === 'string' &&
    event.externalId.length <= 100 &&
    (event.outcome === 'approved' || event.outcome === 'declined' || event.outcome === 'review') &&
    (event.reason === null || (typeof event.reason === 'string' && event.reason.length <= 500)) &&
    Number.isSafeInteger(event.issuedAt)
  );
}

export function createSandboxIdentityProvider(options: { publicUrl: () => string; jwtSecret: string }): IdentityProvider & { keys: IdentityKeys } {
  const keys = identityKeys(options.jwtSecret);
  return {
    name: SANDBOX_IDENTITY,
    title: 'Sandbox (test documents)',
    keys,
    async startCheck(check) {
      return identityPageUrl(options.publicUrl(), keys, check.id, check.language);
    },
    async verifyCallback(request: IdentityCallbackRequest): Promise<IdentityEvent> {
      const header = request.headers[IDENTITY_SIGNATURE_HEADER];
      if (!keys.verifyBody(request.rawBody, Array.isArray(header) ? header[0] : header)) throw new AppError('invalid-signature');
      let parsed: unknown;
      try {
        parsed = JSON.parse(request.rawBody);
      } catch {
        throw new AppError('invalid-json');
      }
      if (!isEvent(parsed)) throw new AppError('invalid-request');
      return {
        eventId: parsed.eventId,
        checkId: parsed.checkId,
        outcome: parsed.outcome,
        externalId: parsed.externalId,
        reason: parsed.reason,
        issuedAt: parsed.issuedAt,
      };
    },
  };
}
