import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { WebSocket as NodeWebSocket } from 'ws';
import { createClient, createFanstage, createReleaseWatcher, type Fanstage, type WebSocketConstructor } from '../../lib/sdk';
import { Feed, PostCard, ProfileHover, UpdateBanner, PROFILE_HOVER_CLOSE_MS, PROFILE_HOVER_OPEN_MS } from '../../lib/ui';
import type { TestServer } from '../support/server';
import { createAccount, type AccountOptions, type TestAccount } from '../support/accounts';
import { apiCaller } from '../support/inject';
import { fundWallet } from '../support/money';
import { eq } from '../support/db';
import { blocks, postLikes, posts, users } from '../../server/src/db/schema';
import { person as dbPerson, post as dbPost } from '../server/support-feeds';
import { renderWith, violationsIn } from './support/auth';
import { useVerifyEmailRefusals } from '../../host-web/overlays/verifyEmailRefusals';
import { VerifyEmailPrompt } from '../../host-web/overlays/VerifyEmailPrompt';
import { startRealServer } from './support/realServer';

let server: TestServer;
let webRoot: string;
const made: Fanstage[] = [];
const call = apiCaller(() => server.app);

beforeAll(async () => {
  webRoot = await mkdtemp(path.join(tmpdir(), 'fanstage-ui-release-'));
  await mkdir(path.join(webRoot, 'web'), { recursive: true });
  await writeFile(path.join(webRoot, 'web', 'release.json'), JSON.stringify({ release: '2.0.0+new' }));
  server = await startRealServer({ seed: false, webRoot });
}, 120_000);

afterEach(() => {
  vi.useRealTimers();
  for (const fanstage of made.splice(0)) {
    fanstage.socket.disconnect();
    fanstage.session.dispose();
  }
});

afterAll(async () => {
  await Promise.race([server?.close(), new Promise((resolve) => setTimeout(resolve, 15_000))]);
  await rm(webRoot, { recursive: true, force: true });
}, 30_000);

interface Person {
  account: TestAccount;
  fanstage: Fanstage;
}

async function signedIn(options: AccountOptions = {}, live = false): Promise<Person> {
  const account = await createAccount(server.app, options);
  const fanstage = createFanstage({ baseUrl: server.baseUrl, socket: { WebSocketImpl: NodeWebSocket as unknown as WebSocketConstructor, reconnectMs: 50 } });
  made.push(fanstage);
  fanstage.session.adopt({ accessToken: account.accessToken });
  await fanstage.session.loadAccount();
  if (live) {
    fanstage.socket.connect();
    await waitFor(() => expect(fanstage.socket.connectedState.value).toBe('open'));
  }
  return { account, fanstage };
}

describe("'Load New Posts' from the socket", { timeout: 30_000 }, () => {
  it('appears when someone the fan follows publishes, and puts the post on top when clicked', async () => {
    const creator = await createAccount(server.app, { seller: true });
    await dbPost(server.app, creator.id, { text: 'An older post', publishedAt: new Date(Date.now() - 3_600_000) });
    const fan = await signedIn({}, true);
    expect((await call('POST', '/api/users/follow', fan.account, { id: creator.id })).json.statusCode).toBeGreaterThan(0);
    // The pill comes from the socket alone: the periodic check is off.
    const { container } = renderWith(fan.fanstage, <Feed type="private" whoToFollow={false} checkNewEvery={0} />);
    const feed = await screen.findByRole('feed', { name: 'Your timeline' });
    await within(feed).findByText('An older post');
    expect(screen.queryByRole('button', { name: /new post/ })).toBeNull();

    const created = await call('POST', '/api/posts', creator, { text: 'Fresh from the studio' });
    expect(created.json.statusCode).toBe(2);
    const pill = await screen.findByRole('button', { name: 'Load 1 new post' });
    // Not shown before it is asked for.
    expect(within(feed).queryByText('Fresh from the studio')).toBeNull();
    expect(await violationsIn(container)).toEqual([]);

    await userEvent.click(pill);
    await waitFor(() => expect(within(feed).getAllByRole('article')[0]).toHaveTextContent('Fresh from the studio'));
    expect(screen.queryByRole('button', { name: /new post/ })).toBeNull();
  });

  it('leaves the timeline alone for a post of someone the fan does not follow', async () => {
    const stranger = await createAccount(server.app, { seller: true });
    const followed = await createAccount(server.app, { seller: true });
    await dbPost(server.app, followed.id, { text: 'Followed post', publishedAt: new Date(Date.now() - 3_600_000) });
    const fan = await signedIn({}, true);
    await call('POST', '/api/users/follow', fan.account, { id: followed.id });
    renderWith(fan.fanstage, <Feed type="private" whoToFollow={false} checkNewEvery={0} />);
    await screen.findByText('Followed post');
    await call('POST', '/api/posts', stranger, { text: 'Not for this fan' });
    // A post of the followed creator after it proves the socket delivered in between.
    await call('POST', '/api/posts', followed, { text: 'Second followed post' });
    await screen.findByRole('button', { name: 'Load 1 new post' });
    await userEvent.click(screen.getByRole('button', { name: 'Load 1 new post' }));
    await screen.findByText('Second followed post');
    expect(screen.queryByText('Not for this fan')).toBeNull();
  });
});

describe('a media unlocked in another tab', { timeout: 30_000 }, () => {
  it('opens in this tab without a reload', async () => {
    const creator = await createAccount(server.app, { seller: true });
    const { id, mediaIds } = await dbPost(server.app, creator.id, { text: 'Behind the lock', media: 1, price: 320 });
    const fan = await signedIn({}, true);
    await server.app.fanstage.db.update(users).set({ nsfwAgreement: 1 }).where(eq(users.id, fan.account.id));
    await fundWallet(server.app, fan.account.id, 10_000);
    renderWith(fan.fanstage, <PostCard postId={id} onUnlock={() => undefined} />);
    await screen.findByText('Behind the lock');
    await waitFor(() => expect(fan.fanstage.posts.peek(id)?.media[0]?.mediaUnlockHash).toBeNull());
    expect(screen.getByRole('button', { name: /Unlock for/ })).toBeInTheDocument();

    // The other tab: the same fan's own call, outside this page.
    const answer = await call('POST', '/api/media/unlock', fan.account, { id: mediaIds[0], price: 320 });
    expect(answer.json.statusCode).toBe(2);
    await waitFor(() => expect(fan.fanstage.posts.peek(id)?.media[0]?.mediaUnlockHash).toBe(answer.json.body.mediaUnlockHash));
    await waitFor(() => expect(screen.queryByRole('button', { name: /Unlock for/ })).toBeNull());
  });
});

describe('who liked a post', { timeout: 30_000 }, () => {
  it('opens from the likes count for the author, 15 at a time, with follow buttons', async () => {
    const creator = await signedIn({ seller: true });
    const { id } = await dbPost(server.app, creator.account.id, { text: 'Much liked' });
    const fans = [];
    for (let i = 0; i < 16; i++) fans.push(await dbPerson(server.app, { displayName: `Liker ${String(i + 1).padStart(2, '0')}` }));
    const { db } = server.app.fanstage;
    const start = Date.now() - 60_000;
    await db.insert(postLikes).values(fans.map((f, i) => ({ postId: id, userId: f.id, createdAt: new Date(start + i * 1000) })));
    await db.update(posts).set({ likesCount: 16 }).where(eq(posts.id, id));

    const { container } = renderWith(creator.fanstage, <PostCard postId={id} />);
    await userEvent.click(await screen.findByRole('button', { name: '16 likes' }));
    const dialog = await screen.findByRole('dialog', { name: 'Liked by' });
    // The slide-up of SPEC §2: on a phone a sheet from the bottom edge, a small dialog on wider screens.
    expect(dialog).toHaveAttribute('data-size', 'sheet');
    const list = await within(dialog).findByRole('list', { name: 'Liked by' });
    await waitFor(() => expect(within(list).getAllByRole('listitem')).toHaveLength(15));
    // Newest like first.
    expect(within(list).getAllByRole('listitem')[0]).toHaveTextContent('Liker 16');
    expect(within(list).getAllByRole('button', { name: /^Follow / })).toHaveLength(15);
    expect(await violationsIn(container)).toEqual([]);
    await userEvent.click(within(dialog).getByRole('button', { name: 'Show more' }));
    await waitFor(() => expect(within(list).getAllByRole('listitem')).toHaveLength(16));
    expect(within(list).getAllByRole('listitem')[15]).toHaveTextContent('Liker 01');
    await waitFor(() => expect(within(dialog).queryByRole('button', { name: 'Show more' })).toBeNull());
  });

  it('is not offered on someone else’s post, where the count stays plain text', async () => {
    const creator = await createAccount(server.app, { seller: true });
    const { id } = await dbPost(server.app, creator.id, { text: 'Liked elsewhere' });
    await server.app.fanstage.db.update(posts).set({ likesCount: 3 }).where(eq(posts.id, id));
    const fan = await signedIn();
    renderWith(fan.fanstage, <PostCard postId={id} />);
    expect(await screen.findByText('3 likes')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: '3 likes' })).toBeNull();
  });
});

describe('media earnings', { timeout: 30_000 }, () => {
  it('show the author what each media of the post earned', async () => {
    const creator = await signedIn({ seller: true });
    const { id, mediaIds } = await dbPost(server.app, creator.account.id, { text: 'Two pictures', media: 2, price: 320 });
    const fan = await createAccount(server.app);
    await server.app.fanstage.db.update(users).set({ nsfwAgreement: 1 }).where(eq(users.id, fan.id));
    await fundWallet(server.app, fan.id, 10_000);
    expect((await call('POST', '/api/media/unlock', fan, { id: mediaIds[1], price: 320 })).json.statusCode).toBe(2);

    renderWith(creator.fanstage, <PostCard postId={id} />);
    await userEvent.click(await screen.findByRole('button', { name: 'Media earnings' }));
    const dialog = await screen.findByRole('dialog', { name: 'What your media earned' });
    expect(dialog).toHaveAttribute('data-size', 'sheet');
    const rows = within(dialog).getAllByRole('listitem');
    expect(rows[0]).toHaveTextContent('Photo 1 of 2');
    expect(rows[0]).toHaveTextContent('Earned $0.00');
    expect(rows[1]).toHaveTextContent('Earned $3.20');
    expect(dialog).toHaveTextContent('Together $3.20');
  });
});

describe('the quick profile hover', { timeout: 30_000 }, () => {
  async function hoverFor(targetOptions: AccountOptions = {}) {
    const viewer = await signedIn();
    const target = await createAccount(server.app, { seller: true, ...targetOptions });
    await viewer.fanstage.profiles.load(target.id);
    return { viewer, target };
  }

  it('opens after 500 ms on the name and closes 250 ms after the pointer left', async () => {
    const { viewer, target } = await hoverFor();
    renderWith(
      viewer.fanstage,
      <ProfileHover userId={target.id} username={target.username}>
        <a href={`/${target.username}`}>Hover Target</a>
      </ProfileHover>,
    );
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    const link = screen.getByRole('link', { name: 'Hover Target' });
    fireEvent.mouseEnter(link);
    act(() => vi.advanceTimersByTime(PROFILE_HOVER_OPEN_MS - 1));
    expect(screen.queryByTestId('profile-hover')).toBeNull();
    act(() => vi.advanceTimersByTime(1));
    expect(screen.getByTestId('profile-hover')).toBeInTheDocument();

    // Out and back within the close delay (onto the card): it stays.
    fireEvent.mouseLeave(link);
    act(() => vi.advanceTimersByTime(PROFILE_HOVER_CLOSE_MS - 1));
    fireEvent.mouseEnter(link);
    act(() => vi.advanceTimersByTime(1_000));
    expect(screen.getByTestId('profile-hover')).toBeInTheDocument();

    fireEvent.mouseLeave(link);
    act(() => vi.advanceTimersByTime(PROFILE_HOVER_CLOSE_MS - 1));
    expect(screen.getByTestId('profile-hover')).toBeInTheDocument();
    act(() => vi.advanceTimersByTime(1));
    expect(screen.queryByTestId('profile-hover')).toBeNull();

    // A pointer that only passes over does not open it.
    fireEvent.mouseEnter(link);
    act(() => vi.advanceTimersByTime(300));
    fireEvent.mouseLeave(link);
    act(() => vi.advanceTimersByTime(1_000));
    expect(screen.queryByTestId('profile-hover')).toBeNull();
  });

  it('opens for keyboard focus too, and Escape closes it', async () => {
    const { viewer, target } = await hoverFor();
    renderWith(
      viewer.fanstage,
      <ProfileHover userId={target.id} username={target.username}>
        <a href={`/${target.username}`}>Hover Target</a>
      </ProfileHover>,
    );
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    const link = screen.getByRole('link', { name: 'Hover Target' });
    act(() => link.focus());
    act(() => vi.advanceTimersByTime(PROFILE_HOVER_OPEN_MS));
    expect(screen.getByRole('group', { name: `Profile of ${target.username}` })).toBeInTheDocument();
    fireEvent.keyDown(link, { key: 'Escape' });
    expect(screen.queryByTestId('profile-hover')).toBeNull();
  });

  it('never opens for oneself, a blocked user, or when the host turns it off', async () => {
    const { viewer, target } = await hoverFor();
    const blockedOne = await createAccount(server.app, { seller: true });
    await server.app.fanstage.db.insert(blocks).values({ blockerId: viewer.account.id, blockedId: blockedOne.id });
    await viewer.fanstage.profiles.load(blockedOne.id);
    renderWith(
      viewer.fanstage,
      <>
        <ProfileHover userId={viewer.account.id} username={viewer.account.username}>
          <a href="/me">Me</a>
        </ProfileHover>
        <ProfileHover userId={blockedOne.id} username={blockedOne.username}>
          <a href="/blocked">Blocked One</a>
        </ProfileHover>
        <ProfileHover userId={target.id} username={target.username} enabled={false}>
          <a href="/target">Phone layout</a>
        </ProfileHover>
      </>,
    );
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    for (const name of ['Me', 'Blocked One', 'Phone layout']) {
      fireEvent.mouseEnter(screen.getByRole('link', { name }));
      act(() => vi.advanceTimersByTime(2_000));
    }
    expect(screen.queryByTestId('profile-hover')).toBeNull();
  });
});

describe('the update-available banner', { timeout: 30_000 }, () => {
  it('shows with a reload once the server serves another release, asking at most every 30 minutes', async () => {
    const fanstage = (await signedIn()).fanstage;
    let clock = 1_000_000;
    const asked: string[] = [];
    const client = createClient({
      baseUrl: server.baseUrl,
      fetch: (input, init) => {
        asked.push(String(input));
        return fetch(input, init);
      },
    });
    const watcher = createReleaseWatcher(client, { current: '1.0.0+old', now: () => clock });
    const reload = vi.fn();
    const { container } = renderWith(fanstage, <UpdateBanner watcher={watcher} onReload={reload} />);

    // Just loaded: the page is the release the server served a moment ago.
    expect(await watcher.check()).toBe(false);
    expect(asked).toEqual([]);
    clock += 29 * 60_000;
    await watcher.check();
    expect(asked).toEqual([]);
    expect(screen.queryByTestId('update-banner')).toBeNull();

    clock += 60_000;
    expect(await watcher.check()).toBe(true);
    expect(asked).toHaveLength(1);
    expect(asked[0]).toMatch(/\/release\?\d+$/);
    const banner = await screen.findByRole('status');
    expect(banner).toHaveTextContent('A new version of Fanstage is available.');
    expect(await violationsIn(container)).toEqual([]);
    await userEvent.click(within(banner).getByRole('button', { name: 'Reload' }));
    expect(reload).toHaveBeenCalledTimes(1);

    // Asked again right away: still the one answer of this half hour.
    await watcher.check();
    expect(asked).toHaveLength(1);
  });

  it('stays away while the page runs the release the server serves', async () => {
    const fanstage = (await signedIn()).fanstage;
    const watcher = createReleaseWatcher(createClient({ baseUrl: server.baseUrl }), { current: '2.0.0+new' });
    renderWith(fanstage, <UpdateBanner watcher={watcher} />);
    expect(await watcher.check(true)).toBe(false);
    expect(watcher.latest.value).toBe('2.0.0+new');
    expect(screen.queryByTestId('update-banner')).toBeNull();
  });
});

/** The site's verify-email popup as App mounts it: open on a refusal from anywhere. */
function SiteVerifyEmail({ fanstage }: { fanstage: Fanstage }) {
  const [open, close] = useVerifyEmailRefusals(fanstage);
  return open ? <VerifyEmailPrompt onClose={close} /> : null;
}

describe('the verify-email popup', { timeout: 30_000 }, () => {
  it('opens wherever the server refuses an action for an unverified e-mail, with the resend', async () => {
    const creator = await createAccount(server.app, { seller: true });
    const { id } = await dbPost(server.app, creator.id, { text: 'Like me if you can' });
    const unverified = await signedIn({ verified: false });
    const { container } = renderWith(
      unverified.fanstage,
      <>
        <PostCard postId={id} />
        <SiteVerifyEmail fanstage={unverified.fanstage} />
      </>,
    );
    await userEvent.click(await screen.findByRole('button', { name: 'Like' }));
    const dialog = await screen.findByRole('dialog', { name: 'Verify your e-mail first' });
    expect(within(dialog).getByRole('button', { name: 'Send the link again' })).toBeEnabled();
    expect(await violationsIn(container)).toEqual([]);
    await userEvent.click(within(dialog).getByRole('button', { name: 'Close' }));
    expect(screen.queryByRole('dialog')).toBeNull();

    // Another action elsewhere on the page (a follow through the SDK) asks again.
    await expect(unverified.fanstage.relations.follow(creator.id)).rejects.toMatchObject({ code: 'email-not-verified' });
    expect(await screen.findByRole('dialog', { name: 'Verify your e-mail first' })).toBeInTheDocument();
  });

  it('stays shut for a verified fan and for other refusals', async () => {
    const fan = await signedIn();
    renderWith(fan.fanstage, <SiteVerifyEmail fanstage={fan.fanstage} />);
    await expect(fan.fanstage.posts.api.like(2_000_000_000)).rejects.toMatchObject({ code: 'post-doesnt-exists' });
    expect(screen.queryByRole('dialog')).toBeNull();
  });
});
