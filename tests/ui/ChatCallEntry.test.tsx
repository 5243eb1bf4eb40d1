import { randomBytes } from 'node:crypto';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import { WebSocket as NodeWebSocket } from 'ws';
import { createFanstage, fanPriceCents, formatDuration, type Fanstage, type WebSocketConstructor } from '../../lib/sdk';
import { ChatConversation, ConversationList } from '../../lib/ui';
import { callRuntime } from '../../server/src/features/calls/runtime';
import { RING_TIMEOUT_MS } from '../../server/src/features/calls/domain';
import type { TestServer } from '../support/server';
import { createAccount, type AccountOptions, type TestAccount } from '../support/accounts';
import { apiCaller } from '../support/inject';
import { fundWallet } from '../support/money';
import { renderWith, violationsIn } from './support/auth';
import { startRealServer } from './support/realServer';

/**
 * Call entries in the conversation (docs/calls.md "In the chat"), against the real server: the
 * calls are rung, answered and ended by the server's own call service, and each person's
 * conversation shows the entry as a line of the history — the fan what the call cost, the
 * creator what it earned, "Missed video call" for the one who did not answer.
 */

let server: TestServer;
const made: Fanstage[] = [];
const call = apiCaller(() => server.app);

beforeAll(async () => {
  server = await startRealServer({ seed: false });
}, 120_000);

afterEach(() => {
  for (const fanstage of made.splice(0)) {
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

async function person(options: AccountOptions = {}): Promise<Person> {
  const account = await createAccount(server.app, options);
  const fanstage = createFanstage({ baseUrl: server.baseUrl, socket: { WebSocketImpl: NodeWebSocket as unknown as WebSocketConstructor, reconnectMs: 50 } });
  made.push(fanstage);
  fanstage.session.adopt({ accessToken: account.accessToken });
  await fanstage.session.loadAccount();
  fanstage.socket.connect();
  await waitFor(() => expect(fanstage.socket.connectedState.value).toBe('open'));
  return { account, fanstage };
}

/** $4.80 from 480 cents: the notation the entry uses. */
const dollars = (cents: number) => `$${Math.floor(cents / 100)}.${String(cents % 100).padStart(2, '0')}`;

describe('a call entry in the conversation', { timeout: 30_000 }, () => {
  it('reads "Video call · 3:02 · $4.80" for the fan and "… earned $3.84" for the creator, as a line with its time, and previews so in the list', async () => {
    const ctx = server.app.fanstage;
    const calls = callRuntime(ctx, server.app.log);
    const fan = await person();
    const star = await person({ seller: true });
    await fundWallet(server.app, fan.account.id, 2000);
    expect((await call('PUT', '/api/users/me', star.account, { callPrice: 128 })).json.statusCode).toBeGreaterThan(0);
    const fanPrice = fanPriceCents(128, ctx.config.priceSalt);

    const callId = randomBytes(16).toString('base64url');
    expect((await calls.service.offer(fan.account.id, callId, star.account.id)).kind).toBe('ringing');
    expect((await calls.service.answer(star.account.id, callId, true, fan.account.id)).kind).toBe('live');
    ctx.clock.advance(3 * 60_000 - 30_000);
    // Three minutes begun (held as the clock would have): the hang-up at 2:30 pays three.
    for (const minute of [2, 3]) await calls.service.holdNext(callId, minute);
    ctx.clock.advance(32_000);
    const ended = await calls.service.stop(fan.account.id, callId, star.account.id);
    expect(ended.kind).toBe('ended');
    await calls.notices.ended(ended.call);
    // 3:02 on the server's clock, and real time a little.
    const duration = formatDuration((ended.call.endedAt!.getTime() - ended.call.startedAt!.getTime()) / 1000);
    expect(duration).toMatch(/^3:0[2-4]$/);

    const { container, unmount } = renderWith(fan.fanstage, <ChatConversation userId={star.account.id} />);
    const entry = await screen.findByTestId('chat-call');
    expect(entry).toHaveTextContent(`Video call · ${duration} · ${dollars(3 * fanPrice)}`);
    expect(within(entry).getByText(/^Video call/).tagName).toBe('SPAN');
    expect(entry.querySelector('time')).toHaveAttribute('dateTime');
    // A line of the history, not a bubble: no read checks, no reactions.
    expect(within(entry).queryByRole('img')).toBeNull();
    expect(within(entry).queryByRole('button')).toBeNull();
    expect(screen.queryAllByTestId('chat-message')).toHaveLength(0);
    expect(await violationsIn(container)).toEqual([]);
    unmount();

    renderWith(star.fanstage, <ChatConversation userId={fan.account.id} />);
    expect(await screen.findByTestId('chat-call')).toHaveTextContent(`Video call · ${duration} · earned ${dollars(3 * 128)}`);

    renderWith(star.fanstage, <ConversationList />, 'cs');
    const list = await screen.findByRole('list', { name: 'Konverzace' });
    expect(await within(list).findByText(`Videohovor · ${duration} · vyděláno ${dollars(3 * 128)}`)).toBeInTheDocument();
  });

  it('shows a missed call as it comes to the creator, counted unread in the list, and as no answer to the fan', async () => {
    const ctx = server.app.fanstage;
    const calls = callRuntime(ctx, server.app.log);
    const fan = await person();
    const star = await person({ seller: true });
    await fundWallet(server.app, fan.account.id, 2000);

    renderWith(star.fanstage, <ConversationList />);
    const list = await screen.findByRole('list', { name: 'Conversations' });
    const callId = randomBytes(16).toString('base64url');
    expect((await calls.service.offer(fan.account.id, callId, star.account.id)).kind).toBe('ringing');
    ctx.clock.advance(RING_TIMEOUT_MS);
    const [missed] = await calls.service.sweepRinging([callId]);
    await calls.notices.ended(missed!);

    // The list learns of it over the socket: the preview, and one unread.
    expect(await within(list).findByText('Missed video call')).toBeInTheDocument();
    expect(within(list).getByText('1 unread message')).toBeInTheDocument();

    // A declined call comes in live too, but adds nothing unread.
    const again = randomBytes(16).toString('base64url');
    expect((await calls.service.offer(fan.account.id, again, star.account.id)).kind).toBe('ringing');
    const declined = await calls.service.answer(star.account.id, again, false, fan.account.id);
    await calls.notices.ended(declined.call);
    expect(await within(list).findByText('Declined video call')).toBeInTheDocument();
    expect(within(list).getByText('1 unread message')).toBeInTheDocument();

    renderWith(fan.fanstage, <ChatConversation userId={star.account.id} />, 'cs');
    const [unanswered, refused] = await screen.findAllByTestId('chat-call');
    expect(unanswered).toHaveTextContent('Videohovor · bez odpovědi');
    expect(unanswered).not.toHaveAttribute('data-tone', 'missed');
    expect(refused).toHaveTextContent('Odmítnutý videohovor');
  });
});
