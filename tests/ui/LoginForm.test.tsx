import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { LoginForm } from '../../lib/ui';
import { createAccount, type TestAccount } from '../support/accounts';
import { renderWith, startAuthServer, violationsIn, type AuthTestServer } from './support/auth';

let t: AuthTestServer;
let fan: TestAccount;

beforeAll(async () => {
  t = await startAuthServer();
  fan = await createAccount(t.server.app, { password: 'correct horse battery' });
}, 60_000);

afterAll(() => t?.close());

describe('LoginForm against the real server', { timeout: 30_000 }, () => {
  it('has labelled fields with the right autocomplete and no axe violations', async () => {
    const { container } = renderWith(t.site(), <LoginForm onForgotPassword={() => undefined} />);
    expect(screen.getByRole('form', { name: 'Log in' })).toBeInTheDocument();
    expect(screen.getByLabelText('E-mail')).toHaveAttribute('autocomplete', 'email');
    expect(screen.getByLabelText('Password')).toHaveAttribute('autocomplete', 'current-password');
    expect(screen.getByLabelText('Password')).toHaveAttribute('type', 'password');
    expect(await violationsIn(container)).toEqual([]);
  });

  it('logs in with the keyboard alone, calls onSuccess, and the server’s refresh cookie keeps the session', async () => {
    const fanstage = t.site();
    const onSuccess = vi.fn();
    renderWith(fanstage, <LoginForm onSuccess={onSuccess} />);
    const user = userEvent.setup();
    await user.type(screen.getByLabelText('E-mail'), fan.email);
    await user.type(screen.getByLabelText('Password'), 'correct horse battery{Enter}');
    expect(screen.getByRole('button', { name: 'Logging in…' })).toHaveAttribute('aria-disabled', 'true');
    await waitFor(() => expect(onSuccess).toHaveBeenCalledTimes(1));
    expect(fanstage.session.isLoggedIn.value).toBe(true);
    expect(fanstage.session.account.value).toMatchObject({ id: fan.id, email: fan.email });
    // The server set the refresh cookie: the same browser gets a new access token from it.
    const first = fanstage.session.accessToken.value;
    await expect(fanstage.session.refresh()).resolves.toBe(true);
    expect(fanstage.session.accessToken.value).not.toBe(first);
    expect(t.count('/papi/login/refresh', 'GET')).toBeGreaterThan(0);
  });

  it('shows the server’s -1 warning, linked to the form, and stays logged out', async () => {
    const fanstage = t.site();
    renderWith(fanstage, <LoginForm />);
    const user = userEvent.setup();
    await user.type(screen.getByLabelText('E-mail'), fan.email);
    await user.type(screen.getByLabelText('Password'), 'wrong password');
    await user.click(screen.getByRole('button', { name: 'Log in' }));
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('The e-mail or password is not correct.');
    expect(screen.getByRole('form', { name: 'Log in' })).toHaveAccessibleDescription('The e-mail or password is not correct.');
    expect(fanstage.session.isLoggedIn.value).toBe(false);
    expect(t.count('/papi/login', 'POST')).toBeGreaterThan(0);
  });

  it('says when to try again once the server holds the sign-in after repeated failures', async () => {
    const victim = await createAccount(t.server.app, { password: 'a password nobody guesses' });
    const fanstage = t.site();
    renderWith(fanstage, <LoginForm />);
    const user = userEvent.setup();
    await user.type(screen.getByLabelText('E-mail'), victim.email);
    await user.type(screen.getByLabelText('Password'), 'wrong password');
    // The server lets a few failures go as they are, then holds each next try a while longer.
    for (let attempt = 0; attempt < 8; attempt++) {
      await user.click(screen.getByRole('button', { name: 'Log in' }));
      await waitFor(() => expect(screen.getByRole('button', { name: 'Log in' })).not.toHaveAttribute('aria-disabled', 'true'));
      if (/Try again in/.test(screen.queryByRole('alert')?.textContent ?? '')) break;
    }
    expect(screen.getByRole('alert')).toHaveTextContent(/^Too many attempts\. Try again in \d+ (second|seconds|minute|minutes)\.$/);
    expect(fanstage.session.isLoggedIn.value).toBe(false);
  });

  it('explains empty and malformed fields without calling the server, and focuses the first', async () => {
    const before = t.sent.length;
    renderWith(t.site(), <LoginForm />);
    const user = userEvent.setup();
    await user.type(screen.getByLabelText('E-mail'), 'not-an-email');
    await user.click(screen.getByRole('button', { name: 'Log in' }));
    const email = screen.getByLabelText('E-mail');
    expect(email).toHaveAttribute('aria-invalid', 'true');
    expect(email).toHaveAccessibleDescription('Please enter an e-mail address like name@example.com.');
    expect(screen.getByLabelText('Password')).toHaveAccessibleDescription('Please fill this in.');
    await waitFor(() => expect(email).toHaveFocus());
    expect(t.sent.length).toBe(before);
  });

  it('shows and hides the password', async () => {
    renderWith(t.site(), <LoginForm />);
    const user = userEvent.setup();
    const toggle = screen.getByRole('button', { name: 'Show password' });
    await user.click(toggle);
    expect(screen.getByLabelText('Password')).toHaveAttribute('type', 'text');
    expect(screen.getByRole('button', { name: 'Hide password' })).toHaveAttribute('aria-pressed', 'true');
  });

  it('speaks Czech', () => {
    renderWith(t.site('cs'), <LoginForm />, 'cs');
    expect(screen.getByRole('form', { name: 'Přihlášení' })).toBeInTheDocument();
    expect(screen.getByLabelText('Heslo')).toBeInTheDocument();
  });
});
