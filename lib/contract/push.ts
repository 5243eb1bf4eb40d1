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
export type PushKind = 'chatMessage' | 'incomingCall' | 'gift' | 'newSubscriber';

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
}
