import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { SignUpForm } from '../../lib/ui';
import { renderWith, siteFanstage, startAuthServer, violationsIn, type AuthTestServer } from './support/auth';

let t: AuthTestServer;

beforeAll(async () => {
  t = await startAuthServer();
  t.api.addPerson('taken@example.com', 'correct horse battery');
  // Same username part as the next sign-up below, under another domain.
  t.api.addPerson('lucy@elsewhere.example', 'correct horse battery');
});

afterAll(() => t.server.close());

async function fill(email: string, password: string, agree = true) {
  const user = userEvent.setup();
  await user.type(screen.getByLabelText('E-mail'), email);
  await user.type(screen.getByLabelText('Password'), password);
  if (agree) await user.click(screen.getByRole('checkbox'));
  await user.click(screen.getByRole('button', { name: 'Sign up' }));
}

describe('SignUpForm', () => {
  it('has labelled fields, new-password autocomplete, a hint and no axe violations', async () => {
    const { container } = renderWith(siteFanstage(t.server.baseUrl), <SignUpForm />);
    expect(screen.getByRole('form', { name: 'Create a free account' })).toBeInTheDocument();
    expect(screen.getByLabelText('E-mail')).toHaveAttribute('autocomplete', 'email');
    const password = screen.getByLabelText('Password');
    expect(password).toHaveAttribute('autocomplete', 'new-password');
    expect(password).toHaveAccessibleDescription('At least 8 characters. A long passphrase is best.');
    expect(screen.getByRole('checkbox', { name: /18 or older/ })).not.toBeChecked();
    expect(await violationsIn(container)).toEqual([]);
  });

  it('needs the age-and-terms agreement and a password of 8 characters', async () => {
    const before = t.api.count('/papi/signup');
    renderWith(siteFanstage(t.server.baseUrl), <SignUpForm />);
    await fill('new@example.com', 'short', false);
    expect(screen.getByRole('checkbox')).toHaveAccessibleDescription('Please confirm that you are 18 or older and agree to the terms.');
    expect(screen.getByLabelText('Password')).toHaveAccessibleDescription(/needs at least 8 characters/);
    expect(t.api.count('/papi/signup')).toBe(before);
  });

  it('creates the account and logs in with it', async () => {
    const fanstage = siteFanstage(t.server.baseUrl);
    const onSuccess = vi.fn();
    renderWith(fanstage, <SignUpForm onSuccess={onSuccess} />);
    await fill('brand.new@example.com', 'a long passphrase');
    await waitFor(() => expect(onSuccess).toHaveBeenCalled());
    expect(fanstage.session.account.value?.email).toBe('brand.new@example.com');
    const signup = t.server.requests.filter((r) => r.url === '/papi/signup').at(-1);
    expect(JSON.parse(signup?.body ?? '{}')).toMatchObject({ email: 'brand.new@example.com', language: 'en' });
  });

  it('puts a taken e-mail (-2) on the e-mail field', async () => {
    renderWith(siteFanstage(t.server.baseUrl), <SignUpForm />);
    await fill('taken@example.com', 'a long passphrase');
    const email = screen.getByLabelText('E-mail');
    await waitFor(() => expect(email).toHaveAccessibleDescription('An account with this e-mail already exists. Log in instead?'));
    expect(email).toHaveAttribute('aria-invalid', 'true');
    await waitFor(() => expect(email).toHaveFocus());
  });

  it('explains a taken username (-5)', async () => {
    renderWith(siteFanstage(t.server.baseUrl), <SignUpForm />);
    await fill('lucy@example.com', 'a long passphrase');
    expect(await screen.findByRole('alert')).toHaveTextContent('We could not create a username from this e-mail.');
  });

  it('shows and hides the password', async () => {
    renderWith(siteFanstage(t.server.baseUrl), <SignUpForm />);
    await userEvent.setup().click(screen.getByRole('button', { name: 'Show password' }));
    expect(screen.getByLabelText('Password')).toHaveAttribute('type', 'text');
  });
});
