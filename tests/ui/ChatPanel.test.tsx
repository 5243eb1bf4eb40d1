import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { WebSocket as NodeWebSocket } from 'ws';
import { createFanstage, fanPriceCents, formatPrice, type ChatThread, type Fanstage, type WebSocketConstructor } from '../../lib/sdk';
import { ChatConversation, ChatComposer, ChatPanel, ChatPriceBadge, ConversationList } from '../../lib/ui';
import type { TestServer } from '../support/server';
import { createAccount, type AccountOptions, type TestAccount } from '../support/accounts';
import { fundWallet, walletOf } from '../support/money';
import { chatPicture } from '../server/support-chat';
import { renderWith, violationsIn } from './support/auth';
import { startRealServer } from './support/realServer';
import { chatMessages } from '../../server/src/db/schema';

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

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

interface Person {
  account: TestAccount;
  fanstage: Fanstage;
}

/**
 * A signed-in person with the socket a page would use. Node's `ws` stands in for the browser's
 * WebSocket: jsdom's would send the test page's origin, which the platform does not know.
 */
async function person(options: AccountOptions = {}, credits = 0): Promise<Person> {
  const account = await createAccount(server.app, options);
  if (credits > 0) await fundWallet(server.app, account.id, credits);
  const fanstage = createFanstage({ baseUrl: server.baseUrl, socket: { WebSocketImpl: NodeWebSocket as unknown as WebSocketConstructor, reconnectMs: 100 } });
  opened.push(fanstage);
  fanstage.session.adopt({ accessToken: account.accessToken });
  await fanstage.session.loadAccount();
  return { account, fanstage };
}

async function online(who: Person): Promise<void> {
  who.fanstage.socket.connect();
  await waitFor(() => expect(who.fanstage.socket.connectedState.value).toBe('open'));
}

async function creator(cents: number, options: AccountOptions = {}): Promise<Person> {
  const seller = await person({ seller: true, ...options });
  await seller.fanstage.chat.setMessagePrice(cents);
  await online(seller);
  return seller;
}

/** Sends from `who` to `to` through the store and waits for the echo. */
async function say(who: Person, to: number, text: string): Promise<ChatThread> {
  const thread = who.fanstage.chat.thread(to);
  await thread.load();
  const result = thread.send({ text });
  if (!result.ok) throw new Error(result.problem);
  await waitFor(() => expect(thread.items.value.find((i) => i.msgId === result.msgId)?.state).toMatch(/sent|read/));
  return thread;
}

const nameOf = (who: Person) => who.fanstage.session.account.value?.displayName || who.account.username;

describe('ChatPanel against the real server', { timeout: 30_000 }, () => {
  it('lists the conversations and shows the open one; Enter sends, Shift+Enter starts a new line, the message gets its checks', async () => {
    const lucy = await creator(16);
    const fan = await person({}, 1000);
    const lucyThread = await say(lucy, fan.account.id, 'Welcome to my chat');
    const user = userEvent.setup();
    // jsdom applies no media queries: the panel shows the phone layout, one pane at a time.
    const { container, unmount } = renderWith(fan.fanstage, <ChatPanel />);
    const list = await screen.findByRole('list', { name: 'Conversations' });
    expect(await within(list).findByRole('link', { name: new RegExp(`^Chat with ${escapeRegExp(nameOf(lucy))} `) })).toHaveAttribute('href', `/chat/${lucy.account.username}`);
    expect(await violationsIn(container)).toEqual([]);
    unmount();

    renderWith(fan.fanstage, <ChatPanel user={lucy.account.username} listHref="/chat-list" />);
    expect(screen.getByRole('link', { name: 'All conversations' })).toHaveAttribute('href', '/chat-list');
    const conversation = await screen.findByRole('region', { name: `Messages with ${nameOf(lucy)}` });
    expect(await within(conversation).findByText('Welcome to my chat')).toBeInTheDocument();
    expect(screen.getByRole('heading', { name: nameOf(lucy) })).toBeInTheDocument();
    // SPEC §6: a fan writing to a seller sees what a message costs.
    expect(screen.getByTestId('chat-price-badge')).toHaveTextContent(`${formatPrice(16, salt)} / message`);

    const box = screen.getByRole('textbox', { name: 'Message' });
    await waitFor(() => expect(fan.fanstage.socket.connectedState.value).toBe('open'));
    await user.type(box, 'Hello{Shift>}{Enter}{/Shift}Lucy');
    expect(box).toHaveValue('Hello\nLucy');
    await user.keyboard('{Enter}');
    expect(box).toHaveValue('');
    const mine = await within(conversation).findByText('Hello Lucy', { normalizer: (text) => text.replace(/\s+/g, ' ') });
    const row = mine.closest('li') as HTMLElement;
    await waitFor(() => expect(within(row).getByRole('img', { name: 'Sent' })).toBeInTheDocument());
    expect(await walletOf(server.app, fan.account.id)).toBe(1000 - fanPriceCents(16, salt));

    // The fan's panel is on screen, so the creator's message was read: two checks on her side.
    await waitFor(() => expect(lucyThread.items.value[0]?.state).toBe('read'));
    // And hers come in live, read out by the live region.
    await lucy.fanstage.chat.thread(fan.account.id).load();
    lucy.fanstage.chat.thread(fan.account.id).send({ text: 'Nice to see you' });
    expect(await within(conversation).findByText('Nice to see you')).toBeInTheDocument();
    await waitFor(() => expect(document.querySelector('[aria-live="polite"][aria-atomic="true"]')).toHaveTextContent(`New message from ${nameOf(lucy)}: Nice to see you`));
    expect(await violationsIn(document.body)).toEqual([]);
  });

  it('shows a failed message with what can be done: buy credits, send again, delete', async () => {
    const lucy = await creator(24);
    const fan = await person();
    const user = userEvent.setup();
    const { container } = renderWith(
      fan.fanstage,
      <ChatConversation userId={lucy.account.id}>
        <ChatComposer userId={lucy.account.id} />
      </ChatConversation>,
    );
    await screen.findByText(`No messages yet. Say hello to ${nameOf(lucy)}!`);
    await waitFor(() => expect(fan.fanstage.socket.connectedState.value).toBe('open'));
    await user.type(screen.getByRole('textbox', { name: 'Message' }), 'No credits here{Enter}');

    // SPEC §8 noCredit: the message is marked failed and the top-up opens.
    const dialog = await screen.findByRole('dialog', { name: 'Buy credits' });
    expect(await violationsIn(container)).toEqual([]);
    await user.click(within(dialog).getByRole('button', { name: 'Back' }));
    const alert = await screen.findByText('Not delivered: you do not have enough credits.');
    const failure = alert.closest('[role="alert"]') as HTMLElement;
    expect(within(failure).getByRole('button', { name: 'Buy credits' })).toBeInTheDocument();

    await fundWallet(server.app, fan.account.id, 500);
    await user.click(within(failure).getByRole('button', { name: 'Send again' }));
    const row = (await screen.findByText('No credits here')).closest('li') as HTMLElement;
    await waitFor(() => expect(within(row).getByRole('img', { name: 'Sent' })).toBeInTheDocument());

    // Offline, a message fails at once; deleting the draft removes it.
    fan.fanstage.socket.disconnect();
    await user.type(screen.getByRole('textbox', { name: 'Message' }), 'Offline draft{Enter}');
    expect(await screen.findByText('You are offline: the message was not sent.')).toBeInTheDocument();
    const draft = (await screen.findByText('Offline draft')).closest('li') as HTMLElement;
    expect(within(draft).getByRole('img', { name: 'Not delivered' })).toBeInTheDocument();
    await user.click(within(draft).getByRole('button', { name: 'Delete' }));
    expect(screen.queryByText('Offline draft')).toBeNull();
    expect(await violationsIn(container)).toEqual([]);
  });

  it('keeps Send disabled while the conversation and its price are still on the way, then sends the first click', async () => {
    const lucy = await creator(16);
    const account = await createAccount(server.app);
    await fundWallet(server.app, account.id, 500);
    // The history (which carries the conversation's price) is held until the test lets it go.
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    const fanstage = createFanstage({
      baseUrl: server.baseUrl,
      socket: { WebSocketImpl: NodeWebSocket as unknown as WebSocketConstructor, reconnectMs: 100 },
      fetch: async (input, init) => {
        const url = new URL(input instanceof Request ? input.url : String(input));
        if (url.pathname === `/api/chat/conversations/${lucy.account.id}`) await held;
        return fetch(input, init);
      },
    });
    opened.push(fanstage);
    fanstage.session.adopt({ accessToken: account.accessToken });
    await fanstage.session.loadAccount();
    await online({ account, fanstage });
    const user = userEvent.setup();
    renderWith(
      fanstage,
      <ChatConversation userId={lucy.account.id}>
        <ChatComposer userId={lucy.account.id} />
      </ChatConversation>,
    );
    await user.type(screen.getByRole('textbox', { name: 'Message' }), 'First words');
    const send = screen.getByRole('button', { name: 'Send' });
    expect(send).toBeDisabled();
    await user.keyboard('{Enter}');
    expect(fanstage.chat.thread(lucy.account.id).items.value).toEqual([]);

    release();
    await waitFor(() => expect(send).toBeEnabled());
    await user.click(send);
    const row = (await screen.findByText('First words')).closest('li') as HTMLElement;
    await waitFor(() => expect(within(row).getByRole('img', { name: 'Sent' })).toBeInTheDocument());
    await waitFor(async () => expect(await walletOf(server.app, account.id)).toBe(500 - fanPriceCents(16, salt)));
  });

  it('offers the new price of a raised chat price and sends at it', async () => {
    const lucy = await creator(16);
    const fan = await person({}, 1000);
    const user = userEvent.setup();
    renderWith(
      fan.fanstage,
      <ChatConversation userId={lucy.account.id}>
        <ChatComposer userId={lucy.account.id} />
      </ChatConversation>,
    );
    await screen.findByText(`No messages yet. Say hello to ${nameOf(lucy)}!`);
    await lucy.fanstage.chat.setCustomPrice(fan.account.id, 48);
    await waitFor(() => expect(fan.fanstage.socket.connectedState.value).toBe('open'));
    await user.type(screen.getByRole('textbox', { name: 'Message' }), 'At the old price{Enter}');
    const newPrice = formatPrice(48, salt);
    expect(await screen.findByText(`Not delivered: a message now costs ${newPrice}.`)).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: `Pay ${newPrice} and send` }));
    const row = (await screen.findByText('At the old price')).closest('li') as HTMLElement;
    await waitFor(() => expect(within(row).getByRole('img', { name: 'Sent' })).toBeInTheDocument());
    expect(await walletOf(server.app, fan.account.id)).toBe(1000 - fanPriceCents(48, salt));
  });

  it('shows a locked chat media and unlocks it through the unlock popup; reactions and gifts travel too', async () => {
    const lucy = await creator(0);
    const fan = await person({}, 5000);
    fan.fanstage.session.setAccount(await fan.fanstage.account.updateMe({ nsfwAgreement: 1 }));
    const mediaId = await chatPicture(server.app, lucy.account.id, 320);
    const hers = lucy.fanstage.chat.thread(fan.account.id);
    await hers.load();
    hers.send({ mediaId });
    const user = userEvent.setup();
    const { container } = renderWith(
      fan.fanstage,
      <ChatConversation userId={lucy.account.id}>
        <ChatComposer userId={lucy.account.id} />
      </ChatConversation>,
    );
    const price = formatPrice(320, salt);
    await user.click(await screen.findByRole('button', { name: `Unlock for ${price}` }));
    const dialog = await screen.findByRole('dialog', { name: 'Unlock media' });
    expect(within(dialog).getByText(`From ${nameOf(lucy)}`)).toBeInTheDocument();
    await user.click(within(dialog).getByRole('button', { name: `Unlock for ${price}` }));
    expect(await within(dialog).findByText('Unlocked. Enjoy!')).toBeInTheDocument();
    await user.click(within(dialog).getByRole('button', { name: 'Show media' }));
    const picture = await screen.findByRole('img', { name: `Photo from ${nameOf(lucy)}` });
    expect(picture.getAttribute('src')).toContain('k=');
    expect(screen.queryByRole('button', { name: `Unlock for ${price}` })).toBeNull();
    expect(await walletOf(server.app, fan.account.id)).toBe(5000 - fanPriceCents(320, salt));

    // A reaction from the picker reaches her.
    const row = picture.closest('li') as HTMLElement;
    await user.click(within(row).getByRole('button', { name: 'React to this message' }));
    await user.click(within(within(row).getByRole('group', { name: 'Reactions' })).getByRole('button', { name: 'Love' }));
    expect(within(row).getByRole('img', { name: 'You reacted: Love' })).toBeInTheDocument();
    await waitFor(() => expect(hers.items.value[0]?.receiverReactionId).toBe(1));

    // A gift to a creator, from the composer's picker.
    await user.click(screen.getByRole('button', { name: 'Send a gift' }));
    const gifts = await screen.findByRole('dialog', { name: 'Send a gift' });
    const first = (await within(gifts).findAllByRole('radio'))[0]!;
    await user.click(first);
    await user.click(within(gifts).getByRole('button', { name: 'Send the gift' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(await screen.findByText(/^You sent /)).toBeInTheDocument();
    expect(await violationsIn(container)).toEqual([]);
  });
});

describe('ConversationList and ChatPriceBadge against the real server', { timeout: 30_000 }, () => {
  it('searches, shows unread counts, and archives a conversation', async () => {
    const lucy = await creator(0);
    const anna = await person({ username: `anna_${Date.now().toString(36)}` });
    const bob = await person({ username: `bob_${Date.now().toString(36)}` });
    await online(anna);
    await online(bob);
    await say(anna, lucy.account.id, 'hi from anna');
    await say(anna, lucy.account.id, 'are you there?');
    await say(bob, lucy.account.id, 'hi from bob');
    const user = userEvent.setup();
    const { container } = renderWith(lucy.fanstage, <ConversationList />);
    // Each row is named by what it shows, the name first, after a hidden "Chat with".
    const annaLink = await screen.findByRole('link', { name: new RegExp(`^Chat with ${escapeRegExp(nameOf(anna))} .*2 unread messages$`) });
    expect(annaLink).toHaveAttribute('href', `/chat/${anna.account.username}`);
    expect(within(annaLink).getByText('2 unread messages')).toBeInTheDocument();
    await waitFor(() => expect(screen.getAllByRole('link').map((a) => a.getAttribute('href'))).toEqual([`/chat/${bob.account.username}`, `/chat/${anna.account.username}`]));
    expect(await violationsIn(container)).toEqual([]);

    await user.type(screen.getByRole('searchbox', { name: 'Search conversations' }), 'anna_');
    await waitFor(() => expect(screen.getAllByRole('link')).toHaveLength(1));
    await user.clear(screen.getByRole('searchbox', { name: 'Search conversations' }));
    await waitFor(() => expect(screen.getAllByRole('link')).toHaveLength(2));

    await user.click(screen.getByRole('button', { name: `Archive the conversation with ${nameOf(bob)}` }));
    expect(await screen.findByText('The conversation was archived.')).toBeInTheDocument();
    expect(screen.getAllByRole('link')).toHaveLength(1);
  });

  it('shows a conversation with more than 99 unread as 99+, and says so in English and Czech', async () => {
    const lucy = await creator(0);
    const fan = await person();
    await online(fan);
    const first = await say(fan, lucy.account.id, 'one');
    const sent = first.items.value.at(-1)!.sendDt;
    // A hundred more from the same fan; the server counts no further than 100.
    await server.app.fanstage.db
      .insert(chatMessages)
      .values(Array.from({ length: 100 }, (_, i) => ({ msgId: `many-${i}`, senderId: fan.account.id, receiverId: lucy.account.id, text: `more ${i}`, createdAt: new Date(sent + (i + 1) * 1000) })));
    const english = renderWith(lucy.fanstage, <ConversationList />);
    const row = await screen.findByRole('link', { name: /More than 99 unread messages$/ });
    expect(within(row).getByText('99+')).toBeInTheDocument();
    english.unmount();
    renderWith(lucy.fanstage, <ConversationList />, 'cs');
    expect(within(await screen.findByRole('link', { name: /Více než 99 nepřečtených zpráv$/ })).getByText('99+')).toBeInTheDocument();
  });

  it('lets a seller price one fan’s messages from the badge, and the fan then sees that price', async () => {
    const lucy = await creator(16);
    const fan = await person({}, 1000);
    await online(fan);
    await say(fan, lucy.account.id, 'hello');
    const user = userEvent.setup();
    const { container } = renderWith(lucy.fanstage, <ChatPriceBadge userId={fan.account.id} />);
    await lucy.fanstage.chat.thread(fan.account.id).load();
    const badge = await screen.findByRole('button', { name: `You charge ${formatPrice(16, salt)} / message. Change the price for ${nameOf(fan)}` });
    // What she charges, said as hers: not a price as if she paid it.
    expect(badge).toHaveTextContent(`You charge ${formatPrice(16, salt)} / message`);
    await user.click(badge);
    const dialog = await screen.findByRole('dialog', { name: `Message price for ${nameOf(fan)}` });
    await user.click(within(dialog).getByRole('radio', { name: formatPrice(64, salt) }));
    await user.click(within(dialog).getByRole('button', { name: 'Set price' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(screen.getByRole('button', { name: `You charge ${formatPrice(64, salt)} / message. Change the price for ${nameOf(fan)}` })).toBeInTheDocument();
    expect(await violationsIn(container)).toEqual([]);

    const theirs = fan.fanstage.chat.thread(lucy.account.id);
    await theirs.reload();
    expect(theirs.conversation.value?.price).toBe(64);
    // Between two fans there is nothing to show.
    const other = await person();
    const { container: none } = renderWith(fan.fanstage, <ChatPriceBadge userId={other.account.id} />);
    await fan.fanstage.chat.thread(other.account.id).load();
    expect(none.querySelector('[data-testid="chat-price-badge"]')).toBeNull();
  });
});
