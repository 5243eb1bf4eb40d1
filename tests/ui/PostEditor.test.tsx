import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { createFanstage, type Measure, type SendBinary } from '../../lib/sdk';
import type { Account, CreatedPost } from '../../lib/contract';
import { PostEditor, PriceSelector } from '../../lib/ui';
import { sendEnvelope, startApiServer, type ApiServer } from '../unit/support/api-server';
import { author, fakeToken, media, post, settings } from '../unit/support/feed-fixtures';
import { profile } from '../unit/support/profiles';
import { renderWith, violationsIn } from './support/auth';

let server: ApiServer;

beforeAll(async () => {
  server = await startApiServer();
  server.on('/papi/settings', (_req, res) => sendEnvelope(res, { statusCode: 2, body: { ...settings, salt: 15_000 } }));
  server.on('/api/media', (req, res) => {
    const body = JSON.parse(req.body) as { price: number };
    sendEnvelope(res, { statusCode: 2, body: [media({ mediaId: 31, mediaPrice: body.price, mediaIsOwner: true })] });
  });
  server.on('/api/posts', (req, res) => {
    const body = JSON.parse(req.body) as { text: string; mediaIds?: number[]; price?: number; startDate?: number };
    sendEnvelope(res, { statusCode: 2, body: post(77, { text: body.text, isMy: true, user: author({ id: 5, username: 'me' }), startDate: body.startDate ?? null }) });
  });
  server.on('/api/media/31', (req, res) => sendEnvelope(res, { statusCode: 2, body: media({ mediaId: 31, mediaPrice: (JSON.parse(req.body) as { price: number }).price }) }));
  server.on('/api/posts/8', (req, res) =>
    sendEnvelope(res, { statusCode: 2, body: post(8, { text: req.method === 'PUT' ? (JSON.parse(req.body) as { text: string }).text : 'Old text', isMy: true, media: [media({ mediaId: 31, mediaPrice: 320, mediaIsOwner: true, mediaUnlockHash: 'k' })] }) }),
  );
});

afterAll(() => server.close());

function account(overrides: Partial<Account> = {}): Account {
  return {
    ...profile({ id: 5, username: 'me', isSeller: true }),
    email: 'me@example.com',
    emailVerified: true,
    phoneVerified: false,
    approvedState: 0,
    sexuality: null,
    birthday: null,
    appLanguage: 'en',
    nsfwAgreement: 1,
    notificationSound: 1,
    embedOrigins: [],
    ...overrides,
  };
}

function creator(overrides: Partial<Account> = {}) {
  const fanstage = createFanstage({ baseUrl: server.baseUrl });
  fanstage.session.adopt({ accessToken: fakeToken(5) });
  fanstage.session.setAccount(account(overrides));
  return fanstage;
}

const sendBinary: SendBinary = async (_file, _name, onProgress) => {
  onProgress(40);
  onProgress(100);
  return { fileName: 'f1' };
};
const bigPicture: Measure = () => Promise.resolve({ kind: 'image', width: 1200, height: 900 });
const smallPicture: Measure = () => Promise.resolve({ kind: 'image', width: 300, height: 300 });
const photo = () => new File(['bytes'], 'photo.jpg', { type: 'image/jpeg' });

describe('PostEditor', { timeout: 20_000 }, () => {
  it('uploads a photo, sets a post-media price and posts it', async () => {
    const fanstage = creator();
    const done: CreatedPost[] = [];
    const { container } = renderWith(fanstage, <PostEditor measure={bigPicture} sendBinary={sendBinary} onDone={(p) => done.push(p as CreatedPost)} />);
    expect(screen.getByRole('button', { name: 'Post' })).toBeDisabled();
    await userEvent.upload(screen.getByLabelText('Photo or video'), photo());
    expect(await screen.findByText('Ready to post')).toBeInTheDocument();
    // Stored 320 cents with a salt of 1.5 is what a fan pays: $4.80.
    await userEvent.click(await screen.findByRole('radio', { name: '$4.80' }, { timeout: 5000 }));
    await userEvent.type(screen.getByRole('textbox', { name: 'Caption' }), 'Sunset');
    expect(await violationsIn(container)).toEqual([]);
    await userEvent.click(screen.getByRole('button', { name: 'Post' }));
    await waitFor(() => expect(done).toHaveLength(1));
    const sent = JSON.parse(server.requests.filter((r) => r.url === '/api/posts').at(-1)?.body ?? '{}') as Record<string, unknown>;
    expect(sent).toEqual({ text: 'Sunset', mediaIds: [31], price: 320 });
    expect(screen.getByRole('status', { name: '' })).toBeTruthy();
    expect(screen.getByText('Your post is published.')).toBeInTheDocument();
  });

  it('opens the SPEC upload error popup for a small picture, with choose other media and cancel', async () => {
    const fanstage = creator();
    renderWith(fanstage, <PostEditor measure={smallPicture} sendBinary={sendBinary} />);
    await userEvent.upload(screen.getByLabelText('Photo or video'), photo());
    const dialog = await screen.findByRole('dialog', { name: "This file can't be used" });
    expect(within(dialog).getByText('The picture is too small. Choose one at least 400 pixels wide and high.')).toBeInTheDocument();
    expect(within(dialog).getByRole('button', { name: 'Choose other media' })).toBeInTheDocument();
    await userEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    expect(screen.queryByRole('dialog')).toBeNull();
  });

  it('stops at the e-mail check for an unverified creator', async () => {
    const fanstage = creator({ emailVerified: false });
    let asked = 0;
    renderWith(fanstage, <PostEditor measure={bigPicture} sendBinary={sendBinary} onVerifyEmail={() => void (asked += 1)} />);
    await userEvent.upload(screen.getByLabelText('Photo or video'), photo());
    expect(await screen.findByText('Please verify your e-mail address before uploading.')).toBeInTheDocument();
    expect(asked).toBe(1);
  });

  it('schedules a post for a future date', async () => {
    const fanstage = creator();
    renderWith(fanstage, <PostEditor />);
    await userEvent.type(screen.getByRole('textbox', { name: 'Caption' }), 'Later');
    await userEvent.click(screen.getByRole('checkbox', { name: 'Publish later' }));
    await userEvent.click(screen.getByRole('button', { name: 'Schedule' }));
    expect(await screen.findByText('Your post is scheduled.')).toBeInTheDocument();
    const sent = JSON.parse(server.requests.filter((r) => r.url === '/api/posts').at(-1)?.body ?? '{}') as { startDate: number };
    expect(sent.startDate).toBeGreaterThan(Date.now());
  });

  it('edits a post: Save stays off until the caption or the price changes', async () => {
    const fanstage = creator();
    renderWith(fanstage, <PostEditor postId={8} />);
    const caption = await screen.findByDisplayValue('Old text');
    const save = screen.getByRole('button', { name: 'Save' });
    expect(save).toBeDisabled();
    await userEvent.click(await screen.findByRole('radio', { name: '$9.60' }, { timeout: 5000 }));
    expect(save).toBeEnabled();
    await userEvent.clear(caption);
    await userEvent.type(caption, 'New text');
    await userEvent.click(save);
    expect(await screen.findByText('Your post is updated.')).toBeInTheDocument();
    expect(JSON.parse(server.requests.filter((r) => r.url === '/api/media/31').at(-1)?.body ?? '{}')).toEqual({ price: 640 });
  });
});

describe('the upload in a browser', { timeout: 20_000 }, () => {
  it('sends the file with XMLHttpRequest, the token and the API headers, reporting progress', async () => {
    const seen: { headers: Record<string, unknown>; body: string }[] = [];
    server.on('/api/media/binary', (req, res) => {
      // The page and the API are on different origins here, as for a widget: CORS applies.
      const cors = {
        'access-control-allow-origin': String(req.headers.origin ?? '*'),
        'access-control-allow-credentials': 'true',
        'access-control-allow-headers': 'Apiversion, Language, Authorization',
        'access-control-allow-methods': 'POST',
      };
      if (req.method === 'OPTIONS') {
        res.writeHead(204, cors);
        res.end();
        return;
      }
      seen.push({ headers: req.headers, body: req.body });
      res.writeHead(200, { ...cors, 'content-type': 'application/json' });
      res.end(JSON.stringify({ statusCode: 2, body: { fileName: 'xhr-1' } }));
    });
    const fanstage = creator();
    const upload = fanstage.uploads.create();
    const progress: number[] = [];
    const stop = upload.progress.subscribe((value) => progress.push(value));
    const status = await upload.start([new File(['x'.repeat(20_000)], 'photo.jpg', { type: 'image/jpeg' })], { measure: bigPicture });
    stop();
    expect(status).toBe('done');
    expect(seen).toHaveLength(1);
    expect(seen[0]?.headers.authorization).toMatch(/^Bearer /);
    expect(seen[0]?.headers.apiversion).toBe('1.0');
    expect(seen[0]?.body).toContain('filename="photo.jpg"');
    expect(progress.at(-1)).toBe(100);
    const created = JSON.parse(server.requests.filter((r) => r.url === '/api/media').at(-1)?.body ?? '{}') as { fileNames: string[] };
    expect(created.fileNames).toEqual(['xhr-1']);
  });
});

describe('PriceSelector', { timeout: 20_000 }, () => {
  it('offers the post-media steps and keeps Set price off without a change', async () => {
    const fanstage = creator();
    const applied: number[] = [];
    renderWith(fanstage, <PriceSelector value={95} onApply={(cents) => applied.push(cents)} />);
    const group = screen.getByRole('group', { name: 'Price to unlock' });
    await waitFor(() => expect(within(group).getAllByRole('radio')).toHaveLength(13));
    expect(within(group).getByRole('radio', { name: 'Free' })).toBeInTheDocument();
    const apply = screen.getByRole('button', { name: 'Set price' });
    expect(apply).toBeDisabled();
    // Prices read as fans pay them once the salt (1.5) has arrived: 128 cents is $1.92.
    await screen.findByRole('radio', { name: '$4.80' }, { timeout: 5000 });
    await userEvent.click(screen.getByRole('radio', { name: '$1.92' }));
    expect(apply).toBeEnabled();
    await userEvent.click(apply);
    expect(applied).toEqual([128]);
  });
});
