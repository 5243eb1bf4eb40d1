import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { partnerApi, type Fanstage } from '../../lib/sdk';
import { AdminPartnerQueue } from '../../lib/ui';
import { partnerDecisions } from '../../server/src/db/schema';
import { eq } from '../support/db';
import type { TestServer } from '../support/server';
import { renderWith, violationsIn } from './support/auth';
import { loggedInOn, startRealServer } from './support/realServer';
import { applyAndCheck } from './partnerSupport';

let server: TestServer;
const opened: Fanstage[] = [];

beforeAll(async () => {
  server = await startRealServer();
}, 60_000);

afterEach(() => {
  for (const fanstage of opened.splice(0)) fanstage.session.dispose();
});

afterAll(async () => {
  await server?.close();
});

async function person(options: { level?: number; username?: string } = {}) {
  const who = await loggedInOn(server, options);
  opened.push(who.fanstage);
  return who;
}

function applicationOf(username: string): HTMLElement {
  return screen.getByRole('article', { name: new RegExp(`@${username}`) });
}

describe('AdminPartnerQueue against the real server', { timeout: 60_000 }, () => {
  it('shows each waiting application with its documents, approves one and declines another only with a reason', async () => {
    const verified = await person({ username: `verified${Date.now() % 100000}` });
    const toReview = await person({ username: `review${Date.now() % 100000}` });
    await applyAndCheck(verified.fanstage, '100000001');
    await applyAndCheck(toReview.fanstage, '300000003');
    const admin = await person({ level: 500 });

    const { container } = renderWith(admin.fanstage, <AdminPartnerQueue />);
    await screen.findByRole('article', { name: new RegExp(`@${verified.account.username}`) });
    const first = applicationOf(verified.account.username);
    const second = applicationOf(toReview.account.username);
    expect(within(first).getByText('Identity verified')).toBeInTheDocument();
    expect(within(second).getByText('Documents to review')).toBeInTheDocument();
    expect(within(first).getByText('CZ6508000000192000145399')).toBeInTheDocument();
    // The documents, each named, behind their signed links.
    const documents = within(first).getByRole('list', { name: /^Documents of / });
    const pictures = within(documents).getAllByRole('img');
    expect(pictures.map((img) => img.getAttribute('alt'))).toEqual([expect.stringMatching(/^Front of the ID of /), expect.stringMatching(/^Back of the ID of /), expect.stringMatching(/^Selfie of /)]);
    const link = new URL(pictures[0]!.getAttribute('src')!, server.baseUrl);
    expect(link.pathname).toMatch(/^\/papi\/partner\/documents\/\d+$/);
    const picture = await fetch(link, { headers: { authorization: `Bearer ${admin.account.accessToken}` } });
    expect(picture.headers.get('content-type')).toBe('image/webp');
    expect(await violationsIn(container)).toEqual([]);

    // A decline needs a reason: without one nothing is sent.
    await userEvent.click(within(second).getByRole('button', { name: 'Decline' }));
    const reason = within(second).getByRole('textbox', { name: 'Reason for declining' });
    expect(reason).toHaveAccessibleDescription('Say why the application is declined.');
    expect(reason).toHaveFocus();
    expect((await partnerApi(toReview.fanstage.client).status()).approvedState).toBe(107);
    await userEvent.type(reason, 'The selfie does not show the face');
    await userEvent.click(within(second).getByRole('button', { name: 'Decline' }));
    expect(await screen.findByText(/The application of .* is declined\./)).toBeInTheDocument();
    await waitFor(() => expect(screen.queryByRole('article', { name: new RegExp(`@${toReview.account.username}`) })).toBeNull());
    expect(await partnerApi(toReview.fanstage.client).status()).toMatchObject({ approvedState: 101, declineReason: 'The selfie does not show the face' });

    await userEvent.click(within(applicationOf(verified.account.username)).getByRole('button', { name: 'Approve' }));
    expect(await screen.findByText(/ is now a partner\./)).toBeInTheDocument();
    expect(await partnerApi(verified.fanstage.client).status()).toMatchObject({ approvedState: 120, isSeller: true });
    const decisions = await server.app.fanstage.db.select().from(partnerDecisions).where(eq(partnerDecisions.userId, verified.account.id));
    expect(decisions).toMatchObject([{ action: 'approve', adminId: admin.account.id, fromState: 110, toState: 120 }]);

    // Everyone who applied: the decided ones with their decisions, and no buttons.
    await userEvent.selectOptions(screen.getByRole('combobox', { name: 'Show' }), 'all');
    const approved = await screen.findByRole('article', { name: new RegExp(`@${verified.account.username}`) });
    expect(within(approved).getByText('Partner')).toBeInTheDocument();
    expect(within(within(approved).getByRole('list', { name: 'Earlier decisions' })).getByText(new RegExp(`Approved · ${admin.account.username}`))).toBeInTheDocument();
    expect(within(approved).queryByRole('button', { name: 'Approve' })).toBeNull();
  });

  it('revokes an approved partner’s badge only with a reason, and gives it back', async () => {
    const partner = await person({ username: `badged${Date.now() % 100000}` });
    await applyAndCheck(partner.fanstage, '100000001');
    const admin = await person({ level: 500 });
    await server.app.inject({ method: 'POST', url: `/api/admin/partners/${partner.account.id}/approve`, headers: { authorization: `Bearer ${admin.account.accessToken}` }, payload: {} });
    await partnerApi(partner.fanstage.client).confirmBadge(true);

    const { container } = renderWith(admin.fanstage, <AdminPartnerQueue />);
    await userEvent.selectOptions(screen.getByRole('combobox', { name: 'Show' }), 'all');
    const article = await screen.findByRole('article', { name: new RegExp(`@${partner.account.username}`) });
    expect(within(article).getByText('shown')).toBeInTheDocument();
    expect(await violationsIn(container)).toEqual([]);

    // Without a reason nothing is sent.
    await userEvent.click(within(article).getByRole('button', { name: 'Revoke the badge' }));
    const reason = within(article).getByRole('textbox', { name: 'Reason for revoking the badge' });
    expect(reason).toHaveAccessibleDescription('Say why the badge is revoked.');
    expect(reason).toHaveFocus();
    expect((await partnerApi(partner.fanstage.client).status()).hasBadge).toBe(true);

    await userEvent.type(reason, 'Used to pass as another creator');
    await userEvent.click(within(article).getByRole('button', { name: 'Revoke the badge' }));
    expect(await screen.findByText(/The badge of .* is revoked\./)).toBeInTheDocument();
    const revoked = screen.getByRole('article', { name: new RegExp(`@${partner.account.username}`) });
    expect(within(revoked).getByText('revoked')).toBeInTheDocument();
    expect(within(within(revoked).getByRole('list', { name: 'Earlier decisions' })).getByText(new RegExp(`Badge revoked · ${admin.account.username} · .* — Used to pass as another creator`))).toBeInTheDocument();
    expect(await partnerApi(partner.fanstage.client).status()).toMatchObject({ hasBadge: false, badgeVerifiedState: 0 });

    await userEvent.click(within(revoked).getByRole('button', { name: 'Give the badge back' }));
    expect(await screen.findByText(/ has the badge back\./)).toBeInTheDocument();
    expect(within(screen.getByRole('article', { name: new RegExp(`@${partner.account.username}`) })).getByText('hidden by the partner')).toBeInTheDocument();
    expect(await partnerApi(partner.fanstage.client).status()).toMatchObject({ hasBadge: false, badgeVerifiedState: 3 });
  });

  it('shows a non-administrator nothing of the queue, and speaks Czech', async () => {
    const applicant = await person();
    await applyAndCheck(applicant.fanstage, '100000001');
    const fan = await person();
    renderWith(fan.fanstage, <AdminPartnerQueue />, 'cs');
    expect(await screen.findByText('Nepodařilo se získat informace ze serveru.', { exact: false })).toBeInTheDocument();
    expect(screen.queryByRole('article')).toBeNull();
    expect(screen.getByRole('heading', { name: 'Partnerské žádosti' })).toBeInTheDocument();
  });
});
