import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { ResetPasswordForm } from '../../lib/ui';
import { renderWith, siteFanstage, startAuthServer, violationsIn, type AuthTestServer } from './support/auth';

let t: AuthTestServer;

beforeAll(async () => {
  t = await startAuthServer();
});

afterAll(() => t.server.close());

describe('ResetPasswordForm', () => {
  it('sets the new password with the mailed hash', async () => {
    const { container } = renderWith(siteFanstage(t.server.baseUrl), <ResetPasswordForm hash="a-valid-reset-hash-0123456789" />);
    const password = screen.getByLabelText('New password');
    expect(password).toHaveAttribute('autocomplete', 'new-password');
    expect(await violationsIn(container)).toEqual([]);
    await userEvent.setup().type(password, 'a brand new passphrase{Enter}');
    expect(await screen.findByText('Your new password is saved. You can log in with it now.')).toBeInTheDocument();
    const call = t.server.requests.filter((r) => r.url === '/papi/login/reset').at(-1);
    expect(JSON.parse(call?.body ?? '{}')).toEqual({ hash: 'a-valid-reset-hash-0123456789', password: 'a brand new passphrase' });
  });

  it('shows the server’s refusal of a bad link', async () => {
    renderWith(siteFanstage(t.server.baseUrl), <ResetPasswordForm hash="an-old-reset-hash-0123456789" />);
    await userEvent.setup().type(screen.getByLabelText('New password'), 'a brand new passphrase{Enter}');
    expect(await screen.findByRole('alert')).toHaveTextContent('This link has expired or has already been used.');
  });
});
