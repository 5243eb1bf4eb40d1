import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { AppError } from '../../../errors';
import type { CallbackRequest, CardProcessor, ChargeResult, ProcessorCard, ProcessorEvent } from './types';

/**
 * The built-in test processor: a card page served by this server, test card numbers with
 * known outcomes, and signed callbacks, so the whole redirect flow runs without a contract
 * with a real processor. Nothing is ever charged.
 */
export const SANDBOX = 'sandbox';

/** The header carrying `sha256=<hex HMAC of the raw body>` on sandbox callbacks. */
export const SANDBOX_SIGNATURE_HEADER = 'fanstage-sandbox-signature';

/** What a test card does: pay, decline, ask a second step, or pay now and decline every later saved-card charge. */
export type TestCardBehaviour = 'ok' | 'decline' | '3ds' | 'later-decline';

/** The documented test cards; any other number that passes the Luhn check pays. */
export const testCards: Readonly<Record<string, TestCardBehaviour>> = {
  '4242424242424242': 'ok',
  '4000000000000002': 'decline',
  '4000000000003220': '3ds',
  '4000000000000341': 'later-decline',
};

export function luhnValid(digits: string): boolean {
  if (!/^\d{12,19}$/.test(digits)) return false;
  let sum = 0;
  for (let i = 0; i < digits.length; i++) {
    let digit = Number(digits[digits.length - 1 - i]);
    if (i % 2 === 1) {
      digit *= 2;
      if (digit > 9) digit -= 9;
    }
    sum += digit;
  }
  return sum % 10 === 0;
}

export function brandOf(digits: string): string {
  if (digits.startsWith('4')) return 'Visa';
  if (/^(5[1-5]|2[2-7])/.test(digits)) return 'Mastercard';
  if (/^3[47]/.test(digits)) return 'American Express';
  return 'Card';
}

export function behaviourOf(digits: string): TestCardBehaviour {
  return testCards[digits] ?? 'ok';
}

/** A card token: the behaviour travels in it, the way a real processor remembers the card on its side. */
export function newCardToken(behaviour: TestCardBehaviour): string {
  return `sbx_${behaviour}_${randomBytes(12).toString('hex')}`;
}

function tokenBehaviour(token: string): TestCardBehaviour | null {
  const match = /^sbx_(ok|decline|3ds|later-decline)_[0-9a-f]{24}$/.exec(token);
  return match ? (match[1] as TestCardBehaviour) : null;
}

export function newExternalId(): string {
  return `sbx_ch_${randomBytes(12).toString('hex')}`;
}

/** The sandbox's keys, derived from the server's JWT secret so nothing else needs configuring. */
export function sandboxKeys(jwtSecret: string) {
  const key = createHmac('sha256', jwtSecret).update('fanstage sandbox processor v1').digest();
  const mac = (text: string) => createHmac('sha256', key).update(text).digest();
  const same = (expected: Buffer, given: string, encoding: 'hex' | 'base64url') => {
    const buffer = Buffer.from(given, encoding);
    return buffer.length === expected.length && timingSafeEqual(buffer, expected);
  };
  return {
    /** Signs a callback body: the value of the signature header. */
    signBody: (rawBody: string) => `sha256=${mac(`callback:${rawBody}`).toString('hex')}`,
    verifyBody(rawBody: string, header: string | undefined): boolean {
      const match = /^sha256=([0-9a-f]{64})$/.exec(header ?? '');
      return match !== null && same(mac(`callback:${rawBody}`), match[1]!, 'hex');
    },
    /** The `sig` of an order's card page, so nobody else can open it. */
    pageSig: (orderId: string) => mac(`checkout:${orderId}`).toString('base64url'),
    verifyPageSig(orderId: string, sig: string | undefined): boolean {
      return typeof sig === 'string' && /^[A-Za-z0-9_-]{43}$/.test(sig) && same(mac(`checkout:${orderId}`), sig, 'base64url');
    },
    /**
     * Seals a payment waiting for the second step (and the new card it will save, if any) into
     * the page's address, so the page keeps no state of its own.
     */
    sealStep(orderId: string, card: ProcessorCard | null): string {
      const payload = Buffer.from(JSON.stringify({ card })).toString('base64url');
      return `${payload}.${mac(`step:${orderId}:${payload}`).toString('base64url')}`;
    },
    openStep(orderId: string, sealed: string | undefined): { card: ProcessorCard | null } | null {
      const [payload, sig] = (sealed ?? '').split('.');
      if (!payload || !sig || !/^[A-Za-z0-9_-]{43}$/.test(sig) || !same(mac(`step:${orderId}:${payload}`), sig, 'base64url')) return null;
      return JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as { card: ProcessorCard | null };
    },
  };
}

export type SandboxKeys = ReturnType<typeof sandboxKeys>;

function isEvent(value: unknown): value is ProcessorEvent {
  if (typeof value !== 'object' || value === null) return false;
  const event = value as Record<string, unknown>;
  if (typeof event.orderId !== 'string' || typeof event.externalId !== 'string') return false;
  if (event.status !== 'paid' && event.status !== 'declined' && event.status !== 'processing') return false;
  if (event.card === null || event.card === undefined) return true;
  const card = event.card as Record<string, unknown>;
  return (
    typeof card.token === 'string' &&
    typeof card.brand === 'string' &&
    typeof card.last4 === 'string' &&
    Number.isInteger(card.expMonth) &&
    Number.isInteger(card.expYear)
  );
}

/** The address of an order's sandbox card page. */
export function checkoutUrl(publicUrl: string, keys: SandboxKeys, orderId: string, language: string | null, sealedStep?: string): string {
  const url = new URL(`/papi/payments/${SANDBOX}/checkout/${encodeURIComponent(orderId)}`, publicUrl);
  url.searchParams.set('sig', keys.pageSig(orderId));
  if (language !== null) url.searchParams.set('lang', language);
  if (sealedStep !== undefined) url.searchParams.set('step', sealedStep);
  return url.toString();
}

export function createSandboxProcessor(options: { publicUrl: () => string; jwtSecret: string }): CardProcessor & { keys: SandboxKeys } {
  const keys = sandboxKeys(options.jwtSecret);
  return {
    name: SANDBOX,
    title: 'Sandbox (test cards)',
    savedCards: true,
    keys,
    async createCheckout(order) {
      return checkoutUrl(options.publicUrl(), keys, order.id, order.language);
    },
    async chargeSavedCard(token, _amount, orderId): Promise<ChargeResult> {
      const behaviour = tokenBehaviour(token);
      const externalId = newExternalId();
      if (behaviour === 'ok') return { status: 'paid', externalId };
      if (behaviour === '3ds') {
        return { status: 'challenge', externalId, redirectUrl: checkoutUrl(options.publicUrl(), keys, orderId, null, keys.sealStep(orderId, null)) };
      }
      return { status: 'declined', externalId };
    },
    async verifyCallback(request: CallbackRequest): Promise<ProcessorEvent> {
      const header = request.headers[SANDBOX_SIGNATURE_HEADER];
      if (!keys.verifyBody(request.rawBody, Array.isArray(header) ? header[0] : header)) throw new AppError('invalid-signature');
      let parsed: unknown;
      try {
        parsed = JSON.parse(request.rawBody);
      } catch {
        throw new AppError('invalid-json');
      }
      if (!isEvent(parsed)) throw new AppError('invalid-request');
      return { orderId: parsed.orderId, status: parsed.status, externalId: parsed.externalId, card: parsed.card ?? null };
    },
  };
}
