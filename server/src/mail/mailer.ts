import { and, asc, eq, inArray, isNotNull, isNull, lte } from 'drizzle-orm';
import nodemailer, { type Transporter } from 'nodemailer';
import type { AppContext } from '../context';
import { mailOutbox } from '../db/schema';
import { mailLanguage, renderContactMail, renderMail, type ContactMailValues, type LinkMailTemplate } from './templates';

/** A mail with a link for its receiver (verify-email, reset-password), or a contact message to support. */
export type MailRequest =
  | { to: string; template: LinkMailTemplate; language: string | null | undefined; values: { name: string; link: string }; replyTo?: undefined }
  | {
      to: string;
      template: 'contact';
      language: string | null | undefined;
      values: ContactMailValues;
      /** The sender's address: support answers it with the mail client's Reply. */
      replyTo: string;
    };

export interface Mailer {
  /** Renders and records the mail; resolves once it is stored (sending may follow later). */
  send(mail: MailRequest): Promise<void>;
}

export interface OutboxMailer extends Mailer {
  /** Sends the mails whose attempt is due (the `mail-outbox` job); returns how many were tried. */
  deliverDue(): Promise<number>;
}

/**
 * Waits after each failed attempt: half a minute, growing to eight hours, about sixteen hours
 * in all — an SMTP outage of a night loses nothing. After the last the mail is given up (its
 * row keeps the error).
 */
export const mailRetryDelaysMs: readonly number[] = [30, 60, 120, 300, 600, 1_800, 3_600, 7_200, 14_400, 28_800].map((seconds) => seconds * 1_000);
/** How long a node holds a mail it is sending: one that died mid-way leaves it due again after this. */
const sendingHoldMs = 60_000;
/** Mails tried per run of the job, so a backlog drains in steps and no run holds the job long. */
const batchSize = 20;

type OutboxRow = typeof mailOutbox.$inferSelect;

/**
 * Every mail is written to the outbox table first: in development that table is the mailbox
 * (`/dev/mail`), and in production it is the durable queue of what is to be sent. With SMTP_URL
 * set, a mail is due at once: it is tried right after it is stored (a slow mail server never
 * delays the request that caused it), and a failed attempt is tried again by the `mail-outbox`
 * job after `mailRetryDelaysMs`, so a reset link asked while the mail server is down still
 * arrives once it is back. A row is claimed before it is sent — its next attempt moved ahead —
 * so of several nodes, and of the first try and the job, one sends it.
 */
export function createMailer(ctx: AppContext, log: { error(obj: unknown, msg: string): void; warn?(obj: unknown, msg: string): void }): OutboxMailer {
  const transport: Transporter | null = ctx.config.smtpUrl === undefined ? null : nodemailer.createTransport(ctx.config.smtpUrl);

  /** Takes the due rows (one, or the oldest due) for this node to send. */
  async function claim(id?: number): Promise<OutboxRow[]> {
    const now = ctx.clock.now();
    const due = and(isNull(mailOutbox.sentAt), isNotNull(mailOutbox.nextAttemptAt), lte(mailOutbox.nextAttemptAt, now));
    const picked = ctx.db
      .select({ id: mailOutbox.id })
      .from(mailOutbox)
      .where(id === undefined ? due : and(due, eq(mailOutbox.id, id)))
      .orderBy(asc(mailOutbox.nextAttemptAt))
      .limit(id === undefined ? batchSize : 1)
      .for('update', { skipLocked: true });
    return ctx.db
      .update(mailOutbox)
      .set({ nextAttemptAt: new Date(now.getTime() + sendingHoldMs) })
      .where(inArray(mailOutbox.id, picked))
      .returning();
  }

  async function deliver(row: OutboxRow): Promise<void> {
    if (transport === null) return;
    const attempts = row.attempts + 1;
    try {
      await transport.sendMail({
        from: ctx.config.mailFrom,
        to: row.to,
        ...(row.replyTo === null ? {} : { replyTo: row.replyTo }),
        subject: row.subject,
        text: row.text,
        html: row.html,
      });
    } catch (error) {
      const reason = error instanceof Error ? error.message : String(error);
      const delay = mailRetryDelaysMs[attempts - 1];
      const nextAttemptAt = delay === undefined ? null : new Date(ctx.clock.now().getTime() + delay);
      await ctx.db.update(mailOutbox).set({ attempts, error: reason, nextAttemptAt }).where(eq(mailOutbox.id, row.id));
      const fields = { mail: row.id, template: row.template, attempts, reason, nextAttemptAt };
      if (nextAttemptAt === null) log.error(fields, 'mail given up after its last attempt');
      else log.warn?.(fields, 'mail not sent; it is tried again');
      return;
    }
    await ctx.db.update(mailOutbox).set({ attempts, sentAt: ctx.clock.now(), error: null, nextAttemptAt: null }).where(eq(mailOutbox.id, row.id));
  }

  return {
    async send(mail) {
      const language = mailLanguage(mail.language);
      const rendered = mail.template === 'contact' ? renderContactMail(mail.values) : renderMail(mail.template, language, mail.values);
      const [row] = await ctx.db
        .insert(mailOutbox)
        .values({
          to: mail.to,
          template: mail.template,
          language,
          replyTo: mail.replyTo ?? null,
          nextAttemptAt: transport === null ? null : ctx.clock.now(),
          ...rendered,
        })
        .returning({ id: mailOutbox.id });
      if (transport === null || row === undefined) return;
      void claim(row.id)
        .then(async (claimed) => {
          for (const due of claimed) await deliver(due);
        })
        .catch((error: unknown) => log.error({ err: error, mail: row.id }, 'could not send the mail now; the outbox job tries again'));
    },

    async deliverDue() {
      if (transport === null) return 0;
      const claimed = await claim();
      for (const row of claimed) await deliver(row);
      return claimed.length;
    },
  };
}
