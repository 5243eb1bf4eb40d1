import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { WebSocket as NodeWebSocket } from 'ws';
import { createFanstage, fanPriceCents, formatPrice, type Fanstage, type WebSocketConstructor } from '../../lib/sdk';
import { MassMessages } from '../../lib/ui';
import { chatMassMessages, users } from '../../server/src/db/schema';
import type { TestServer } from '../support/server';
import { createAccount, type AccountOptions, type TestAccount } from '../support/accounts';
import { eq } from '../support/db';
import { fundWallet } from '../support/money';
import { chatPicture } from '../server/support-chat';
import { renderWith, violationsIn } from './support/auth';
import { startRealServer } from './support/realServer';

let server: TestServer;
let salt: number;
const opened: Fanstage[] = [];

beforeAll(async () => {
  server = await startRealServer();
  salt = server.app.fanstage.config.priceSalt;
}, 60_000);

afterEach(() => {
  for (const fanstage of opened.splice(0)) {
    fanstage.socket.disconnect();
    fanstage.session.dispose();
  }
});

afterAll(async () => {
  await Promise.race([server?.close(), new Promise((resolve) => setTimeout(resolve, 15_000))]);
}, 30_000);

/** A signed-in person whose socket is Node's `ws`, as the chat tests use. */
async function person(options: AccountOptions = {}): Promise<{ account: TestAccount; fanstage: Fanstage }> {
  const account = await createAccount(server.app, options);
  const fanstage = createFanstage({ baseUrl: server.baseUrl, socket: { WebSocketImpl: NodeWebSocket as unknown as WebSocketConstructor, reconnectMs: 100 } });
  opened.push(fanstage);
  fanstage.session.adopt({ accessToken: account.accessToken });
  await fanstage.session.loadAccount();
  return { account, fanstage };
}

async function follows(fan: TestAccount, creator: TestAccount): Promise<void> {
  const answer = await server.app.inject({ method: 'POST', url: '/api/users/follow', headers: { authorization: `Bearer ${fan.accessToken}` }, payload: { id: creator.id } });
  expect(answer.json().statusCode).toBe(1);
}

describe('MassMessages against the real server', { timeout: 30_000 }, () => {
  it('sends a message to the followers and lists it with how many got it', async () => {
    const creator = await person({ seller: true });
    for (let i = 0; i < 2; i++) await follows((await createAccount(server.app)), creator.account);
    const { container } = renderWith(creator.fanstage, <MassMessages />);

    const form = await screen.findByRole('form', { name: 'New mass message' });
    expect(await within(form).findByRole('radio', { name: 'Followers (2)' })).toBeChecked();
    expect(within(form).getByRole('radio', { name: 'Subscribers (0)' })).toBeInTheDocument();
    expect(within(form).getByRole('radio', { name: 'Expired subscribers (0)' })).toBeInTheDocument();
    expect(await screen.findByText('You have not sent any mass message yet.')).toBeInTheDocument();
    expect(await violationsIn(container)).toEqual([]);

    await userEvent.click(within(form).getByRole('button', { name: 'Send to all' }));
    expect(await within(form).findByRole('alert')).toHaveTextContent('Write a message or attach a photo or video first.');

    await waitFor(() => expect(creator.fanstage.socket.connectedState.value).toBe('open'));
    await userEvent.type(within(form).getByRole('textbox', { name: 'Message' }), 'New set tonight');
    await userEvent.click(within(form).getByRole('button', { name: 'Send to all' }));
    expect(await within(form).findByRole('status')).toHaveTextContent('Sent to 2 people.');
    expect(within(form).getByRole('textbox', { name: 'Message' })).toHaveValue('');
    const sent = await screen.findByRole('region', { name: 'Sent mass messages' });
    const item = await within(sent).findByTestId('mass-sent-item');
    expect(item).toHaveTextContent('New set tonight');
    expect(item).toHaveTextContent('Got it: 2 people');
    const rows = await server.app.fanstage.db.select().from(chatMassMessages).where(eq(chatMassMessages.senderId, creator.account.id));
    expect(rows).toMatchObject([{ recGroup: 'followers', text: 'New set tonight', recipientsCount: 2 }]);
  });

  it('lists a message with a priced photo with how many unlocked it', async () => {
    const creator = await person({ seller: true });
    const fans = [await createAccount(server.app), await createAccount(server.app)];
    for (const fan of fans) await follows(fan, creator.account);
    const picture = await chatPicture(server.app, creator.account.id, 160);
    creator.fanstage.socket.connect();
    await waitFor(() => expect(creator.fanstage.socket.connectedState.value).toBe('open'));
    await creator.fanstage.chat.mass.send('followers', { text: 'For my fans', mediaId: picture });
    const fan = fans[0]!;
    await server.app.fanstage.db.update(users).set({ nsfwAgreement: 1 }).where(eq(users.id, fan.id));
    await fundWallet(server.app, fan.id, fanPriceCents(160, salt));
    const unlock = await server.app.inject({ method: 'POST', url: '/api/media/unlock', headers: { authorization: `Bearer ${fan.accessToken}` }, payload: { id: picture, price: 160 } });
    expect(unlock.json().statusCode).toBe(2);

    renderWith(creator.fanstage, <MassMessages />);
    const item = await screen.findByTestId('mass-sent-item');
    expect(item).toHaveTextContent('For my fans');
    expect(item).toHaveTextContent(`Photo · ${formatPrice(160, salt)}`);
    expect(item).toHaveTextContent('Got it: 2 people');
    expect(item).toHaveTextContent('Unlocked: 1');
  });

  it('is for sellers only, and speaks Czech', async () => {
    const fan = await person();
    const { unmount } = renderWith(fan.fanstage, <MassMessages />);
    expect(await screen.findByTestId('mass-not-seller')).toHaveTextContent('Mass messages are for verified creators.');
    expect(screen.queryByRole('form')).toBeNull();
    unmount();

    const creator = await person({ seller: true });
    renderWith(creator.fanstage, <MassMessages />, 'cs');
    const form = await screen.findByRole('form', { name: 'Nová hromadná zpráva' });
    expect(await within(form).findByRole('radio', { name: 'Sledující (0)' })).toBeChecked();
    expect(within(form).getByRole('button', { name: 'Poslat všem' })).toBeInTheDocument();
    expect(await screen.findByText('Zatím jste neposlali žádnou hromadnou zprávu.')).toBeInTheDocument();
  });
});
