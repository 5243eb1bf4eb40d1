import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { ForgotPasswordForm } from '../../lib/ui';
import { createAccount } from '../support/accounts';
import { renderWith, startAuthServer, violationsIn, type AuthTestServer } from './support/auth';

let t: AuthTestServer;

beforeAll(async () => {
  t = await startAuthServer();
}, 60_000);

afterAll(() => t?.close());

describe('ForgotPasswordForm against the real server', { timeout: 30_000 }, () => {
  it('says "check your inbox" for any address, without telling whether it has an account', async () => {
    const { container } = renderWith(t.site(), <ForgotPasswordForm />);
    expect(screen.getByLabelText('E-mail')).toHaveAttribute('autocomplete', 'email');
    expect(await violationsIn(container)).toEqual([]);
    const user = userEvent.setup();
    await user.type(screen.getByLabelText('E-mail'), 'nobody@example.com{Enter}');
    expect(await screen.findByText(/Check your inbox\. If nobody@example\.com belongs to an account/)).toBeInTheDocument();
    const call = t.sent.filter((r) => r.path === '/papi/login/reset').at(-1);
    expect(call?.body).toEqual({ email: 'nobody@example.com' });
  });

  it('mails a reset link to an address with an account, with the same answer on the page', async () => {
    const fan = await createAccount(t.server.app);
    renderWith(t.site(), <ForgotPasswordForm />);
    await userEvent.setup().type(screen.getByLabelText('E-mail'), `${fan.email}{Enter}`);
    expect(await screen.findByText(new RegExp(`Check your inbox\\. If ${fan.email.replace(/\./g, '\\.')} belongs to an account`))).toBeInTheDocument();
    const mail = await t.nextMail(fan.email, 'reset-password');
    expect(mail.links.some((link) => /\/reset-password\/[\w-]{20,}$/.test(link))).toBe(true);
    // The address without an account got nothing, though the page said the same.
    expect(await t.mailsTo('nobody@example.com')).toEqual([]);
  });

  it('asks for a valid address before sending', async () => {
    const before = t.count('/papi/login/reset');
    renderWith(t.site(), <ForgotPasswordForm />);
    await userEvent.setup().type(screen.getByLabelText('E-mail'), 'nobody{Enter}');
    expect(screen.getByLabelText('E-mail')).toHaveAccessibleDescription('Please enter an e-mail address like name@example.com.');
    expect(t.count('/papi/login/reset')).toBe(before);
  });
});
