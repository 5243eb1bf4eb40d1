import { expect, type Page } from '@playwright/test';
import { chromiumArgs } from './browsers';

/**
 * What the call journeys share: the full Chromium's flags for fake camera and microphone on
 * loopback, the candidate filter that keeps WebRTC on this machine, and the check that the
 * other side's video plays.
 */

/** The flags of a browser in a call: fake devices, allowed without asking, loopback, sound without a gesture. */
export const launchArgs = [
  ...chromiumArgs,
  '--use-fake-device-for-media-stream',
  '--use-fake-ui-for-media-stream',
  '--allow-loopback-in-peer-connection',
  '--autoplay-policy=no-user-gesture-required',
];

/** Only loopback candidates reach the other side (runs in the page, before its scripts). */
export function loopbackOnly() {
  const proto = window.RTCPeerConnection.prototype;
  const native = Object.getOwnPropertyDescriptor(proto, 'onicecandidate');
  if (!native?.get || !native.set) return;
  const { get, set } = native;
  Object.defineProperty(proto, 'onicecandidate', {
    configurable: true,
    enumerable: native.enumerable ?? true,
    get(this: RTCPeerConnection) {
      return get.call(this) as unknown;
    },
    set(this: RTCPeerConnection, handler: ((event: RTCPeerConnectionIceEvent) => unknown) | null) {
      set.call(
        this,
        handler
          ? (event: RTCPeerConnectionIceEvent) => {
              if (event.candidate && !/ 127\.0\.0\.1 /.test(event.candidate.candidate)) return;
              handler(event);
            }
          : null,
      );
    },
  });
}

/** The remote video decodes: it has a size, and its frames advance. */
export async function expectRemoteVideoPlays(page: Page): Promise<void> {
  const video = page.getByTestId('call-remote-video');
  await expect(video).toBeVisible({ timeout: 20_000 });
  await expect.poll(() => video.evaluate((v: HTMLVideoElement) => v.videoWidth), { timeout: 20_000 }).toBeGreaterThan(0);
  const frames = () => video.evaluate((v: HTMLVideoElement) => v.getVideoPlaybackQuality().totalVideoFrames);
  const before = await frames();
  await expect.poll(frames, { timeout: 10_000 }).toBeGreaterThan(before);
}
