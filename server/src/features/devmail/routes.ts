import { Type } from 'typebox';
import { desc, eq } from 'drizzle-orm';
import type { App, AppContext } from '../../context';
import { mailOutbox } from '../../db/schema';

const OutboxQuery = Type.Object({
  to: Type.Optional(Type.String({ maxLength: 254 })),
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 200, default: 50 })),
});

function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/** Addresses in a mail's text, turned into links on the outbox page. */
function linkify(text: string): string {
  return escapeHtml(text).replace(/https?:\/\/[^\s<>&"']+/g, (url) => `<a href="${url}">${url}</a>`);
}

/**
 * The development outbox: every mail the server wrote, newest first, as a page a developer
 * clicks through and as JSON the end-to-end tests read. Never registered in production, staging
 * included: it shows every address and every sign-in link the server mailed.
 */
export function registerDevMailRoutes(app: App, ctx: AppContext): void {
  const newest = async (to: string | undefined, limit: number) =>
    ctx.db
      .select({
        id: mailOutbox.id,
        to: mailOutbox.to,
        subject: mailOutbox.subject,
        text: mailOutbox.text,
        html: mailOutbox.html,
        template: mailOutbox.template,
        language: mailOutbox.language,
        createdAt: mailOutbox.createdAt,
        sentAt: mailOutbox.sentAt,
        error: mailOutbox.error,
      })
      .from(mailOutbox)
      .where(to === undefined ? undefined : eq(mailOutbox.to, to))
      .orderBy(desc(mailOutbox.createdAt), desc(mailOutbox.id))
      .limit(limit);

  app.get('/dev/mail.json', { schema: { hide: true, querystring: OutboxQuery } }, async (request, reply) => {
    const mails = await newest(request.query.to, request.query.limit ?? 50);
    const links = (text: string) => text.match(/https?:\/\/[^\s<>"']+/g) ?? [];
    return reply
      .header('Cache-Control', 'no-store')
      .send({ mails: mails.map((mail) => ({ ...mail, createdAt: mail.createdAt.toISOString(), sentAt: mail.sentAt?.toISOString() ?? null, links: links(mail.text) })) });
  });

  app.get('/dev/mail', { schema: { hide: true, querystring: OutboxQuery } }, async (request, reply) => {
    const mails = await newest(request.query.to, request.query.limit ?? 50);
    const items = mails
      .map(
        (mail) => `<li>
<article aria-labelledby="mail-${mail.id}">
<h2 id="mail-${mail.id}">${escapeHtml(mail.subject)}</h2>
<p class="meta">To <strong>${escapeHtml(mail.to)}</strong> · ${escapeHtml(mail.template)} · ${escapeHtml(mail.language)} · <time datetime="${mail.createdAt.toISOString()}">${mail.createdAt.toISOString()}</time>${mail.error === null ? '' : ` · <span class="error">${escapeHtml(mail.error)}</span>`}</p>
<pre>${linkify(mail.text)}</pre>
</article>
</li>`,
      )
      .join('\n');
    const html = `<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>Development outbox</title>
<style>
body{margin:0 auto;max-width:960px;padding:16px;font:16px/1.5 system-ui,sans-serif;color:#1a1a1a;background:#fff}
ol{list-style:none;padding:0}li{border-bottom:1px solid #ccc;padding:8px 0}h2{font-size:1.15rem;margin:0}
.meta{color:#444;margin:4px 0}pre{white-space:pre-wrap;word-break:break-word;background:#f4f4f4;padding:12px}
a{color:#4c1d95}.error{color:#a00}
</style></head>
<body><main><h1>Development outbox</h1>
<p>${mails.length === 0 ? 'No mail yet.' : `The newest ${mails.length} mails, newest first.`} Also as <a href="/dev/mail.json">JSON</a>.</p>
<ol>
${items}
</ol></main></body></html>`;
    return reply.header('Cache-Control', 'no-store').type('text/html; charset=utf-8').send(html);
  });
}
