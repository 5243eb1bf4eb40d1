import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { createFanstage, formatPrice, type Fanstage } from '../../lib/sdk';
import { PostCard, parseRichText } from '../../lib/ui';
import type { TestServer } from '../support/server';
import { eq } from '../support/db';
import { media, posts, postStats } from '../../server/src/db/schema';
import { person, post, unlock, type Person, type PostFields } from '../server/support-feeds';
import { renderWith, violationsIn } from './support/auth';
import { startRealServer } from './support/realServer';

let server: TestServer;
let salt: number;
let cdn: string;

beforeAll(async () => {
  server = await startRealServer({ seed: false });
  salt = server.app.fanstage.config.priceSalt;
  cdn = (await createFanstage({ baseUrl: server.baseUrl }).api.settings()).mediaCDN;
}, 60_000);

afterAll(async () => {
  await Promise.race([server?.close(), new Promise((resolve) => setTimeout(resolve, 15_000))]);
}, 30_000);

/** A Fanstage signed in as `who` (or a visitor's), as the page would hold it. */
async function fanstageOf(who?: Person): Promise<Fanstage> {
  const fanstage = createFanstage({ baseUrl: server.baseUrl });
  if (who) {
    fanstage.session.adopt({ accessToken: who.token });
    await fanstage.session.loadAccount();
  }
  return fanstage;
}

/** Alice, a creator, with a post made as asked; answers the post's id and its media's hash. */
async function alicePost(fields: PostFields & { counts?: { likesCount: number; commentsCount: number; giftsCount: number } } = {}) {
  const alice = await person(server.app, { displayName: 'Alice Nováková' });
  const made = await post(server.app, alice.id, { publishedAt: new Date(Date.now() - 60_000), ...fields });
  if (fields.counts) await server.app.fanstage.db.update(posts).set(fields.counts).where(eq(posts.id, made.id));
  const [row] = made.mediaIds.length ? await server.app.fanstage.db.select({ hash: media.hash }).from(media).where(eq(media.id, made.mediaIds[0]!)) : [];
  return { alice, id: made.id, mediaIds: made.mediaIds, hash: row?.hash ?? '' };
}

describe('PostCard against the real server', { timeout: 30_000 }, () => {
  it('shows the author, the text with links for mentions, hashtags and addresses, and the stats', async () => {
    const { alice, id } = await alicePost({
      text: 'Hi @marek.novak, see #summer_2024 at https://example.com/a. Mail me@example.com',
      counts: { likesCount: 1500, commentsCount: 1, giftsCount: 2 },
    });
    const { container } = renderWith(await fanstageOf(), <PostCard postId={id} />);
    const card = await screen.findByRole('article', { name: 'Alice Nováková' });
    expect(within(card).getByRole('link', { name: 'Alice Nováková' })).toHaveAttribute('href', `/${alice.username}`);
    expect(within(card).getByRole('link', { name: '@marek.novak' })).toHaveAttribute('href', '/marek.novak');
    expect(within(card).getByRole('link', { name: '#summer_2024' })).toHaveAttribute('href', '/search-hashtags/summer_2024');
    expect(within(card).getByRole('link', { name: 'https://example.com/a' })).toHaveAttribute('rel', expect.stringContaining('noopener'));
    expect(within(card).queryByRole('link', { name: /@example.com/ })).toBeNull();
    expect(within(card).getByText('1.5k likes')).toBeInTheDocument();
    expect(within(card).getByText('1 comment')).toBeInTheDocument();
    expect(within(card).getByText('2 gifts')).toBeInTheDocument();
    expect(await violationsIn(container)).toEqual([]);
  });

  it('takes the links from the host', async () => {
    const { alice, id } = await alicePost({ text: '#tag' });
    renderWith(await fanstageOf(), <PostCard postId={id} hrefs={{ hashtag: (tag) => `/tags/${tag}`, profile: (u) => `/u/${u}` }} />);
    expect(await screen.findByRole('link', { name: '#tag' })).toHaveAttribute('href', '/tags/tag');
    expect(screen.getByRole('link', { name: 'Alice Nováková' })).toHaveAttribute('href', `/u/${alice.username}`);
  });

  it('shows a locked media blurred, with its price, and never its original address', async () => {
    const { id, hash } = await alicePost({ media: 1, price: 320 });
    const price = formatPrice(320, salt);
    renderWith(await fanstageOf(), <PostCard postId={id} onUnlock={() => undefined} />);
    const image = await screen.findByRole('img', { name: 'Photo by Alice Nováková, locked' });
    await waitFor(() => expect(image.getAttribute('src')).toBe(`${cdn}/${hash}.webp?t=blur`));
    expect(image).not.toHaveAttribute('srcset');
    expect(screen.getByText(`Locked · ${price}`)).toBeInTheDocument();
    expect(screen.getByRole('button', { name: `Unlock for ${price}` })).toBeInTheDocument();
  });

  it('shows an unlocked media with its key', async () => {
    const { id, hash, mediaIds } = await alicePost({ media: 1, price: 320 });
    const fan = await person(server.app, { isSeller: false });
    await unlock(server.app, fan.id, mediaIds[0]!);
    const fanstage = await fanstageOf(fan);
    const key = (await fanstage.posts.api.post(id, true)).media[0]!.mediaUnlockHash;
    expect(key).toMatch(/\w{8,}/);
    renderWith(fanstage, <PostCard postId={id} />);
    const button = await screen.findByRole('button', { name: 'Photo by Alice Nováková, open full screen' });
    await waitFor(() => expect(within(button).getByRole('img').getAttribute('src')).toBe(`${cdn}/${hash}.webp?t=640&k=${key}`));
  });

  it('shows the owner the locked view until show unlocked', async () => {
    const { alice, id } = await alicePost({ media: 1, price: 320 });
    const price = formatPrice(320, salt);
    renderWith(await fanstageOf(alice), <PostCard postId={id} />);
    await screen.findByText(`Locked · ${price}`);
    await userEvent.click(screen.getByRole('button', { name: 'Show unlocked' }));
    expect(screen.getByRole('button', { name: 'Photo by Alice Nováková, open full screen' })).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Show as fans see it' }));
    expect(screen.getByText(`Locked · ${price}`)).toBeInTheDocument();
  });

  it('marks a scheduled post and disables its actions', async () => {
    const { alice, id } = await alicePost({ publishedAt: new Date(Date.now() + 86_400_000) });
    renderWith(await fanstageOf(alice), <PostCard postId={id} />);
    expect(await screen.findByText('Scheduled')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Like' })).toBeDisabled();
    expect(screen.getByRole('button', { name: 'Share' })).toBeDisabled();
  });

  it('hands gift and chat to the host, and offers neither on the viewer\'s own post', async () => {
    const { id: theirsId } = await alicePost();
    const me = await person(server.app, { displayName: 'Me' });
    const { id: mineId } = await post(server.app, me.id, { text: 'Mine', publishedAt: new Date(Date.now() - 1000) });
    const gifts: number[] = [];
    const chats: number[] = [];
    renderWith(
      await fanstageOf(me),
      <>
        <PostCard postId={theirsId} onGift={(p) => gifts.push(p.id)} onChat={(p) => chats.push(p.id)} />
        <PostCard postId={mineId} onGift={(p) => gifts.push(p.id)} onChat={(p) => chats.push(p.id)} />
      </>,
    );
    const theirs = await screen.findByRole('article', { name: 'Alice Nováková' });
    await userEvent.click(within(theirs).getByRole('button', { name: 'Send a gift' }));
    await userEvent.click(within(theirs).getByRole('button', { name: 'Chat with Alice Nováková' }));
    expect(gifts).toEqual([theirsId]);
    expect(chats).toEqual([theirsId]);
    const mine = await screen.findByRole('article', { name: 'Me' });
    expect(within(mine).queryByRole('button', { name: 'Send a gift' })).toBeNull();
    expect(within(mine).queryByRole('button', { name: /Chat with/ })).toBeNull();
    expect(within(mine).queryByRole('button', { name: /Follow/ })).toBeNull();

    // A post of someone who is no creator (a fan, an applicant not approved) offers no gift: the server would refuse it.
    const fan = await person(server.app, { displayName: 'Just A Fan', isSeller: false });
    const { id: fansId } = await post(server.app, fan.id, { text: 'A fan posts', publishedAt: new Date(Date.now() - 1000) });
    renderWith(await fanstageOf(me), <PostCard postId={fansId} onGift={(p) => gifts.push(p.id)} onChat={(p) => chats.push(p.id)} />);
    const fans = await screen.findByRole('article', { name: 'Just A Fan' });
    expect(within(fans).queryByRole('button', { name: 'Send a gift' })).toBeNull();
    expect(within(fans).getByRole('button', { name: 'Chat with Just A Fan' })).toBeInTheDocument();
  });

  it('lets the owner delete the post after confirming, and the server no longer shows it', async () => {
    const { alice, id } = await alicePost();
    const deleted: number[] = [];
    renderWith(await fanstageOf(alice), <PostCard postId={id} onDeleted={(p) => deleted.push(p.id)} />);
    await userEvent.click(await screen.findByRole('button', { name: 'Delete' }));
    expect(screen.getByRole('alertdialog')).toHaveTextContent('Delete this post?');
    await userEvent.click(screen.getByRole('button', { name: 'Delete post' }));
    // The card leaves at once; onDeleted follows when the server has confirmed the deletion.
    await waitFor(() => expect(screen.queryByRole('article')).toBeNull());
    await waitFor(() => expect(deleted).toEqual([id]));
    await expect((await fanstageOf()).posts.api.post(id, false)).rejects.toMatchObject({ code: 'post-doesnt-exists' });
  });

  it('opens the share dialog and gives focus back when it closes', async () => {
    const { id } = await alicePost();
    renderWith(await fanstageOf(), <PostCard postId={id} />);
    const share = await screen.findByRole('button', { name: 'Share' });
    await userEvent.click(share);
    const dialog = await screen.findByRole('dialog', { name: 'Share' });
    expect(within(dialog).getByRole('link', { name: /WhatsApp/ })).toHaveAttribute('href', expect.stringContaining('api.whatsapp.com'));
    await userEvent.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(share).toHaveFocus();
  });
});

describe('seen reports', { timeout: 30_000 }, () => {
  it('go out once a post stayed half visible for 400 ms, and the server records them', async () => {
    // jsdom has no layout, so no IntersectionObserver: a minimal one reports what a browser would.
    const observers: Array<(ratio: number) => void> = [];
    class VisibleObserver {
      constructor(private readonly callback: IntersectionObserverCallback) {}
      observe() {
        observers.push((ratio) => this.callback([{ intersectionRatio: ratio } as IntersectionObserverEntry], this as unknown as IntersectionObserver));
      }
      disconnect() {}
      unobserve() {}
    }
    const original = globalThis.IntersectionObserver;
    globalThis.IntersectionObserver = VisibleObserver as unknown as typeof IntersectionObserver;
    const seenOf = (id: number) => server.app.fanstage.db.select().from(postStats).where(eq(postStats.postId, id));
    try {
      const { id } = await alicePost();
      const fanstage = await fanstageOf();
      renderWith(fanstage, <PostCard postId={id} />);
      await screen.findByRole('article', { name: 'Alice Nováková' });
      const report = observers.at(-1) as (ratio: number) => void;
      report(0.3);
      await new Promise((resolve) => setTimeout(resolve, 450));
      expect(fanstage.posts.wasSeen(id)).toBe(false);
      report(0.6);
      await waitFor(() => expect(fanstage.posts.wasSeen(id)).toBe(true));
      await waitFor(async () => expect(await seenOf(id)).toHaveLength(1));
      const [row] = await seenOf(id);
      expect(row).toMatchObject({ kind: 'seen', userId: null, visibleRatio: 0.6 });
      expect(row!.durationMs).toBeGreaterThanOrEqual(400);
    } finally {
      globalThis.IntersectionObserver = original;
    }
  });
});

describe('rich text', () => {
  it('keeps invalid hashtags and glued at-signs as text', () => {
    expect(parseRichText('#123 a@b.cz C#').every((part) => part.kind === 'text')).toBe(true);
    expect(parseRichText('go #ok!').map((p) => p.kind)).toEqual(['text', 'hashtag', 'text']);
  });
});
