import { eq } from 'drizzle-orm';
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

/**
 * Every mail is written to the outbox table first: in development that table is the mailbox
 * (`/dev/mail`), and in production it is the record of what was sent. With SMTP_URL set the
 * mail also goes out through nodemailer, and the row is marked sent or failed; a slow mail
 * server never delays the request that caused the mail.
 */
export function createMailer(ctx: AppContext, log: { error(obj: unknown, msg: string): void }): Mailer {
  const transport: Transporter | null = ctx.config.smtpUrl === undefined ? null : nodemailer.createTransport(ctx.config.smtpUrl);
  return {
    async send(mail) {
      const language = mailLanguage(mail.language);
      const rendered = mail.template === 'contact' ? renderContactMail(mail.values) : renderMail(mail.template, language, mail.values);
      const [row] = await ctx.db
        .insert(mailOutbox)
        .values({ to: mail.to, template: mail.template, language, ...rendered })
        .returning({ id: mailOutbox.id });
      if (transport === null || row === undefined) return;
      void transport
        .sendMail({ from: ctx.config.mailFrom, to: mail.to, ...(mail.replyTo === undefined ? {} : { replyTo: mail.replyTo }), ...rendered })
        .then(
          () => ctx.db.update(mailOutbox).set({ sentAt: new Date() }).where(eq(mailOutbox.id, row.id)),
          (error: unknown) =>
            ctx.db
              .update(mailOutbox)
              .set({ error: error instanceof Error ? error.message : String(error) })
              .where(eq(mailOutbox.id, row.id)),
        )
        .catch((error: unknown) => log.error({ err: error }, 'could not record the mail delivery'));
    },
  };
}
