import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { ForgotPasswordForm } from '../../lib/ui';
import { renderWith, siteFanstage, startAuthServer, violationsIn, type AuthTestServer } from './support/auth';

let t: AuthTestServer;

beforeAll(async () => {
  t = await startAuthServer();
});

afterAll(() => t.server.close());

describe('ForgotPasswordForm', () => {
  it('says "check your inbox" for any address, without telling whether it has an account', async () => {
    const { container } = renderWith(siteFanstage(t.server.baseUrl), <ForgotPasswordForm />);
    expect(screen.getByLabelText('E-mail')).toHaveAttribute('autocomplete', 'email');
    expect(await violationsIn(container)).toEqual([]);
    const user = userEvent.setup();
    await user.type(screen.getByLabelText('E-mail'), 'nobody@example.com{Enter}');
    expect(await screen.findByText(/Check your inbox\. If nobody@example\.com belongs to an account/)).toBeInTheDocument();
    const call = t.server.requests.filter((r) => r.url === '/papi/login/reset').at(-1);
    expect(JSON.parse(call?.body ?? '{}')).toEqual({ email: 'nobody@example.com' });
  });

  it('asks for a valid address before sending', async () => {
    const before = t.api.count('/papi/login/reset');
    renderWith(siteFanstage(t.server.baseUrl), <ForgotPasswordForm />);
    await userEvent.setup().type(screen.getByLabelText('E-mail'), 'nobody{Enter}');
    expect(screen.getByLabelText('E-mail')).toHaveAccessibleDescription('Please enter an e-mail address like name@example.com.');
    expect(t.api.count('/papi/login/reset')).toBe(before);
  });
});
