import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { VerifyEmailNotice } from '../../lib/ui';
import { renderWith, siteFanstage, startAuthServer, violationsIn, type AuthTestServer } from './support/auth';

let t: AuthTestServer;

beforeAll(async () => {
  t = await startAuthServer();
  t.api.addPerson('fan@example.com', 'correct horse battery', { emailVerified: false });
  t.api.addPerson('verified@example.com', 'correct horse battery', { emailVerified: true });
});

afterAll(() => t.server.close());

describe('VerifyEmailNotice', () => {
  it('offers one resend of the link, then disables the button', async () => {
    const fanstage = siteFanstage(t.server.baseUrl);
    await fanstage.session.login('fan@example.com', 'correct horse battery');
    const { container } = renderWith(fanstage, <VerifyEmailNotice />);
    expect(screen.getByRole('heading', { name: 'Verify your e-mail' })).toBeInTheDocument();
    expect(screen.getByText(/We sent a link to fan@example\.com/)).toBeInTheDocument();
    expect(await violationsIn(container)).toEqual([]);

    const before = t.api.count('/api/users/resend-verification');
    await userEvent.setup().click(screen.getByRole('button', { name: 'Send the link again' }));
    expect(await screen.findByText(/Sent\. Please check your inbox/)).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Send the link again' })).toBeDisabled();
    expect(t.api.count('/api/users/resend-verification')).toBe(before + 1);
    const call = t.server.requests.filter((r) => r.url === '/api/users/resend-verification').at(-1);
    expect(call?.headers.authorization).toMatch(/^Bearer /);
  });

  it('shows nothing once the e-mail is verified', async () => {
    const fanstage = siteFanstage(t.server.baseUrl);
    await fanstage.session.login('verified@example.com', 'correct horse battery');
    renderWith(fanstage, <VerifyEmailNotice />);
    expect(screen.queryByRole('heading')).toBeNull();
  });
});
