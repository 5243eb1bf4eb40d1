import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import sharp from 'sharp';
import { createFanstage, type Fanstage } from '../../lib/sdk';
import { AvatarUpload } from '../../lib/ui';
import en from '../../lib/i18n/locales/en.json';
import type { TestServer } from '../support/server';
import { renderWith, violationsIn } from './support/auth';
import { loggedInOn, startRealServer } from './support/realServer';

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

async function loggedIn() {
  const session = await loggedInOn(server);
  opened.push(session.fanstage);
  await session.fanstage.profiles.load(session.account.username);
  return session;
}

/** A real PNG: the server decodes it, so a fake header would not do. */
async function png(width: number, height: number): Promise<File> {
  const bytes = await sharp({ create: { width, height, channels: 3, background: { r: 200, g: 60, b: 90 } } }).png().toBuffer();
  return new File([new Uint8Array(bytes)], 'me.png', { type: 'image/png' });
}

describe('AvatarUpload against the real server', { timeout: 20_000 }, () => {
  it('uploads a picture, and the profile store shows the new avatar at once', async () => {
    const { account, fanstage } = await loggedIn();
    expect(fanstage.profiles.get(account.username).profile.value?.avatarMedia).toBeNull();
    const { container } = renderWith(fanstage, <AvatarUpload />);
    const user = userEvent.setup();
    const input = screen.getByLabelText('Choose a picture');
    expect(input).toHaveAttribute('accept', expect.stringContaining('image/*'));
    expect(input.getAttribute('accept')).toContain('.heic');
    await user.upload(input, await png(640, 480));
    expect(screen.getByText('Chosen: me.png')).toBeInTheDocument();
    expect(await violationsIn(container)).toEqual([]);
    await user.click(screen.getByRole('button', { name: 'Save' }));

    expect(await screen.findByText(en.avatarUpload.saved, {}, { timeout: 10_000 })).toBeInTheDocument();
    const avatar = fanstage.profiles.get(account.username).profile.value?.avatarMedia;
    expect(avatar?.mediaHash).toMatch(/\w+/);
    expect(fanstage.session.account.value?.avatarMedia?.mediaHash).toBe(avatar?.mediaHash);
    const fresh = await createFanstage({ baseUrl: server.baseUrl }).api.user(account.id);
    expect(fresh.avatarMedia?.mediaHash).toBe(avatar?.mediaHash);
    await waitFor(() => expect(screen.getByRole('img', { name: 'Your current profile picture' }).getAttribute('src')).toContain(`${avatar?.mediaHash}.webp?t=500`));
  });

  it('refuses a text file named like a picture, with the server’s reason', async () => {
    const { account, fanstage } = await loggedIn();
    renderWith(fanstage, <AvatarUpload />);
    const user = userEvent.setup({ applyAccept: false });
    await user.upload(screen.getByLabelText('Choose a picture'), new File(['not a picture'], 'photo.jpg', { type: 'image/jpeg' }));
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(en.errors.wrong_media_type);
    expect(fanstage.profiles.get(account.username).profile.value?.avatarMedia).toBeNull();
  });

  it('refuses a picture too small for the 120 px size', async () => {
    const { fanstage } = await loggedIn();
    renderWith(fanstage, <AvatarUpload />);
    const user = userEvent.setup();
    await user.upload(screen.getByLabelText('Choose a picture'), await png(100, 300));
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByRole('alert', {}, { timeout: 8000 })).toHaveTextContent(en.errors.lowRes);
  });
});
