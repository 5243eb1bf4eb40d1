import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { eq } from '../support/db';
import { WebSocket as NodeWebSocket } from 'ws';
import { createFanstage, type Fanstage, type WebSocketConstructor } from '../../lib/sdk';
import { NotificationList } from '../../lib/ui';
import { notifications as notificationsTable } from '../../server/src/db/schema';
import type { TestServer } from '../support/server';
import { renderWith, violationsIn } from './support/auth';
import { loggedInOn, startRealServer, type LoggedIn } from './support/realServer';

let server: TestServer;
const opened: Fanstage[] = [];

beforeAll(async () => {
  server = await startRealServer();
}, 60_000);

afterEach(() => {
  for (const fanstage of opened.splice(0)) {
    fanstage.socket.disconnect();
    fanstage.session.dispose();
  }
});

afterAll(async () => {
  // Now and then the server's close waits on a request it never finishes (seen after aborted
  // searches); the suite's verdict should not hang on that, so the wait is bounded.
  await Promise.race([server?.close(), new Promise((resolve) => setTimeout(resolve, 15_000))]);
}, 30_000);

async function person(displayName?: string): Promise<LoggedIn> {
  const session = await loggedInOn(server, { seller: true });
  opened.push(session.fanstage);
  if (displayName) await session.fanstage.account.updateMe({ displayName });
  return session;
}

/** A creator with a post liked by four fans and followed by two of them, all through the API. */
async function busyCreator() {
  const creator = await person('Nora Creator');
  const post = await creator.fanstage.client.post<{ id: number }>('/api/posts', { text: 'Evening light #sunset' });
  const fans = [await person('Lucy Fan'), await person('Marek Fan'), await person('Jana Fan'), await person('Petr Fan')];
  for (const fan of fans) await fan.fanstage.client.post(`/api/posts/${post.id}/likes`);
  await fans[0]!.fanstage.relations.follow(creator.account.id);
  await fans[1]!.fanstage.relations.follow(creator.account.id);
  return { creator, post, fans };
}

describe('NotificationList against the real server', { timeout: 30_000 }, () => {
  it('says what happened in each row, merges the likes, links to the post and the profile, and is accessible', async () => {
    const { creator, post } = await busyCreator();
    const { container } = renderWith(creator.fanstage, <NotificationList />);

    const today = await screen.findByRole('region', { name: 'Today' });
    const likes = await within(today).findByRole('link', { name: /Petr Fan and 3 others liked your post/ });
    expect(likes).toHaveAttribute('href', `/post/${post.id}`);
    const follow = within(today).getByRole('link', { name: /Marek Fan started following you/ });
    expect(follow.getAttribute('href')).toMatch(/^\/[\w.-]+$/);
    expect(within(today).getAllByRole('listitem')).toHaveLength(3);
    expect(await violationsIn(container)).toEqual([]);
  });

  it('marks everything read on opening, so the badge count is zero on the server too', async () => {
    const { creator } = await busyCreator();
    expect(await creator.fanstage.notifications.refreshCount()).toBeGreaterThan(0);
    renderWith(creator.fanstage, <NotificationList />);
    await screen.findByRole('region', { name: 'Today' });
    expect(creator.fanstage.notifications.unreadCount.value).toBe(0);
    await waitFor(async () => expect((await creator.fanstage.client.get<{ notifications: number }>('/api/count/')).notifications).toBe(0));
  });

  it('takes in a notification that comes while it is open, above the rows shown, and reads it', async () => {
    const { creator: other } = await busyCreator();
    // The creator's page, with its socket (Node's `ws` for the browser's: jsdom's would send the
    // test page's origin, which the platform does not know).
    const fanstage = createFanstage({ baseUrl: server.baseUrl, socket: { WebSocketImpl: NodeWebSocket as unknown as WebSocketConstructor, reconnectMs: 100 } });
    opened.push(fanstage);
    fanstage.session.adopt({ accessToken: other.account.accessToken });
    await fanstage.session.loadAccount();
    const creator = { account: other.account, fanstage };
    creator.fanstage.socket.connect();
    await waitFor(() => expect(creator.fanstage.socket.connectedState.value).toBe('open'));
    renderWith(creator.fanstage, <NotificationList />);
    const likes = await screen.findByRole('link', { name: /Petr Fan and 3 others liked your post/ });
    await waitFor(async () => expect((await creator.fanstage.client.get<{ notifications: number }>('/api/count/')).notifications).toBe(0));

    const newcomer = await person('Olga Newcomer');
    await newcomer.fanstage.relations.follow(creator.account.id);

    const follow = await screen.findByRole('link', { name: /Olga Newcomer started following you/ });
    const rows = within(screen.getByRole('region', { name: 'Today' })).getAllByRole('listitem');
    expect(rows).toHaveLength(4);
    expect(within(rows[0]!).getByRole('link')).toBe(follow);
    // The rows shown stayed where they were: the same element, not the list drawn again.
    expect(screen.getByRole('link', { name: /Petr Fan and 3 others liked your post/ })).toBe(likes);
    await waitFor(async () => expect((await creator.fanstage.client.get<{ notifications: number }>('/api/count/')).notifications).toBe(0));
    await waitFor(() => expect(creator.fanstage.notifications.unreadCount.value).toBe(0));
  });

  it('shows only follows under the Follows tab, moving there with the arrow keys', async () => {
    const { creator } = await busyCreator();
    renderWith(creator.fanstage, <NotificationList markReadOnOpen={false} />);
    await screen.findByRole('link', { name: /liked your post/ });
    const all = screen.getByRole('tab', { name: 'All' });
    expect(all).toHaveAttribute('aria-selected', 'true');
    all.focus();
    await userEvent.setup().keyboard('{ArrowRight}');
    const follows = screen.getByRole('tab', { name: 'Follows' });
    expect(follows).toHaveAttribute('aria-selected', 'true');
    expect(follows).toHaveFocus();
    await waitFor(() => expect(screen.getAllByRole('link', { name: /started following you/ })).toHaveLength(2));
    expect(screen.queryByRole('link', { name: /liked your post/ })).toBeNull();
    expect(creator.fanstage.notifications.tab.value).toBe('follow');
  });

  it('groups older notifications under this week, this month and older', async () => {
    const { creator } = await busyCreator();
    const db = server.app.fanstage.db;
    const rows = await db.select({ id: notificationsTable.id, type: notificationsTable.type }).from(notificationsTable).where(eq(notificationsTable.userId, creator.account.id));
    const day = 24 * 60 * 60 * 1000;
    const ages = [3 * day, 12 * day, 90 * day];
    for (const [index, row] of rows.entries()) {
      const at = new Date(Date.now() - (ages[index] ?? 0));
      await db.update(notificationsTable).set({ createdAt: at, updatedAt: at }).where(eq(notificationsTable.id, row.id));
    }
    renderWith(creator.fanstage, <NotificationList />, 'cs');
    const headings = await screen.findAllByRole('heading', { level: 2 });
    expect(headings.map((h) => h.textContent)).toEqual(['Tento týden', 'Tento měsíc', 'Starší']);
  });
});
