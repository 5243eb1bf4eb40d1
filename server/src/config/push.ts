/**
 * Web push settings: the VAPID identity (VAPID_PUBLIC_KEY, VAPID_PRIVATE_KEY, VAPID_SUBJECT) and
 * the push services a subscription's endpoint may name (PUSH_SERVICE_HOSTS).
 */
import { ConfigError, nonEmpty, type Env } from './env';

export interface PushSettings {
  /**
   * VAPID_PUBLIC_KEY and VAPID_PRIVATE_KEY (base64url, as `web-push generate-vapid-keys` prints
   * them), set together. Unset, the server makes a pair on first start and keeps it in the
   * database, so every node and every restart signs with the same one: a new key would orphan
   * every browser's subscription.
   */
  vapidPublicKey: string | undefined;
  vapidPrivateKey: string | undefined;
  /** VAPID_SUBJECT: how push services reach the operator, `mailto:` or `https:` (default mailto:SUPPORT_EMAIL). */
  subject: string;
  /**
   * PUSH_SERVICE_HOSTS: the host names a subscription's endpoint may name (comma-separated; `*.`
   * for a domain's subdomains). The server POSTs to that address, so anything else would let a
   * user make it call an internal one. The browsers' push services by default.
   */
  serviceHosts: string[];
}

/** The push services of Chrome, Edge, Firefox and Safari. */
export const defaultPushServiceHosts: readonly string[] = [
  'fcm.googleapis.com',
  'android.googleapis.com',
  '*.push.services.mozilla.com',
  '*.notify.windows.com',
  '*.push.apple.com',
];

export function pushSettings(env: Env, support: string): PushSettings {
  const vapidPublicKey = nonEmpty(env.VAPID_PUBLIC_KEY);
  const vapidPrivateKey = nonEmpty(env.VAPID_PRIVATE_KEY);
  if ((vapidPublicKey === undefined) !== (vapidPrivateKey === undefined)) {
    throw new ConfigError('VAPID_PUBLIC_KEY and VAPID_PRIVATE_KEY must be set together (or neither: the server then makes a pair and keeps it in the database).');
  }
  // An uncompressed P-256 point (65 bytes) and a scalar (32 bytes), base64url.
  if (vapidPublicKey !== undefined && !/^[A-Za-z0-9_-]{87}$/.test(vapidPublicKey)) throw new ConfigError('VAPID_PUBLIC_KEY must be a P-256 public key in base64url (87 characters).');
  if (vapidPrivateKey !== undefined && !/^[A-Za-z0-9_-]{43}$/.test(vapidPrivateKey)) throw new ConfigError('VAPID_PRIVATE_KEY must be a P-256 private key in base64url (43 characters).');
  const subject = nonEmpty(env.VAPID_SUBJECT) ?? `mailto:${support}`;
  if (!/^(mailto:[^@\s]+@[^@\s]+|https:\/\/[^/\s]+\S*)$/.test(subject)) {
    throw new ConfigError(`VAPID_SUBJECT must be a mailto: or https: address (got "${subject}").`);
  }
  const raw = nonEmpty(env.PUSH_SERVICE_HOSTS);
  const serviceHosts =
    raw === undefined
      ? [...defaultPushServiceHosts]
      : raw
          .split(',')
          .map((host) => host.trim().toLowerCase())
          .filter(Boolean);
  for (const host of serviceHosts) {
    if (!/^(\*\.)?[a-z0-9-]+(\.[a-z0-9-]+)+$/.test(host)) throw new ConfigError(`PUSH_SERVICE_HOSTS must list host names such as fcm.googleapis.com or *.push.apple.com (got "${host}").`);
  }
  return { vapidPublicKey, vapidPrivateKey, subject, serviceHosts };
}
