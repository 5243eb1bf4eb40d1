import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { LoginForm } from '../../lib/ui';
import { renderWith, siteFanstage, startAuthServer, violationsIn, type AuthTestServer } from './support/auth';

let t: AuthTestServer;

beforeAll(async () => {
  t = await startAuthServer();
  t.api.addPerson('fan@example.com', 'correct horse battery');
});

afterAll(() => t.server.close());

describe('LoginForm', () => {
  it('has labelled fields with the right autocomplete and no axe violations', async () => {
    const { container } = renderWith(siteFanstage(t.server.baseUrl), <LoginForm onForgotPassword={() => undefined} />);
    expect(screen.getByRole('form', { name: 'Log in' })).toBeInTheDocument();
    expect(screen.getByLabelText('E-mail')).toHaveAttribute('autocomplete', 'email');
    expect(screen.getByLabelText('Password')).toHaveAttribute('autocomplete', 'current-password');
    expect(screen.getByLabelText('Password')).toHaveAttribute('type', 'password');
    expect(await violationsIn(container)).toEqual([]);
  });

  it('logs in with the keyboard alone and calls onSuccess', async () => {
    const fanstage = siteFanstage(t.server.baseUrl);
    const onSuccess = vi.fn();
    renderWith(fanstage, <LoginForm onSuccess={onSuccess} />);
    const user = userEvent.setup();
    await user.type(screen.getByLabelText('E-mail'), 'fan@example.com');
    await user.type(screen.getByLabelText('Password'), 'correct horse battery{Enter}');
    expect(screen.getByRole('button', { name: 'Logging in…' })).toHaveAttribute('aria-disabled', 'true');
    await waitFor(() => expect(onSuccess).toHaveBeenCalledTimes(1));
    expect(fanstage.session.isLoggedIn.value).toBe(true);
    expect(fanstage.session.account.value?.email).toBe('fan@example.com');
  });

  it('shows the server’s -1 warning, linked to the form, and stays logged out', async () => {
    const fanstage = siteFanstage(t.server.baseUrl);
    renderWith(fanstage, <LoginForm />);
    const user = userEvent.setup();
    await user.type(screen.getByLabelText('E-mail'), 'fan@example.com');
    await user.type(screen.getByLabelText('Password'), 'wrong password');
    await user.click(screen.getByRole('button', { name: 'Log in' }));
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('The e-mail or password is not correct.');
    expect(screen.getByRole('form', { name: 'Log in' })).toHaveAccessibleDescription('The e-mail or password is not correct.');
    expect(fanstage.session.isLoggedIn.value).toBe(false);
  });

  it('explains empty and malformed fields without calling the server, and focuses the first', async () => {
    const before = t.server.requests.length;
    renderWith(siteFanstage(t.server.baseUrl), <LoginForm />);
    const user = userEvent.setup();
    await user.type(screen.getByLabelText('E-mail'), 'not-an-email');
    await user.click(screen.getByRole('button', { name: 'Log in' }));
    const email = screen.getByLabelText('E-mail');
    expect(email).toHaveAttribute('aria-invalid', 'true');
    expect(email).toHaveAccessibleDescription('Please enter an e-mail address like name@example.com.');
    expect(screen.getByLabelText('Password')).toHaveAccessibleDescription('Please fill this in.');
    await waitFor(() => expect(email).toHaveFocus());
    expect(t.server.requests.length).toBe(before);
  });

  it('shows and hides the password', async () => {
    renderWith(siteFanstage(t.server.baseUrl), <LoginForm />);
    const user = userEvent.setup();
    const toggle = screen.getByRole('button', { name: 'Show password' });
    await user.click(toggle);
    expect(screen.getByLabelText('Password')).toHaveAttribute('type', 'text');
    expect(screen.getByRole('button', { name: 'Hide password' })).toHaveAttribute('aria-pressed', 'true');
  });

  it('speaks Czech', () => {
    renderWith(siteFanstage(t.server.baseUrl, 'cs'), <LoginForm />, 'cs');
    expect(screen.getByRole('form', { name: 'Přihlášení' })).toBeInTheDocument();
    expect(screen.getByLabelText('Heslo')).toBeInTheDocument();
  });
});
