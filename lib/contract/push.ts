import { Type, type Static } from 'typebox';
import { Timestamp } from './bounds';

/**
 * POST /api/device: the browser's PushSubscription, as `subscription.toJSON()` gives it. The
 * server checks the endpoint (a known push service; a loopback address only outside
 * production) and the keys (a P-256 point of 65 bytes, an auth secret of 16 bytes).
 */
export const DeviceBody = Type.Object(
  {
    endpoint: Type.String({ minLength: 10, maxLength: 1000 }),
    /** Epoch ms when the browser lets the subscription lapse, if it says. */
    expirationTime: Type.Optional(Type.Union([Timestamp(), Type.Null()])),
    keys: Type.Object(
      {
        p256dh: Type.String({ minLength: 80, maxLength: 100, pattern: '^[A-Za-z0-9_-]+=*$' }),
        auth: Type.String({ minLength: 16, maxLength: 32, pattern: '^[A-Za-z0-9_-]+=*$' }),
      },
      { additionalProperties: false },
    ),
  },
  { additionalProperties: false },
);
export type DeviceBody = Static<typeof DeviceBody>;

/** DELETE /api/device: stop pushing to this browser (its subscription's endpoint). */
export const DeviceRemoveBody = Type.Object({ endpoint: Type.String({ minLength: 10, maxLength: 1000 }) }, { additionalProperties: false });
export type DeviceRemoveBody = Static<typeof DeviceRemoveBody>;

/** What kind of event a push tells of. */
export type PushKind = 'chatMessage' | 'incomingCall' | 'callEnded' | 'gift' | 'newSubscriber';

/** A button on an incoming call's notification; the service worker acts on it (docs/push.md). */
export interface PushAction {
  action: 'accept' | 'decline';
  /** The button's text, in the recipient's language. */
  title: string;
}

/**
 * The decrypted payload of a web push, as the site's service worker (/sw.js) reads it: what to
 * show, whether silently (the user muted sounds, `notificationSound` 2), and where a click goes.
 */
export interface PushPayload {
  kind: PushKind;
  title: string;
  body: string;
  icon: string;
  /** Same-origin path to open, e.g. `/chat/lucy.rivers`. */
  url: string;
  /** Pushes with one tag replace each other (one per conversation, one per call). */
  tag: string;
  silent: boolean;
  /** The recipient's language (`appLanguage`): `en` or `cs`. */
  lang: 'en' | 'cs';
  /**
   * `incomingCall` and `callEnded`: the call's id — a name, not a key: answering or declining
   * it still takes the recipient's own session, and the server refuses a call that is over.
   */
  callId?: string;
  /** `incomingCall`: Accept and Decline. */
  actions?: PushAction[];
  /**
   * `callEnded`: the ring stopped. True when nobody answered (missed, or the caller gave up):
   * the ringing notification becomes a quiet "Missed call" with this title and body; false
   * (declined, answered, on any device) closes it and shows nothing.
   */
  missed?: boolean;
}
