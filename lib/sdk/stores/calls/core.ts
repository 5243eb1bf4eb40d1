/**
 * What the calls store's parts share of it: the call on the page (`state`, `current`) and the
 * moves that every part makes the same way (begin, end, tear down, send). Internal.
 */
import { effect, type Signal } from '@preact/signals-core';
import type { CallEndReason, CallStatusCode } from '../../../contract';
import type { CallMessageBodies } from '../../../contract/calls';
import type { CallMessageType } from '../../../contract/realtime';
import type { CallsApi } from '../../api-calls';
import type { FanstageClient } from '../../client';
import type { SdkError } from '../../errors';
import type { FanstageSocket } from '../../socket';
import type { SettingsStore } from '../settings';
import { newLink, type CallConnection, type CallLink } from './connection';
import type { CallAction } from './machine';
import type { CallMedia } from './media';
import type { CallDirection, CallProblem, CallSession, CallsDeps, CallTimers, CallTotals } from './types';

/** One call on the page: its connection, and who is on the other side. */
export interface CallScope extends CallLink {
  readonly peerId: number;
  /** The page answered (or placed) this call. */
  ownedHere: boolean;
  lineSerial: number;
}

export interface CallCore {
  client: FanstageClient;
  api: CallsApi;
  socket: FanstageSocket;
  session: CallsDeps['session'];
  settings: SettingsStore;
  media: CallMedia;
  connection: CallConnection;
  current: Signal<CallSession | null>;
  problem: Signal<CallProblem | null>;
  error: Signal<SdkError | null>;
  now(): number;
  /** How long a ring waits beyond the server's ring timeout. */
  ringGraceMs: number;
  /** The call on the page, or null. */
  state(): CallScope | null;
  newScope(callId: string, direction: CallDirection, peerId: number, ownedHere: boolean): CallScope;
  /** Makes `s` the call on the page, nothing of the last one showing. */
  begin(s: CallScope, action: Extract<CallAction, { type: 'dial' | 'rang' }>, offline: boolean): void;
  dispatch(action: CallAction): void;
  teardown(): void;
  end(reason: CallEndReason, fields?: { status?: CallStatusCode | null; totals?: CallTotals | null }): void;
  dismiss(): void;
  /** Sends to the other side of `to` (default the call on the page); false when it cannot. */
  send<T extends CallMessageType>(type: T, body: T extends keyof CallMessageBodies ? CallMessageBodies[T] : never, to?: { callId: string; peerId: number } | null, confirmation?: string): boolean;
  /** Resolves whether the realtime connection is open, connecting it when nobody has yet. */
  socketOpen(timeoutMs: number): Promise<boolean>;
}

/** A call id: 22 random base64url characters (132 bits), as the server expects. */
export function newCallId(): string {
  const bytes = new Uint8Array(18);
  const c = globalThis.crypto;
  if (c && typeof c.getRandomValues === 'function') c.getRandomValues(bytes);
  else for (let i = 0; i < bytes.length; i++) bytes[i] = Math.floor(Math.random() * 256);
  let binary = '';
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

/** A new call's scope; its timers fire only while `active()` (the call is still the page's). */
export function newCallScope(callId: string, direction: CallDirection, peerId: number, ownedHere: boolean, active: () => boolean): CallScope {
  const pending = new Set<ReturnType<typeof setTimeout>>();
  const timers: CallTimers = {
    add(fn, ms) {
      const timer = setTimeout(() => {
        pending.delete(timer);
        if (active()) fn();
      }, ms);
      pending.add(timer);
    },
    clear() {
      for (const timer of pending) clearTimeout(timer);
      pending.clear();
    },
  };
  return { ...newLink(callId, direction, timers), peerId, ownedHere, lineSerial: 0 };
}

/** Resolves whether the realtime connection is open within `timeoutMs`, connecting it when nobody has yet. */
export function socketOpen(socket: FanstageSocket, session: CallsDeps['session'], timeoutMs: number): Promise<boolean> {
  if (socket.connectedState.peek() === 'open') return Promise.resolve(true);
  const before = socket.connectedState.peek();
  if ((before === 'idle' || before === 'closed') && session.isLoggedIn.peek()) socket.connect();
  return new Promise((resolve) => {
    let stop: (() => void) | null = null;
    let done = false;
    const finish = (open: boolean) => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      // Disposed after this run of the effect has finished.
      queueMicrotask(() => stop?.());
      resolve(open);
    };
    const timer = setTimeout(() => finish(false), timeoutMs);
    stop = effect(() => {
      if (socket.connectedState.value === 'open') finish(true);
    });
  });
}
