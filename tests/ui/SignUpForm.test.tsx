import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { SignUpForm } from '../../lib/ui';
import { users } from '../../server/src/db/schema';
import { createAccount } from '../support/accounts';
import { eq } from '../support/db';
import { person } from '../server/support-feeds';
import { renderWith, startAuthServer, violationsIn, type AuthTestServer } from './support/auth';

let t: AuthTestServer;

beforeAll(async () => {
  t = await startAuthServer();
  await createAccount(t.server.app, { email: 'taken@example.com' });
}, 60_000);

afterAll(() => t?.close());

async function fill(email: string, password: string, agree = true) {
  const user = userEvent.setup();
  await user.type(screen.getByLabelText('E-mail'), email);
  await user.type(screen.getByLabelText('Password'), password);
  if (agree) await user.click(screen.getByRole('checkbox'));
  await user.click(screen.getByRole('button', { name: 'Sign up' }));
}

describe('SignUpForm against the real server', { timeout: 30_000 }, () => {
  it('has labelled fields, new-password autocomplete, a hint and no axe violations', async () => {
    const { container } = renderWith(t.site(), <SignUpForm />);
    expect(screen.getByRole('form', { name: 'Create a free account' })).toBeInTheDocument();
    expect(screen.getByLabelText('E-mail')).toHaveAttribute('autocomplete', 'email');
    const password = screen.getByLabelText('Password');
    expect(password).toHaveAttribute('autocomplete', 'new-password');
    expect(password).toHaveAccessibleDescription('At least 8 characters. A long passphrase is best.');
    expect(screen.getByRole('checkbox', { name: /18 or older/ })).not.toBeChecked();
    expect(await violationsIn(container)).toEqual([]);
  });

  it('needs the age-and-terms agreement and a password of 8 characters', async () => {
    const before = t.count('/papi/signup');
    renderWith(t.site(), <SignUpForm />);
    await fill('new@example.com', 'short', false);
    expect(screen.getByRole('checkbox')).toHaveAccessibleDescription('Please confirm that you are 18 or older and agree to the terms.');
    expect(screen.getByLabelText('Password')).toHaveAccessibleDescription(/needs at least 8 characters/);
    expect(t.count('/papi/signup')).toBe(before);
    const [stored] = await t.server.app.fanstage.db.select({ id: users.id }).from(users).where(eq(users.email, 'new@example.com'));
    expect(stored).toBeUndefined();
  });

  it('creates the account, logs in with it, and the server mails the verification link', async () => {
    const fanstage = t.site();
    const onSuccess = vi.fn();
    renderWith(fanstage, <SignUpForm onSuccess={onSuccess} />);
    await fill('brand.new@example.com', 'a long passphrase');
    await waitFor(() => expect(onSuccess).toHaveBeenCalled());
    expect(fanstage.session.account.value).toMatchObject({ email: 'brand.new@example.com', emailVerified: false });
    const [stored] = await t.server.app.fanstage.db
      .select({ id: users.id, username: users.username, appLanguage: users.appLanguage, emailVerified: users.emailVerified })
      .from(users)
      .where(eq(users.email, 'brand.new@example.com'));
    expect(stored).toEqual({ id: fanstage.session.userId.value, username: 'brand.new', appLanguage: 'en', emailVerified: false });
    const mail = await t.nextMail('brand.new@example.com', 'verify-email');
    expect(mail.language).toBe('en');
    expect(mail.links.some((link) => /\/action\/[\w-]{20,}$/.test(link))).toBe(true);
  });

  it('puts a taken e-mail (-2) on the e-mail field', async () => {
    renderWith(t.site(), <SignUpForm />);
    await fill('taken@example.com', 'a long passphrase');
    const email = screen.getByLabelText('E-mail');
    await waitFor(() => expect(email).toHaveAccessibleDescription('An account with this e-mail already exists. Log in instead?'));
    expect(email).toHaveAttribute('aria-invalid', 'true');
    await waitFor(() => expect(email).toHaveFocus());
  });

  it('explains a taken username (-5)', async () => {
    // The server tries the e-mail's local part, then it with 1–9, then ten random numbers from
    // 100 up. Every small one is taken here, and the draw is fixed at its lowest (100), also
    // taken: the one way to reach the real server's -5 on demand.
    for (const username of ['lucy', ...Array.from({ length: 9 }, (_, i) => `lucy${i + 1}`), 'lucy100']) {
      await person(t.server.app, { username, email: `${username}@elsewhere.example` });
    }
    const draw = vi.spyOn(Math, 'random').mockReturnValue(0);
    try {
      renderWith(t.site(), <SignUpForm />);
      await fill('lucy@example.com', 'a long passphrase');
      expect(await screen.findByRole('alert')).toHaveTextContent('We could not create a username from this e-mail.');
    } finally {
      draw.mockRestore();
    }
    const [stored] = await t.server.app.fanstage.db.select({ id: users.id }).from(users).where(eq(users.email, 'lucy@example.com'));
    expect(stored).toBeUndefined();
  });

  it('shows and hides the password', async () => {
    renderWith(t.site(), <SignUpForm />);
    await userEvent.setup().click(screen.getByRole('button', { name: 'Show password' }));
    expect(screen.getByLabelText('Password')).toHaveAttribute('type', 'text');
  });
});
