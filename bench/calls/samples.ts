// What the calls benchmark reads from its pages (bench/calls.ts): the notes the probe keeps in
// each page (bench/calls/probe.ts), the time to each page's first remote frame after the accept
// click, and the breakdown of that time into the steps of a call, for our call and the bare
// pair alike; and the median the summary prints.
import type { Page } from '@playwright/test';
import type { BenchNotes } from './probe';

export const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
};

export const notesOf = (page: Page) => page.evaluate('window.__benchCalls ?? null') as Promise<BenchNotes | null>;

/** When the page's remote video presented its first decoded frame (wall-clock ms). */
async function firstFrame(page: Page): Promise<number> {
  // Polled from here (the site's CSP forbids a string predicate in the page); the probe keeps the time.
  const deadline = Date.now() + 30_000;
  while (Date.now() < deadline) {
    const at = (await notesOf(page))?.firstFrameAt ?? null;
    if (at !== null) return at;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`no remote frame on ${page.url()} within 30 s`);
}

export interface Sample {
  /** Accept → first remote frame on the callee's page (the creator, the one who accepted). */
  callee: number;
  /** Accept → first remote frame on the caller's page (the fan). */
  caller: number;
  /** Where the time went: milliseconds after the accept click of each step (see `steps`). */
  steps: Record<string, number>;
}

/**
 * The steps of the breakdown, in the order they happen: [name, whose page, the probe's events
 * that mark it — ours, then the bare pair's names where they differ].
 */
export const steps: [string, 'callee' | 'caller', string[]][] = [
  ['callee has the camera', 'callee', ['camera']],
  ['callee says accept', 'callee', ['ws> preAnswer', 'ws> accept']],
  ['caller may start (callStart / accept)', 'caller', ['ws< callStart', 'ws< accept']],
  ['caller makes its peer', 'caller', ['peer']],
  ['caller sends the offer', 'caller', ['ws> rtcOffer', 'ws> signal offer']],
  ['callee gets the offer', 'callee', ['ws< rtcOffer', 'ws< signal offer']],
  ['callee makes its peer', 'callee', ['peer']],
  ['callee sends the answer', 'callee', ['ws> rtcOffer', 'ws> signal answer']],
  ['caller gets the answer', 'caller', ['ws< rtcOffer', 'ws< signal answer']],
  ['callee ICE connected', 'callee', ['ice:connected']],
  ['caller ICE connected', 'caller', ['ice:connected']],
  ['callee has the remote track', 'callee', ['track']],
  ['caller has the remote track', 'caller', ['track']],
  ['callee video gets the stream', 'callee', ['remote video attached']],
  ['caller video gets the stream', 'caller', ['remote video attached']],
];

/** Reads both pages' notes once both have their first frame. */
export async function sampleOf(caller: Page, callee: Page): Promise<Sample> {
  await Promise.all([firstFrame(callee), firstFrame(caller)]);
  const [calleeNotes, callerNotes] = (await Promise.all([notesOf(callee), notesOf(caller)])) as [BenchNotes, BenchNotes];
  const accepted = calleeNotes.clickAt;
  if (accepted === null) throw new Error('the accept click was not seen');
  if (process.env.BENCH_CALL_TRACE) {
    // Every noted event of both pages after the accept click, in order (BENCH_CALL_TRACE=1).
    const all = [
      ...calleeNotes.events.map(([what, at]) => [at - accepted, `callee ${what}`] as const),
      ...callerNotes.events.map(([what, at]) => [at - accepted, `caller ${what}`] as const),
      [calleeNotes.firstFrameAt! - accepted, 'callee first frame'] as const,
      [callerNotes.firstFrameAt! - accepted, 'caller first frame'] as const,
    ]
      .filter(([at]) => at >= 0)
      .sort((a, b) => a[0] - b[0]);
    console.log(all.map(([at, what]) => `    ${at.toFixed(0).padStart(6)} ms  ${what}`).join('\n'));
  }
  const stepTimes: Record<string, number> = {};
  for (const [name, whose, event] of steps) {
    const found = (whose === 'callee' ? calleeNotes : callerNotes).events.find(([what, at]) => at >= accepted && event.includes(what));
    stepTimes[name] = found ? found[1] - accepted : Number.NaN;
  }
  return { callee: calleeNotes.firstFrameAt! - accepted, caller: callerNotes.firstFrameAt! - accepted, steps: stepTimes };
}
