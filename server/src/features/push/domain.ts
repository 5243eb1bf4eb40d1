import type { PushKind, PushPayload } from '../../../../lib/contract/push';

/** A user's browsers that get pushes; registering one more drops the one unused the longest. */
export const MAX_DEVICES_PER_USER = 10;
/** How long a push service keeps an undelivered push (seconds): a day, as a chat is stale after it. */
export const PUSH_TTL_SECONDS = 24 * 60 * 60;
/** A push service that has not answered by then is given up on; the action it tells of is long done. */
export const PUSH_TIMEOUT_MS = 10_000;

export type PushLanguage = 'en' | 'cs';

export function pushLanguage(appLanguage: string | null | undefined): PushLanguage {
  return appLanguage?.toLowerCase().startsWith('cs') ? 'cs' : 'en';
}

const loopbackHosts = new Set(['127.0.0.1', '[::1]', 'localhost']);

/** Whether `host` is one of `allowed` (`*.example.com` covers example.com's subdomains, not itself). */
export function hostAllowed(host: string, allowed: readonly string[]): boolean {
  const name = host.toLowerCase();
  return allowed.some((entry) => (entry.startsWith('*.') ? name.endsWith(entry.slice(1)) && name.length > entry.length - 1 : name === entry));
}

/**
 * Why a subscription's endpoint is refused, or null when the server may POST to it.
 *
 * The endpoint is an address the server will call, given by a user: left open it would let
 * anyone make the server POST to an internal service (SSRF). So it must be https on the default
 * port, without credentials, at a host of PUSH_SERVICE_HOSTS (the browsers' push services).
 * Outside production a loopback address (http or https, any port) is accepted too, so tests and
 * a developer's machine can receive pushes without the internet; production never accepts one,
 * nor any IP address.
 */
export function endpointProblem(endpoint: string, options: { production: boolean; serviceHosts: readonly string[] }): string | null {
  let url: URL;
  try {
    url = new URL(endpoint);
  } catch {
    return 'not an address';
  }
  if (url.username !== '' || url.password !== '') return 'must not carry credentials';
  if (!options.production && loopbackHosts.has(url.hostname) && (url.protocol === 'http:' || url.protocol === 'https:')) return null;
  if (url.protocol !== 'https:') return 'must be https';
  if (url.port !== '') return 'must use the default port';
  if (!hostAllowed(url.hostname, options.serviceHosts)) return 'not a known push service';
  return null;
}

function base64urlBytes(value: string): number {
  return Buffer.from(value.replace(/=+$/, ''), 'base64url').length;
}

/** Why a subscription's keys cannot encrypt a push (RFC 8291), or null. */
export function keysProblem(keys: { p256dh: string; auth: string }): { field: string; reason: string } | null {
  const point = Buffer.from(keys.p256dh.replace(/=+$/, ''), 'base64url');
  if (point.length !== 65 || point[0] !== 4) return { field: 'keys.p256dh', reason: 'not an uncompressed P-256 public key' };
  if (base64urlBytes(keys.auth) !== 16) return { field: 'keys.auth', reason: 'not a 16-byte auth secret' };
  return null;
}

/** What happened, for the push's text; `fromUserId` is who did it. */
export type PushEvent =
  | { kind: 'chatMessage'; fromUserId: number; text: string; gift: boolean; media: boolean }
  | { kind: 'incomingCall'; fromUserId: number; callId: string }
  /** A call that rang the recipient stopped ringing: `missed` when nobody took or refused it. */
  | { kind: 'callEnded'; fromUserId: number; callId: string; missed: boolean }
  | { kind: 'gift'; fromUserId: number; postId: number | null }
  | { kind: 'newSubscriber'; fromUserId: number };

const texts: Record<PushLanguage, Record<PushKind, { title: string; body: string }> & { media: string; giftInChat: string; accept: string; decline: string }> = {
  en: {
    chatMessage: { title: '{{name}}', body: '{{text}}' },
    incomingCall: { title: 'Incoming call', body: '{{name}} is calling you' },
    callEnded: { title: 'Missed call', body: '{{name}} called you' },
    accept: 'Accept',
    decline: 'Decline',
    gift: { title: 'New gift', body: '{{name}} sent you a gift' },
    newSubscriber: { title: 'New subscriber', body: '{{name}} subscribed to you' },
    media: 'Sent you a photo or video',
    giftInChat: 'Sent you a gift',
  },
  cs: {
    chatMessage: { title: '{{name}}', body: '{{text}}' },
    incomingCall: { title: 'Příchozí hovor', body: '{{name}} vám volá' },
    callEnded: { title: 'Zmeškaný hovor', body: '{{name}} vám volal(a)' },
    accept: 'Přijmout',
    decline: 'Odmítnout',
    gift: { title: 'Nový dárek', body: '{{name}} vám poslal(a) dárek' },
    newSubscriber: { title: 'Nový předplatitel', body: '{{name}} si vás předplatil(a)' },
    media: 'Poslal(a) vám fotku nebo video',
    giftInChat: 'Poslal(a) vám dárek',
  },
};

/** A notification's text stays short: the push service and the lock screen have little room. */
const MAX_BODY = 140;

function clip(text: string): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length <= MAX_BODY ? flat : `${flat.slice(0, MAX_BODY - 1)}…`;
}

/** The payload a recipient's browsers get for `event`, in their language and muted when they muted sounds. */
export function pushPayload(
  event: PushEvent,
  from: { username: string; displayName: string },
  recipient: { appLanguage: string; notificationSound: number },
  icon: string,
): PushPayload {
  const lang = pushLanguage(recipient.appLanguage);
  const t = texts[lang];
  const fill = (template: string, values: Record<string, string>) => template.replace(/\{\{(\w+)\}\}/g, (_, key: string) => values[key] ?? '');
  const silent = recipient.notificationSound === 2;
  const name = from.displayName.trim() || from.username;
  const chatUrl = `/chat/${encodeURIComponent(from.username)}`;
  switch (event.kind) {
    case 'chatMessage': {
      const text = event.text.trim() !== '' ? event.text : event.gift ? t.giftInChat : event.media ? t.media : '';
      return { kind: 'chatMessage', title: fill(t.chatMessage.title, { name }), body: clip(text), icon, url: chatUrl, tag: `chat:${from.username}`, silent, lang };
    }
    case 'incomingCall':
      // The call's id names it for Accept and Decline; a click elsewhere opens the chat with the
      // caller, where the site rings while the call still does (`?call=`).
      return {
        kind: 'incomingCall',
        title: t.incomingCall.title,
        body: clip(fill(t.incomingCall.body, { name })),
        icon,
        url: `${chatUrl}?call=${encodeURIComponent(event.callId)}`,
        tag: `call:${event.callId}`,
        silent,
        lang,
        callId: event.callId,
        actions: [
          { action: 'accept', title: t.accept },
          { action: 'decline', title: t.decline },
        ],
      };
    case 'callEnded':
      // Always quiet: it replaces the ring, or closes it.
      return {
        kind: 'callEnded',
        title: t.callEnded.title,
        body: clip(fill(t.callEnded.body, { name })),
        icon,
        url: chatUrl,
        tag: `call:${event.callId}`,
        silent: true,
        lang,
        callId: event.callId,
        missed: event.missed,
      };
    case 'gift':
      return {
        kind: 'gift',
        title: t.gift.title,
        body: clip(fill(t.gift.body, { name })),
        icon,
        url: event.postId === null ? chatUrl : `/post/${event.postId}`,
        tag: `gift:${from.username}`,
        silent,
        lang,
      };
    case 'newSubscriber':
      return { kind: 'newSubscriber', title: t.newSubscriber.title, body: clip(fill(t.newSubscriber.body, { name })), icon, url: '/notifications', tag: `subscriber:${from.username}`, silent, lang };
  }
}
