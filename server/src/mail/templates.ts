/**
 * The mails the platform sends, in English and Czech. Each has a subject, a plain-text body
 * (what many mail clients and screen readers prefer) and a simple HTML body with a real
 * link, a language attribute and enough contrast.
 */
export type LinkMailTemplate = 'verify-email' | 'reset-password';
export type MailTemplate = LinkMailTemplate | 'contact';
export type MailLanguage = 'en' | 'cs';

export interface RenderedMail {
  subject: string;
  text: string;
  html: string;
}

interface Texts {
  subject: string;
  greeting: string;
  lead: string;
  button: string;
  after: string;
}

const texts: Record<LinkMailTemplate, Record<MailLanguage, Texts>> = {
  'verify-email': {
    en: {
      subject: 'Confirm your e-mail address',
      greeting: 'Hello {{name}},',
      lead: 'please confirm that this is your e-mail address, so you can follow creators, chat and buy content on Fanstage.',
      button: 'Confirm e-mail address',
      after: 'The link is valid for 7 days. If you did not sign up, you can ignore this mail.',
    },
    cs: {
      subject: 'Potvrďte svou e-mailovou adresu',
      greeting: 'Dobrý den, {{name}},',
      lead: 'potvrďte prosím, že je tato e-mailová adresa vaše, abyste mohli na Fanstage sledovat tvůrce, chatovat a kupovat obsah.',
      button: 'Potvrdit e-mailovou adresu',
      after: 'Odkaz platí 7 dní. Pokud jste se neregistrovali, tento e-mail ignorujte.',
    },
  },
  'reset-password': {
    en: {
      subject: 'Reset your password',
      greeting: 'Hello {{name}},',
      lead: 'someone asked to reset the password of your Fanstage account. Choose a new password here:',
      button: 'Choose a new password',
      after: 'The link is valid for 1 hour and works once. If you did not ask for it, ignore this mail: your password stays as it is.',
    },
    cs: {
      subject: 'Obnovení hesla',
      greeting: 'Dobrý den, {{name}},',
      lead: 'někdo požádal o obnovení hesla k vašemu účtu na Fanstage. Nové heslo si zvolíte zde:',
      button: 'Zvolit nové heslo',
      after: 'Odkaz platí 1 hodinu a lze ho použít jednou. Pokud jste o obnovení nežádali, e-mail ignorujte: heslo zůstane beze změny.',
    },
  },
};

export function mailLanguage(language: string | null | undefined): MailLanguage {
  return language?.toLowerCase().startsWith('cs') ? 'cs' : 'en';
}

function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

export function renderMail(template: LinkMailTemplate, language: MailLanguage, values: { name: string; link: string }): RenderedMail {
  const t = texts[template][language];
  const greeting = t.greeting.replace('{{name}}', values.name);
  const text = `${greeting}\n\n${t.lead}\n\n${values.link}\n\n${t.after}\n\nFanstage\n`;
  const link = escapeHtml(values.link);
  const html = `<!doctype html>
<html lang="${language}">
<head><meta charset="utf-8"><meta name="viewport" content="width=device-width"><title>${escapeHtml(t.subject)}</title></head>
<body style="margin:0;padding:24px;background:#ffffff;color:#1a1a1a;font:16px/1.5 Arial,Helvetica,sans-serif">
<p>${escapeHtml(greeting)}</p>
<p>${escapeHtml(t.lead)}</p>
<p><a href="${link}" style="display:inline-block;padding:12px 20px;background:#5b21b6;color:#ffffff;text-decoration:none;border-radius:6px;font-weight:bold">${escapeHtml(t.button)}</a></p>
<p style="word-break:break-all">${link}</p>
<p style="color:#4a4a4a">${escapeHtml(t.after)}</p>
<p>Fanstage</p>
</body>
</html>
`;
  return { subject: t.subject, text, html };
}

/** What a contact message to support carries (POST /api|/papi/contact). */
export interface ContactMailValues {
  name: string;
  email: string;
  topic: string;
  subject: string;
  message: string;
  /** The sender's language (the Language header), so support answers in it. */
  language: MailLanguage;
  /** The signed-in sender's account; null for a visitor. */
  account: { id: number; username: string } | null;
}

/**
 * A contact message as support receives it: in English (the support team's working language),
 * with who sent it, from which account, in which language they wrote, and their words as sent.
 * Nothing the sender wrote is trusted as markup: the HTML body escapes all of it.
 */
export function renderContactMail(values: ContactMailValues): RenderedMail {
  const subject = `[Contact · ${values.topic}] ${values.subject.replace(/[\r\n]+/g, ' ')}`;
  const fields: [string, string][] = [
    ['From', `${values.name} <${values.email}>`],
    ['Account', values.account === null ? 'not signed in (visitor)' : `@${values.account.username} (id ${values.account.id})`],
    ['Topic', values.topic],
    ['Language', values.language],
    ['Subject', values.subject],
  ];
  const text = `${fields.map(([label, value]) => `${label}: ${value}`).join('\n')}\n\n${values.message}\n`;
  const html = `<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><meta name="viewport" content="width=device-width"><title>${escapeHtml(subject)}</title></head>
<body style="margin:0;padding:24px;background:#ffffff;color:#1a1a1a;font:16px/1.5 Arial,Helvetica,sans-serif">
<table role="presentation" style="border-collapse:collapse">
${fields.map(([label, value]) => `<tr><th scope="row" style="text-align:left;padding:2px 12px 2px 0;vertical-align:top">${label}</th><td>${escapeHtml(value)}</td></tr>`).join('\n')}
</table>
<p lang="${values.language}" style="white-space:pre-wrap;word-break:break-word;border-top:1px solid #cccccc;padding-top:12px">${escapeHtml(values.message)}</p>
</body>
</html>
`;
  return { subject, text, html };
}
