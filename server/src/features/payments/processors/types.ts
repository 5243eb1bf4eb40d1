import type { FastifyRequest } from 'fastify';

/** What a processor is told about an order when it builds its payment page. */
export interface CheckoutOrder {
  id: string;
  amount: number;
  /** The language the payer uses on the platform (`en`, `cs`). */
  language: string;
}

/** The card a processor charged, as the platform may keep it: the processor's token, never a number. */
export interface ProcessorCard {
  token: string;
  brand: string;
  last4: string;
  expMonth: number;
  expYear: number;
}

/** The outcome of charging a saved card without the processor's page. */
export interface ChargeResult {
  status: 'paid' | 'declined' | 'challenge';
  /** The processor's own reference for the charge. */
  externalId: string;
  /** Set with `challenge`: the page where the payer approves the payment (a second step such as 3-D Secure). */
  redirectUrl?: string;
}

/**
 * What a processor reports about an order, after the platform checked that the processor
 * really sent it. `processing` means the processor has the payment but has not decided yet.
 */
export interface ProcessorEvent {
  orderId: string;
  status: 'paid' | 'declined' | 'processing';
  externalId: string;
  /** The card used, when the processor can charge it again later. */
  card: ProcessorCard | null;
}

/** The request a processor's callback arrived with: its headers and the body exactly as sent. */
export interface CallbackRequest {
  headers: FastifyRequest['headers'];
  rawBody: string;
}

/**
 * A card processor. The platform never sees card numbers: new cards are entered on the
 * processor's page (`createCheckout`), saved cards are charged by the processor's token
 * (`chargeSavedCard`), and outcomes arrive at `/papi/payments/{name}/callback`, where
 * `verifyCallback` authenticates them before anything moves.
 */
export interface CardProcessor {
  /** Lower-case letters, digits and dashes: it appears in URLs (`/api/payments/{name}result`). */
  readonly name: string;
  readonly title: string;
  /** True when saved cards can be charged without the payer visiting the processor's page. */
  readonly savedCards: boolean;
  /** The address of the processor's payment page for this order. */
  createCheckout(order: CheckoutOrder): Promise<string>;
  /** Charges a saved card now. `orderId` doubles as the processor's idempotency key. */
  chargeSavedCard(token: string, amount: number, orderId: string): Promise<ChargeResult>;
  /** Authenticates a callback and reads it; throws AppError('invalid-signature') otherwise. */
  verifyCallback(request: CallbackRequest): Promise<ProcessorEvent>;
}
