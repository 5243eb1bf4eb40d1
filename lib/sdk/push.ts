import type { DeviceBody } from '../contract/push';
import type { FanstageClient } from './client';
import { SdkError } from './errors';
import type { SessionStore } from './stores/session';
import type { SettingsStore } from './stores/settings';

/** What `register()` came to: the browser now gets pushes, or the person said no. */
export type PushOutcome = 'registered' | 'denied';

export interface PushApi {
  /** Whether this browser can receive web push at all (service workers, PushManager, notifications). */
  supported(): boolean;
  /** The browser's notification permission, or `unsupported`. */
  permission(): NotificationPermission | 'unsupported';
  /**
   * Asks the browser for permission (its own dialog, unless already answered), subscribes with
   * the platform's VAPID key (`pushPubKey` of the settings) through the service worker at
   * `serviceWorkerUrl` (default `/sw.js`, which the reference site serves), and gives the
   * subscription to the server (POST /api/device). Rejects with an SdkError `push_error` when
   * the browser or the server fails.
   */
  register(options?: { serviceWorkerUrl?: string }): Promise<PushOutcome>;
  /**
   * Gives a subscription made elsewhere to the server, as `register` does after subscribing: for
   * hosts that manage their own service worker.
   */
  registerSubscription(subscription: PushSubscriptionJSON | DeviceBody): Promise<void>;
  /** Stops pushes to this browser: the subscription is dropped here and on the server. */
  unregister(): Promise<void>;
}

function pushError(cause: unknown): SdkError {
  return cause instanceof SdkError ? cause : new SdkError({ code: 'push_error', statusCode: -1, cause });
}

/** The VAPID public key (base64url) as `PushManager.subscribe` takes it. */
function keyBytes(base64url: string): Uint8Array<ArrayBuffer> {
  const base64 = base64url.replace(/-/g, '+').replace(/_/g, '/');
  const raw = atob(base64 + '='.repeat((4 - (base64.length % 4)) % 4));
  const bytes = new Uint8Array(new ArrayBuffer(raw.length));
  for (let i = 0; i < raw.length; i += 1) bytes[i] = raw.charCodeAt(i);
  return bytes;
}

export function createPushApi(client: FanstageClient, settings: SettingsStore, session: SessionStore): PushApi {
  const supported = () =>
    typeof window !== 'undefined' && typeof navigator !== 'undefined' && 'serviceWorker' in navigator && 'PushManager' in window && 'Notification' in window;

  async function send(subscription: PushSubscriptionJSON | DeviceBody): Promise<void> {
    const { endpoint, keys } = subscription;
    if (!endpoint || !keys?.p256dh || !keys.auth) throw new SdkError({ code: 'push_error', statusCode: -1 });
    await client.post('/api/device', { endpoint, keys: { p256dh: keys.p256dh, auth: keys.auth } });
    // The account's isPushRegistered follows.
    await session.loadAccount().catch(() => undefined);
  }

  return {
    supported,
    permission: () => (supported() ? Notification.permission : 'unsupported'),

    async register(options = {}) {
      if (!supported()) throw new SdkError({ code: 'push_error', statusCode: -1 });
      try {
        const permission = Notification.permission === 'default' ? await Notification.requestPermission() : Notification.permission;
        if (permission !== 'granted') return 'denied';
        const { pushPubKey } = await settings.load();
        if (!pushPubKey) throw new SdkError({ code: 'push_error', statusCode: -1 });
        await navigator.serviceWorker.register(options.serviceWorkerUrl ?? '/sw.js');
        const registration = await navigator.serviceWorker.ready;
        const subscription =
          (await registration.pushManager.getSubscription()) ??
          (await registration.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: keyBytes(pushPubKey) }));
        await send(subscription.toJSON());
        return 'registered';
      } catch (error) {
        throw pushError(error);
      }
    },

    async registerSubscription(subscription) {
      try {
        await send(subscription);
      } catch (error) {
        throw pushError(error);
      }
    },

    async unregister() {
      if (!supported()) return;
      const registration = await navigator.serviceWorker.getRegistration();
      const subscription = await registration?.pushManager.getSubscription();
      if (!subscription) return;
      await client.request('DELETE', '/api/device', { body: { endpoint: subscription.endpoint } }).catch(() => undefined);
      await subscription.unsubscribe().catch(() => undefined);
      await session.loadAccount().catch(() => undefined);
    },
  };
}
