import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { ResetPasswordForm } from '../../lib/ui';
import { createAccount, type TestAccount } from '../support/accounts';
import { renderWith, startAuthServer, violationsIn, type AuthTestServer } from './support/auth';

let t: AuthTestServer;

beforeAll(async () => {
  t = await startAuthServer();
}, 60_000);

afterAll(() => t?.close());

/** What the fan's "forgot password" did: the hash of the reset link the server mailed. */
async function mailedHash(fan: TestAccount): Promise<string> {
  const asked = await t.server.app.inject({ method: 'POST', url: '/papi/login/reset', payload: { email: fan.email } });
  expect(asked.json()).toEqual({ statusCode: 1 });
  const mail = await t.nextMail(fan.email, 'reset-password');
  const hash = mail.links.map((link) => /\/reset-password\/([^/?#]+)$/.exec(link)?.[1]).find((h) => h !== undefined);
  if (hash === undefined) throw new Error(`no reset link in ${mail.text}`);
  return hash;
}

async function loginAnswer(email: string, password: string) {
  const response = await t.server.app.inject({ method: 'POST', url: '/papi/login', payload: { email, password } });
  return response.json() as { statusCode: number; statusText?: string };
}

describe('ResetPasswordForm against the real server', { timeout: 30_000 }, () => {
  it('sets the new password with the mailed hash: the new one logs in, the old one no longer', async () => {
    const fan = await createAccount(t.server.app);
    const hash = await mailedHash(fan);
    const { container } = renderWith(t.site(), <ResetPasswordForm hash={hash} />);
    const password = screen.getByLabelText('New password');
    expect(password).toHaveAttribute('autocomplete', 'new-password');
    expect(await violationsIn(container)).toEqual([]);
    await userEvent.setup().type(password, 'a brand new passphrase{Enter}');
    expect(await screen.findByText('Your new password is saved. You can log in with it now.')).toBeInTheDocument();
    expect(t.sent.filter((r) => r.path === '/papi/login/reset').at(-1)?.body).toEqual({ hash, password: 'a brand new passphrase' });
    expect((await loginAnswer(fan.email, 'a brand new passphrase')).statusCode).toBe(2);
    expect(await loginAnswer(fan.email, fan.password)).toEqual({ statusCode: -1, statusText: 'invalid-credentials' });
  });

  it('shows the server’s refusal of a link already used, and the password stays', async () => {
    const fan = await createAccount(t.server.app);
    const hash = await mailedHash(fan);
    const used = await t.server.app.inject({ method: 'POST', url: '/papi/login/reset', payload: { hash, password: 'the first new passphrase' } });
    expect(used.json()).toEqual({ statusCode: 1 });
    renderWith(t.site(), <ResetPasswordForm hash={hash} />);
    await userEvent.setup().type(screen.getByLabelText('New password'), 'a brand new passphrase{Enter}');
    expect(await screen.findByRole('alert')).toHaveTextContent('This link has expired or has already been used.');
    expect((await loginAnswer(fan.email, 'the first new passphrase')).statusCode).toBe(2);
    expect((await loginAnswer(fan.email, 'a brand new passphrase')).statusCode).toBe(-1);
  });

  it('shows the server’s refusal of a link it never sent', async () => {
    renderWith(t.site(), <ResetPasswordForm hash="an-old-reset-hash-0123456789" />);
    await userEvent.setup().type(screen.getByLabelText('New password'), 'a brand new passphrase{Enter}');
    expect(await screen.findByRole('alert')).toHaveTextContent('This link has expired or has already been used.');
  });
});
