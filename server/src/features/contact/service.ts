import { eq } from 'drizzle-orm';
import type { ContactBody } from '../../../../lib/contract/contact';
import type { AppContext } from '../../context';
import { users } from '../../db/schema';
import { AppError } from '../../errors';
import { hit } from '../../http/throttle';
import type { ApiLanguage } from '../../http/language';
import { mailerOf } from '../../mail';
import { normalizeEmail } from '../auth/domain';
import { isValidEmail } from '../settings/domain';

export interface ContactSender {
  /** The signed-in sender; null for a visitor. */
  userId: number | null;
  /** The visitor's address (request.ip), the key of their limit. */
  ip: string;
  language: ApiLanguage;
}

/** Control characters other than tab and line breaks: nothing a person types, and trouble in a mail. */
// eslint-disable-next-line no-control-regex -- matching control characters is the point
const controlCharacters = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/g;

/**
 * Writes a contact message to the support address's outbox (SUPPORT_EMAIL). Limited per
 * requester (the account, or the visitor's network address) and per answer address, counted
 * in the database so every node agrees: the form cannot be used to flood support, nor to
 * make the platform repeat one address endlessly. The answer address is the visitor's, or the
 * signed-in person's own unless they give another.
 */
export async function sendContactMessage(ctx: AppContext, sender: ContactSender, body: ContactBody): Promise<void> {
  const name = body.name.replace(controlCharacters, '').trim();
  const subject = body.subject.replace(controlCharacters, '').replace(/\s+/g, ' ').trim();
  const message = body.message.replace(controlCharacters, '').trim();
  if (name === '' || subject === '' || message.length < 10) throw new AppError('invalid-request');
  let account: { id: number; username: string } | null = null;
  let email = body.email?.trim();
  if (sender.userId !== null) {
    const [user] = await ctx.db.select({ id: users.id, username: users.username, email: users.email }).from(users).where(eq(users.id, sender.userId)).limit(1);
    if (user === undefined) throw new AppError('unauthorized');
    account = { id: user.id, username: user.username };
    if (email === undefined || email === '') email = user.email ?? undefined;
  }
  if (email === undefined || !isValidEmail(email)) throw new AppError('invalid-email');
  await hit(ctx, 'contact-requester', account === null ? `ip:${sender.ip}` : `user:${account.id}`);
  await hit(ctx, 'contact-address', normalizeEmail(email));
  await mailerOf(ctx).send({
    to: ctx.config.supportEmail,
    template: 'contact',
    language: 'en',
    replyTo: email,
    values: { name, email, topic: body.topic, subject, message, language: sender.language, account },
  });
}
