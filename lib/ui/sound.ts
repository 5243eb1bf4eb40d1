/**
 * The short success and error sounds (SPEC §8: "success sound unless muted", "error sound"),
 * made with the Web Audio API so no audio file is downloaded. A person whose
 * `notificationSound` is 2 has muted sounds and hears nothing.
 */

/** `ring` is one ring of an incoming call (repeat it while it rings); `cash` and `end` close a call (SPEC §4). */
export type SoundKind = 'success' | 'error' | 'ring' | 'cash' | 'end';

/** SPEC §3 `notificationSound`: 2 is muted. */
export const MUTED_SOUND = 2;

export function isMuted(account: { notificationSound?: number } | null | undefined): boolean {
  return account?.notificationSound === MUTED_SOUND;
}

type AudioContextClass = typeof AudioContext;

let context: AudioContext | null = null;

/** Seen here, for browsers without `navigator.userActivation`. */
let activatedHere = false;
/** The events that give a page its user activation (HTML's "activation-triggering input events"). */
const activationEvents = ['pointerdown', 'pointerup', 'mousedown', 'keydown', 'touchend'] as const;

if (typeof window !== 'undefined' && typeof navigator !== 'undefined' && !('userActivation' in navigator)) {
  const seen = (event: Event) => {
    if (event instanceof KeyboardEvent && event.key === 'Escape') return;
    activatedHere = true;
    for (const type of activationEvents) window.removeEventListener(type, seen, true);
  };
  for (const type of activationEvents) window.addEventListener(type, seen, true);
}

/**
 * Whether the person has interacted with this page yet (a click, a tap, a key). Until then a
 * browser refuses to start Web Audio — and says so in the console each time it is tried — so
 * nothing here tries.
 */
export function hasBeenActivated(): boolean {
  if (typeof navigator === 'undefined') return false;
  const activation = (navigator as Navigator & { userActivation?: { hasBeenActive: boolean } }).userActivation;
  return activation ? activation.hasBeenActive : activatedHere;
}

/**
 * Runs `then` once the page has its first user activation — at once when it has one already.
 * Returns a function that stops waiting. A ring that comes to a page nobody has touched since it
 * loaded starts with the person's first click or key there.
 */
export function whenActivated(then: () => void): () => void {
  if (typeof window === 'undefined') return () => undefined;
  if (hasBeenActivated()) {
    then();
    return () => undefined;
  }
  const stop = () => {
    for (const type of activationEvents) window.removeEventListener(type, check, true);
  };
  // Listened to in the capture phase, so a page that stops the event still lets the ring start.
  function check() {
    if (!hasBeenActivated()) return;
    stop();
    then();
  }
  for (const type of activationEvents) window.addEventListener(type, check, true);
  return stop;
}

function audioContext(): AudioContext | null {
  if (context) return context;
  // Made only after the first user activation: before it, the browser would make a suspended
  // one and warn ("The AudioContext was not allowed to start") at every ring.
  if (!hasBeenActivated()) return null;
  const Ctor: AudioContextClass | undefined =
    typeof window === 'undefined' ? undefined : (window.AudioContext ?? (window as unknown as { webkitAudioContext?: AudioContextClass }).webkitAudioContext);
  if (!Ctor) return null;
  try {
    context = new Ctor();
  } catch {
    return null;
  }
  return context;
}

/** Notes (Hz) and their lengths (s): a rising pair for success, a falling low pair for an error. */
const melodies: Record<SoundKind, ReadonlyArray<readonly [number, number]>> = {
  success: [
    [880, 0.09],
    [1318.5, 0.16],
  ],
  error: [
    [311, 0.12],
    [233, 0.2],
  ],
  ring: [
    [660, 0.18],
    [880, 0.18],
    [660, 0.18],
    [880, 0.3],
  ],
  cash: [
    [1046.5, 0.07],
    [1318.5, 0.07],
    [1568, 0.07],
    [2093, 0.22],
  ],
  end: [
    [523.3, 0.14],
    [392, 0.26],
  ],
};

/**
 * Plays a sound unless `muted`. Returns whether one was started: browsers without Web Audio,
 * and pages nobody has interacted with yet (see `whenActivated`), stay silent.
 */
export function playSound(kind: SoundKind, options: { muted?: boolean } = {}): boolean {
  if (options.muted) return false;
  const ctx = audioContext();
  if (!ctx) return false;
  try {
    if (ctx.state === 'suspended') void ctx.resume().catch(() => undefined);
    let at = ctx.currentTime + 0.01;
    for (const [frequency, length] of melodies[kind]) {
      const oscillator = ctx.createOscillator();
      const gain = ctx.createGain();
      oscillator.type = kind === 'error' || kind === 'end' ? 'triangle' : 'sine';
      oscillator.frequency.setValueAtTime(frequency, at);
      // A quick fade in and out, so the notes do not click.
      gain.gain.setValueAtTime(0.0001, at);
      gain.gain.exponentialRampToValueAtTime(0.18, at + 0.015);
      gain.gain.exponentialRampToValueAtTime(0.0001, at + length);
      oscillator.connect(gain).connect(ctx.destination);
      oscillator.start(at);
      oscillator.stop(at + length + 0.02);
      at += length * 0.9;
    }
    return true;
  } catch {
    return false;
  }
}
