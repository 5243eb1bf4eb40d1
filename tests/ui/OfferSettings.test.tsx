import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { formatPrice, type Fanstage } from '../../lib/sdk';
import { OfferSettings } from '../../lib/ui';
import { subscriptionOffers, users } from '../../server/src/db/schema';
import { eq } from '../support/db';
import type { TestServer } from '../support/server';
import { renderWith, violationsIn } from './support/auth';
import { loggedInOn, startRealServer } from './support/realServer';

let server: TestServer;
let salt: number;
const opened: Fanstage[] = [];

beforeAll(async () => {
  server = await startRealServer();
  salt = server.app.fanstage.config.priceSalt;
}, 60_000);

afterEach(() => {
  for (const fanstage of opened.splice(0)) fanstage.session.dispose();
});

afterAll(async () => {
  await server?.close();
});

async function seller() {
  const who = await loggedInOn(server, { seller: true });
  opened.push(who.fanstage);
  return who;
}

async function storedOffers(userId: number) {
  return server.app.fanstage.db.select().from(subscriptionOffers).where(eq(subscriptionOffers.userId, userId));
}

describe('OfferSettings against the real server', { timeout: 30_000 }, () => {
  it('creates an offer at a post-media price step, changes its price, archives, offers it again and deletes it', async () => {
    const { account, fanstage } = await seller();
    const { container } = renderWith(fanstage, <OfferSettings />);
    const region = await screen.findByRole('region', { name: 'Subscription offers' });
    expect(await within(region).findByText('You have no offers yet.')).toBeInTheDocument();

    const form = within(region).getByRole('form', { name: 'New offer' });
    // Every price is a post-media step above 0, shown as the fan pays it and what the creator earns.
    const price = within(form).getByRole('combobox', { name: 'Price a month' });
    // The offers use the post-media steps, and say so: SPEC §9 has no steps of their own for them.
    expect(price).toHaveAccessibleDescription(/^The steps for a month of subscription \(the steps of a post's photo or video\), .+: each kind of sale has steps of its own\.$/);
    expect(within(price).getAllByRole('option').map((o) => (o as HTMLOptionElement).value)).toEqual(['32', '48', '64', '95', '128', '160', '192', '320', '640', '1280', '1600', '1920']);
    await userEvent.click(within(form).getByRole('button', { name: 'Create offer' }));
    expect(await within(region).findByText('Give the offer a name.')).toBeInTheDocument();
    await userEvent.type(within(form).getByRole('textbox', { name: 'Name' }), 'Gold');
    await userEvent.selectOptions(price, '640');
    await userEvent.click(within(form).getByRole('button', { name: 'Create offer' }));
    expect(await within(region).findByText('The offer was created.')).toBeInTheDocument();
    const item = await within(region).findByRole('listitem', { name: 'Gold' });
    expect(item).toHaveTextContent(`Fans pay ${formatPrice(640, salt)} a month`);
    expect(item).toHaveTextContent('You earn $6.40');
    expect(await storedOffers(account.id)).toMatchObject([{ name: 'Gold', priceCents: 640, archivedAt: null }]);
    expect(await violationsIn(container)).toEqual([]);

    await userEvent.selectOptions(within(item).getByRole('combobox', { name: 'New price of Gold' }), '1280');
    await userEvent.click(within(item).getByRole('button', { name: 'Change price of Gold' }));
    expect(await within(region).findByText(`Gold now costs ${formatPrice(1280, salt)} a month.`)).toBeInTheDocument();
    expect((await storedOffers(account.id))[0]?.priceCents).toBe(1280);

    await userEvent.click(within(item).getByRole('button', { name: 'Archive Gold' }));
    expect(await within(region).findByText('Gold is archived.')).toBeInTheDocument();
    expect(within(item).getByText('Archived')).toBeInTheDocument();
    expect((await storedOffers(account.id))[0]?.archivedAt).not.toBeNull();
    // Fans no longer see it.
    const shown = await server.app.inject({ method: 'GET', url: `/papi/subscription/offer?userId=${account.id}` });
    expect(shown.json().body).toEqual([]);

    await userEvent.click(within(item).getByRole('button', { name: 'Offer again: Gold' }));
    expect(await within(region).findByText('Gold is offered again.')).toBeInTheDocument();
    expect((await storedOffers(account.id))[0]?.archivedAt).toBeNull();

    await userEvent.click(within(item).getByRole('button', { name: 'Delete Gold' }));
    const confirm = within(region).getByRole('group', { name: /^Delete Gold\?/ });
    await userEvent.click(within(confirm).getByRole('button', { name: 'Yes, delete' }));
    expect(await within(region).findByText('The offer was deleted.')).toBeInTheDocument();
    await waitFor(() => expect(within(region).queryByRole('listitem', { name: 'Gold' })).toBeNull());
    expect((await storedOffers(account.id))[0]?.deletedAt).not.toBeNull();
  });

  it('says FAILED with the reason when the server refuses, and changes nothing', async () => {
    const { account, fanstage } = await seller();
    renderWith(fanstage, <OfferSettings />);
    const region = await screen.findByRole('region', { name: 'Subscription offers' });
    await within(region).findByText('You have no offers yet.');
    // The creator loses the seller's right meanwhile (SPEC §6): the server refuses.
    await fanstage.subscriptions.createOffer({ name: 'First', priceCents: 320 });
    await server.app.fanstage.db.update(users).set({ isSeller: false }).where(eq(users.id, account.id));
    const form = within(region).getByRole('form', { name: 'New offer' });
    await userEvent.type(within(form).getByRole('textbox', { name: 'Name' }), 'Second');
    await userEvent.click(within(form).getByRole('button', { name: 'Create offer' }));
    // The alert region waits on the screen, empty, until there is something to say.
    await waitFor(() => expect(within(region).getByRole('alert')).toHaveTextContent(/^FAILED: \S/));
    expect((await storedOffers(account.id)).map((o) => o.name)).toEqual(['First']);
  });

  it('tells someone who is no seller to verify, in Czech too', async () => {
    const fan = await loggedInOn(server);
    opened.push(fan.fanstage);
    const { unmount } = renderWith(fan.fanstage, <OfferSettings />);
    expect(await screen.findByTestId('offers-not-seller')).toHaveTextContent('Subscription offers are for verified creators.');
    expect(screen.queryByRole('form')).toBeNull();
    unmount();
    renderWith(fan.fanstage, <OfferSettings />, 'cs');
    expect(await screen.findByRole('region', { name: 'Nabídky předplatného' })).toBeInTheDocument();
    expect(screen.getByTestId('offers-not-seller')).toHaveTextContent('Nabídky předplatného jsou pro ověřené tvůrce.');
  });
});
