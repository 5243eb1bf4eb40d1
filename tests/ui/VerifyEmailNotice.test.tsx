import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { VerifyEmailNotice } from '../../lib/ui';
import { createAccount, type TestAccount } from '../support/accounts';
import { renderWith, startAuthServer, violationsIn, type AuthTestServer } from './support/auth';

let t: AuthTestServer;
let unverified: TestAccount;
let verified: TestAccount;

beforeAll(async () => {
  t = await startAuthServer();
  unverified = await createAccount(t.server.app, { verified: false });
  verified = await createAccount(t.server.app, { verified: true });
}, 60_000);

afterAll(() => t?.close());

describe('VerifyEmailNotice against the real server', { timeout: 30_000 }, () => {
  it('offers one resend of the link, the server mails it, then the button is disabled', async () => {
    const fanstage = t.site();
    await fanstage.session.login(unverified.email, unverified.password);
    const { container } = renderWith(fanstage, <VerifyEmailNotice />);
    expect(screen.getByRole('heading', { name: 'Verify your e-mail' })).toBeInTheDocument();
    expect(screen.getByText(new RegExp(`We sent a link to ${unverified.email.replace(/\./g, '\\.')}`))).toBeInTheDocument();
    expect(await violationsIn(container)).toEqual([]);

    const mailsBefore = (await t.mailsTo(unverified.email)).filter((m) => m.template === 'verify-email').length;
    const before = t.count('/api/users/resend-verification');
    await userEvent.setup().click(screen.getByRole('button', { name: 'Send the link again' }));
    expect(await screen.findByText(/We sent the link again\. Please check your inbox/)).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Send the link again' })).toBeDisabled();
    expect(t.count('/api/users/resend-verification')).toBe(before + 1);
    expect(t.sent.filter((r) => r.path === '/api/users/resend-verification').at(-1)?.headers.get('authorization')).toMatch(/^Bearer /);
    const mail = await t.nextMail(unverified.email, 'verify-email', mailsBefore);
    expect(mail.links.some((link) => /\/action\/[\w-]{20,}$/.test(link))).toBe(true);
  });

  it('shows nothing once the e-mail is verified', async () => {
    const fanstage = t.site();
    await fanstage.session.login(verified.email, verified.password);
    expect(fanstage.session.account.value?.emailVerified).toBe(true);
    renderWith(fanstage, <VerifyEmailNotice />);
    expect(screen.queryByRole('heading')).toBeNull();
  });
});
