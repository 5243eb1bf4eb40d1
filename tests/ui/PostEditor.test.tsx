import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import sharp from 'sharp';
import { formatPrice, type Fanstage, type Measure } from '../../lib/sdk';
import type { CreatedPost } from '../../lib/contract';
import { PostEditor, PriceSelector } from '../../lib/ui';
import type { TestServer } from '../support/server';
import type { AccountOptions } from '../support/accounts';
import { eq } from '../support/db';
import { media } from '../../server/src/db/schema';
import { post } from '../server/support-feeds';
import { renderWith, violationsIn } from './support/auth';
import { loggedInOn, startRealServer, type LoggedIn } from './support/realServer';

let server: TestServer;
let salt: number;
const opened: Fanstage[] = [];

beforeAll(async () => {
  server = await startRealServer({ seed: false });
  salt = server.app.fanstage.config.priceSalt;
  // jsdom's XMLHttpRequest sends the test page's origin with credentials, which the platform
  // rightly refuses (CORS); without it the SDK sends the bytes with fetch, as it does on Node.
  // XMLHttpRequest itself, with its progress, is tested in a real browser (e2e/upload.spec.ts).
  vi.stubGlobal('XMLHttpRequest', undefined);
}, 60_000);

afterEach(() => {
  for (const fanstage of opened.splice(0)) fanstage.session.dispose();
});

afterAll(async () => {
  vi.unstubAllGlobals();
  await Promise.race([server?.close(), new Promise((resolve) => setTimeout(resolve, 15_000))]);
}, 30_000);

/** A signed-in creator (a verified seller unless told otherwise). */
async function creator(options: AccountOptions = {}): Promise<LoggedIn> {
  const session = await loggedInOn(server, { seller: true, ...options });
  opened.push(session.fanstage);
  return session;
}

// jsdom decodes no pictures, so the browser's measuring of a picked file is answered here with
// the size the file really has (or, for the refusal, a size the check must refuse).
const measured = (width: number, height: number): Measure => () => Promise.resolve({ kind: 'image', width, height });

/** A real JPEG: the server decodes what it is sent, so a made-up header would not do. */
async function photo(width = 1200, height = 900, name = 'photo.jpg'): Promise<File> {
  const bytes = await sharp({ create: { width, height, channels: 3, background: { r: 220, g: 120, b: 40 } } }).jpeg().toBuffer();
  return new File([new Uint8Array(bytes)], name, { type: 'image/jpeg' });
}

describe('PostEditor against the real server', { timeout: 30_000 }, () => {
  it('uploads a photo, sets a post-media price and posts it', async () => {
    const { fanstage } = await creator();
    const done: CreatedPost[] = [];
    const { container } = renderWith(fanstage, <PostEditor measure={measured(1200, 900)} onDone={(p) => done.push(p as CreatedPost)} />);
    expect(screen.getByRole('button', { name: 'Post' })).toBeDisabled();
    await userEvent.upload(screen.getByLabelText('Photo or video'), await photo());
    expect(await screen.findByText('Ready to post', {}, { timeout: 15_000 })).toBeInTheDocument();
    // Stored 320 cents is shown as what a fan pays, with the platform's salt.
    await userEvent.click(await screen.findByRole('radio', { name: formatPrice(320, salt) }));
    await userEvent.type(screen.getByRole('textbox', { name: 'Caption' }), 'Sunset');
    expect(await violationsIn(container)).toEqual([]);
    await userEvent.click(screen.getByRole('button', { name: 'Post' }));
    await waitFor(() => expect(done).toHaveLength(1));
    expect(screen.getByText('Your post is published.')).toBeInTheDocument();
    // What the server stored: the caption, and the photo at that price.
    const stored = await fanstage.posts.api.post(done[0]!.id, true);
    expect(stored).toMatchObject({ text: 'Sunset', isMy: true, startDate: null });
    expect(stored.media).toHaveLength(1);
    expect(stored.media[0]).toMatchObject({ mediaType: 'image', mediaPrice: 320, mediaIsOwner: true });
  });

  it('opens the SPEC upload error popup for a small picture, with choose other media and cancel', async () => {
    const { fanstage } = await creator();
    renderWith(fanstage, <PostEditor measure={measured(300, 300)} />);
    await userEvent.upload(screen.getByLabelText('Photo or video'), await photo(300, 300));
    const dialog = await screen.findByRole('dialog', { name: "This file can't be used" });
    expect(within(dialog).getByText('The picture is too small. Choose one at least 400 pixels wide and high.')).toBeInTheDocument();
    expect(within(dialog).getByRole('button', { name: 'Choose other media' })).toBeInTheDocument();
    await userEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    expect(screen.queryByRole('dialog')).toBeNull();
  });

  it('tells a fan who is not a creator that his posts are free before he picks a photo, and offers him no price', async () => {
    const { fanstage } = await creator({ seller: false });
    renderWith(fanstage, <PostEditor measure={measured(1200, 900)} />);
    expect(await screen.findByText('Your posts are free for everyone to see: only creators can set prices.')).toBeInTheDocument();
    await userEvent.upload(screen.getByLabelText('Photo or video'), await photo());
    expect(await screen.findByText('Ready to post', {}, { timeout: 15_000 })).toBeInTheDocument();
    expect(screen.queryAllByRole('radio')).toEqual([]);
    expect(screen.queryByText(/Only verified creators can set prices/)).toBeNull();
  });

  it('stops at the e-mail check for an unverified creator', async () => {
    const { fanstage } = await creator({ verified: false });
    let asked = 0;
    renderWith(fanstage, <PostEditor measure={measured(1200, 900)} onVerifyEmail={() => void (asked += 1)} />);
    await userEvent.upload(screen.getByLabelText('Photo or video'), await photo());
    expect(await screen.findByText('Please verify your e-mail address before uploading.')).toBeInTheDocument();
    expect(asked).toBe(1);
  });

  it('schedules a post for a future date', async () => {
    const { fanstage } = await creator();
    renderWith(fanstage, <PostEditor />);
    await userEvent.type(screen.getByRole('textbox', { name: 'Caption' }), 'Later');
    await userEvent.click(screen.getByRole('checkbox', { name: 'Publish later' }));
    await userEvent.click(screen.getByRole('button', { name: 'Schedule' }));
    expect(await screen.findByText('Your post is scheduled.')).toBeInTheDocument();
    const scheduled = await fanstage.posts.api.scheduled();
    expect(scheduled.map((p) => p.text)).toEqual(['Later']);
    expect(scheduled[0]!.startDate).toBeGreaterThan(Date.now());
  });

  it('edits a post: Save stays off until the caption or the price changes', async () => {
    const { account, fanstage } = await creator();
    const { id, mediaIds } = await post(server.app, account.id, { text: 'Old text', media: 1, price: 320, publishedAt: new Date(Date.now() - 60_000) });
    renderWith(fanstage, <PostEditor postId={id} />);
    const caption = await screen.findByDisplayValue('Old text');
    const save = screen.getByRole('button', { name: 'Save' });
    expect(save).toBeDisabled();
    await userEvent.click(await screen.findByRole('radio', { name: formatPrice(640, salt) }));
    expect(save).toBeEnabled();
    await userEvent.clear(caption);
    await userEvent.type(caption, 'New text');
    await userEvent.click(save);
    expect(await screen.findByText('Your post is updated.')).toBeInTheDocument();
    expect(await fanstage.posts.api.post(id, true)).toMatchObject({ text: 'New text' });
    const [row] = await server.app.fanstage.db.select({ price: media.price }).from(media).where(eq(media.id, mediaIds[0]!));
    expect(row?.price).toBe(640);
  });
});

describe('an upload', { timeout: 30_000 }, () => {
  it('sends the bytes to the real server, which stores them as the creator\'s media at the price', async () => {
    const { account, fanstage } = await creator();
    const upload = fanstage.uploads.create();
    const progress: number[] = [];
    const stop = upload.progress.subscribe((value) => progress.push(value));
    const status = await upload.start([await photo()], { measure: measured(1200, 900), price: 640 });
    stop();
    expect(status).toBe('done');
    expect(progress.at(-1)).toBe(100);
    const rows = await server.app.fanstage.db.select({ ownerId: media.ownerId, price: media.price, kind: media.kind }).from(media).where(eq(media.ownerId, account.id));
    expect(rows).toEqual([{ ownerId: account.id, price: 640, kind: 'post' }]);
  });
});

describe('PriceSelector', { timeout: 30_000 }, () => {
  it('offers the post-media steps and keeps Set price off without a change', async () => {
    const { fanstage } = await creator();
    await fanstage.settings.load();
    const applied: number[] = [];
    renderWith(fanstage, <PriceSelector value={95} onApply={(cents) => applied.push(cents)} />);
    const group = screen.getByRole('group', { name: 'Price to unlock' });
    await waitFor(() => expect(within(group).getAllByRole('radio')).toHaveLength(13));
    expect(within(group).getByRole('radio', { name: 'Free' })).toBeInTheDocument();
    const apply = screen.getByRole('button', { name: 'Set price' });
    expect(apply).toBeDisabled();
    // Prices read as fans pay them, with the platform's salt from the server (not ×1).
    expect(formatPrice(128, salt)).not.toBe(formatPrice(128, 10_000));
    await userEvent.click(await screen.findByRole('radio', { name: formatPrice(128, salt) }));
    expect(apply).toBeEnabled();
    await userEvent.click(apply);
    expect(applied).toEqual([128]);
  });
});
