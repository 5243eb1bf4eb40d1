import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import ffmpegInstaller from '@ffmpeg-installer/ffmpeg';
import { expect, test, type Page } from '@playwright/test';
import sharp from 'sharp';
import { viewports } from './support';
import { jpeg, signUpVerifiedFan } from './postsSupport';

const messages = {
  lowRes: 'The picture is too small. Choose one at least 400 pixels wide and high.',
  format: 'This file could not be read. Choose a photo or a video in a common format.',
  tooLong: 'This video is too long. Videos can be at most 35 minutes.',
};

/**
 * A real 35-minute-and-one-second video: one still frame a second at 160 × 120 encodes in a
 * second or two, and is small enough to upload.
 */
async function longVideo(): Promise<Buffer> {
  const dir = await mkdtemp(path.join(tmpdir(), 'fanstage-long-'));
  const file = path.join(dir, 'long.mp4');
  try {
    await promisify(execFile)(ffmpegInstaller.path, [
      '-v', 'error', '-y', '-f', 'lavfi', '-i', 'color=c=teal:size=160x120:rate=1', '-t', '2101',
      '-c:v', 'libx264', '-preset', 'ultrafast', '-pix_fmt', 'yuv420p', file,
    ]);
    return await readFile(file);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

async function pick(page: Page, open: () => Promise<void>, file: { name: string; mimeType: string; buffer: Buffer }) {
  const chooser = page.waitForEvent('filechooser');
  await open();
  await (await chooser).setFiles(file);
}

/**
 * SPEC §5 and §8 in the browser: the editor checks a file before sending it and names the
 * cause in the upload error popup.
 */
test('the editor refuses a 300 × 300 picture, a text file named .jpg and a video over 35 minutes, each with the spec’s message', async ({ page }) => {
  await page.setViewportSize(viewports.tablet);
  await signUpVerifiedFan(page, 'uploadfan');
  await page.goto('/new-post');
  await expect(page.getByRole('heading', { level: 1, name: 'New post' })).toBeVisible();

  await pick(page, () => page.getByRole('button', { name: 'Choose a photo or video' }).click(), { name: 'small.jpg', mimeType: 'image/jpeg', buffer: await jpeg(300, 300) });
  const popup = page.getByRole('dialog', { name: "This file can't be used" });
  await expect(popup).toBeVisible();
  await expect(popup).toContainText(messages.lowRes);

  // 'Choose other media' opens the picker again.
  await pick(page, () => popup.getByRole('button', { name: 'Choose other media' }).click(), { name: 'notes.jpg', mimeType: 'image/jpeg', buffer: Buffer.from('These are my notes, not a picture.\n') });
  await expect(popup).toBeVisible();
  await expect(popup).toContainText(messages.format);

  // A video of 2101 s: measured in the browser when it can play it, else refused by the server; the same message either way.
  await pick(page, () => popup.getByRole('button', { name: 'Choose other media' }).click(), { name: 'long.mp4', mimeType: 'video/mp4', buffer: await longVideo() });
  await expect(popup).toBeVisible();
  await expect(popup).toContainText(messages.tooLong);

  // Cancel closes the popup and leaves the editor as it was.
  await popup.getByRole('button', { name: 'Cancel' }).click();
  await expect(popup).toBeHidden();
  await expect(page.getByRole('button', { name: 'Post', exact: true })).toBeDisabled();
});

test('a picture dropped on the timeline opens the editor, which checks it', async ({ page }) => {
  await page.setViewportSize(viewports.web);
  await signUpVerifiedFan(page, 'dropfan');
  await page.goto('/timeline');
  const timeline = page.getByTestId('timeline');
  await expect(timeline).toBeVisible();

  const bytes = (await jpeg(300, 300)).toString('base64');
  const transfer = await page.evaluateHandle((base64) => {
    const data = Uint8Array.from(atob(base64), (c) => c.charCodeAt(0));
    const dt = new DataTransfer();
    dt.items.add(new File([data], 'dropped.jpg', { type: 'image/jpeg' }));
    return dt;
  }, bytes);
  await timeline.dispatchEvent('dragenter', { dataTransfer: transfer });
  await expect(page.getByText('Drop a photo or a video here to post it')).toBeVisible();
  await timeline.dispatchEvent('drop', { dataTransfer: transfer });

  await expect(page).toHaveURL('/new-post');
  const popup = page.getByRole('dialog', { name: "This file can't be used" });
  await expect(popup).toContainText(messages.lowRes);
});

/** A photo of noise: JPEG cannot squeeze it, so it is large enough to upload in many steps. */
function noisyJpeg(width: number, height: number): Promise<Buffer> {
  const pixels = Buffer.alloc(width * height * 3);
  for (let i = 0; i < pixels.length; i++) pixels[i] = Math.floor(Math.random() * 256);
  return sharp(pixels, { raw: { width, height, channels: 3 } }).jpeg({ quality: 95 }).toBuffer();
}

test('the editor shows the upload going up step by step to the real server, then the photo is ready', async ({ page }) => {
  test.setTimeout(60_000);
  await page.setViewportSize(viewports.tablet);
  await signUpVerifiedFan(page, 'progressfan');
  await page.goto('/new-post');
  await expect(page.getByRole('heading', { level: 1, name: 'New post' })).toBeVisible();
  const photo = await noisyJpeg(900, 700);
  expect(photo.length).toBeGreaterThan(600_000);

  // Every value the progress bar shows, sampled each frame: the test only watches.
  await page.evaluate(() => {
    const seen: number[] = [];
    (window as unknown as { progressSeen: number[] }).progressSeen = seen;
    const sample = () => {
      const bar = document.querySelector('progress');
      if (bar && seen.at(-1) !== bar.value) seen.push(bar.value);
      requestAnimationFrame(sample);
    };
    requestAnimationFrame(sample);
  });
  // Loopback would take the bytes in one go: the browser's own network throttling makes the
  // upload last a few seconds, as on a real connection (about 300 KB/s up).
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Network.enable');
  await cdp.send('Network.emulateNetworkConditions', { offline: false, latency: 0, downloadThroughput: -1, uploadThroughput: 300 * 1024 });

  await pick(page, () => page.getByRole('button', { name: 'Choose a photo or video' }).click(), { name: 'noise.jpg', mimeType: 'image/jpeg', buffer: photo });
  await expect(page.getByText('Ready to post')).toBeVisible({ timeout: 30_000 });

  const seen = await page.evaluate(() => (window as unknown as { progressSeen: number[] }).progressSeen);
  test.info().annotations.push({ type: 'progress seen', description: JSON.stringify(seen) });
  const between = seen.filter((value) => value > 0 && value < 100);
  expect(new Set(between).size, JSON.stringify(seen)).toBeGreaterThanOrEqual(3);
  expect(seen, 'never goes back').toEqual([...seen].sort((a, b) => a - b));
  expect(seen.at(-1)).toBe(100);
});
