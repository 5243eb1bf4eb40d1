import { afterEach, describe, expect, it, vi } from 'vitest';
import { hasBeenActivated, playSound, whenActivated } from '../../lib/ui/sound';

/**
 * Browsers refuse Web Audio until the person has interacted with the page, and say so in the
 * console at every try ("The AudioContext was not allowed to start"). The ring waits for that
 * first click or key. `navigator.userActivation` is the browser's own word; jsdom has none, so
 * each test gives it one it controls, and an AudioContext that counts what is made.
 */

const activation = { hasBeenActive: false };
const ownAudioContext = window.AudioContext;
const made = vi.fn();

function withBrowser(): void {
  Object.defineProperty(navigator, 'userActivation', { configurable: true, get: () => activation });
  class CountingContext {
    state = 'running';
    currentTime = 0;
    destination = {};
    constructor() {
      made();
    }
    createOscillator() {
      return { type: '', frequency: { setValueAtTime() {} }, connect: (node: unknown) => node, start() {}, stop() {} };
    }
    createGain() {
      const gain = { gain: { setValueAtTime() {}, exponentialRampToValueAtTime() {} }, connect: (node: unknown) => node };
      return gain;
    }
  }
  vi.stubGlobal('AudioContext', CountingContext);
  window.AudioContext = CountingContext as unknown as typeof AudioContext;
}

afterEach(() => {
  activation.hasBeenActive = false;
  made.mockReset();
  Reflect.deleteProperty(navigator, 'userActivation');
  vi.unstubAllGlobals();
  window.AudioContext = ownAudioContext;
});

describe('the ring and the first user activation', () => {
  it('makes no AudioContext before the page was touched, and waits for the first click or key to start', () => {
    withBrowser();
    expect(hasBeenActivated()).toBe(false);
    expect(playSound('ring')).toBe(false);
    expect(made).not.toHaveBeenCalled();

    const ring = vi.fn(() => playSound('ring'));
    whenActivated(ring);
    // Escape is no activation in browsers: still waiting.
    window.dispatchEvent(new KeyboardEvent('keydown', { key: 'Escape' }));
    expect(ring).not.toHaveBeenCalled();

    activation.hasBeenActive = true;
    window.dispatchEvent(new Event('pointerdown'));
    expect(ring).toHaveBeenCalledTimes(1);
    expect(ring).toHaveLastReturnedWith(true);
    // Once: a second click starts nothing more.
    window.dispatchEvent(new Event('pointerdown'));
    expect(ring).toHaveBeenCalledTimes(1);
  });

  it('starts at once on a page already touched, and a ring that stopped before the first click never starts', () => {
    withBrowser();
    const early = vi.fn();
    const stop = whenActivated(early);
    stop();
    activation.hasBeenActive = true;
    window.dispatchEvent(new Event('keydown'));
    expect(early).not.toHaveBeenCalled();

    const now = vi.fn();
    whenActivated(now);
    expect(now).toHaveBeenCalledTimes(1);
  });
});
