import type { AppContext } from '../context';
import type { Database } from '../db';
import { createMailer, type Mailer } from './mailer';

export type { Mailer, MailRequest, OutboxMailer } from './mailer';
export { createMailer, mailRetryDelaysMs } from './mailer';

/** The job that sends the outbox's due mails (jobs.runNow in tests). */
export const MAIL_OUTBOX_JOB = 'mail-outbox';

// Keyed by the database handle, which the app's context and every copy of it share.
const mailers = new WeakMap<Database, Mailer>();

export function setMailer(ctx: AppContext, mailer: Mailer): void {
  mailers.set(ctx.db, mailer);
}

/** The app's mailer; a context that never had one set gets the outbox mailer. */
export function mailerOf(ctx: AppContext): Mailer {
  let mailer = mailers.get(ctx.db);
  if (mailer === undefined) {
    mailer = createMailer(ctx, { error: (obj, msg) => process.stderr.write(`${msg}: ${String((obj as { err?: unknown }).err)}\n`) });
    mailers.set(ctx.db, mailer);
  }
  return mailer;
}
