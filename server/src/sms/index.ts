import type { AppContext } from '../context';
import type { Database } from '../db';
import { mailOutbox } from '../db/schema';

/** One text message to one number (E.164). */
export interface SmsMessage {
  to: string;
  text: string;
}

/**
 * How the server sends text messages. The sandbox provider (the default) delivers nothing: it
 * writes each message to the development outbox (`/dev/mail`, template `sms`), where a developer
 * or an end-to-end test reads the code. A real provider is chosen by configuration
 * (SMS_WEBHOOK_URL: the message is POSTed as JSON to a gateway), or set in code with `setSmsSender`.
 */
export interface SmsSender {
  readonly name: string;
  /** Resolves once the provider accepted the message; rejects when it refused it. */
  send(message: SmsMessage): Promise<void>;
}

function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/** The sandbox: the message lands in the outbox table, next to the mails, and nowhere else. */
export function sandboxSmsSender(db: Database): SmsSender {
  return {
    name: 'sandbox',
    async send(message) {
      await db.insert(mailOutbox).values({
        to: message.to,
        subject: 'SMS',
        text: message.text,
        html: `<p>${escapeHtml(message.text)}</p>`,
        template: 'sms',
        language: 'en',
        sentAt: new Date(),
      });
    },
  };
}

/**
 * A gateway reached over HTTPS: `POST {url}` with `{"to": "+420…", "text": "…"}`; any answer
 * but 2xx is a refusal. Most SMS providers (or a small adapter in front of one) take this shape.
 */
export function webhookSmsSender(url: string, fetchImpl: typeof fetch = fetch): SmsSender {
  return {
    name: 'webhook',
    async send(message) {
      const response = await fetchImpl(url, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(message),
        signal: AbortSignal.timeout(10_000),
      });
      if (!response.ok) throw new Error(`SMS gateway answered ${response.status}`);
    },
  };
}

// Keyed by the database handle, like the mailer: the app's context and every copy of it share it.
const senders = new WeakMap<Database, SmsSender>();

export function setSmsSender(ctx: AppContext, sender: SmsSender): void {
  senders.set(ctx.db, sender);
}

/** The app's SMS provider: the configured gateway, else the sandbox. */
export function smsSenderOf(ctx: AppContext): SmsSender {
  let sender = senders.get(ctx.db);
  if (sender === undefined) {
    const url = ctx.config.smsWebhookUrl;
    sender = url === undefined ? sandboxSmsSender(ctx.db) : webhookSmsSender(url);
    senders.set(ctx.db, sender);
  }
  return sender;
}
