import { and, asc, eq, inArray, isNull, notInArray, sql } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import webpush from 'web-push';
import type { DeviceBody } from '../../../../lib/contract/push';
import type { AppContext } from '../../context';
import { batched } from '../../db/batched';
import { pushDevices, serverKeys, users } from '../../db/schema';
import { errors } from '../../errors';
import { endpointProblem, keysProblem, MAX_DEVICES_PER_USER, PUSH_TIMEOUT_MS, PUSH_TTL_SECONDS, pushPayload, type PushEvent } from './domain';

export interface VapidKeys {
  publicKey: string;
  privateKey: string;
}

const VAPID_KEY_NAME = 'vapid';
/** The person a push is about (who wrote, who gave). */
const sender = alias(users, 'push_sender');
const keysOf = new WeakMap<object, Promise<VapidKeys>>();

/**
 * The server's VAPID key pair: VAPID_PUBLIC_KEY/VAPID_PRIVATE_KEY when configured, else the pair
 * kept in the database, made on the first start. The database, not the data folder: nodes
 * behind a load balancer share it, and they must all sign with the key the browsers subscribed
 * with. Two nodes starting together both try to insert; the first wins and both read it back.
 */
export function vapidKeys(ctx: AppContext): Promise<VapidKeys> {
  let keys = keysOf.get(ctx.db);
  if (keys === undefined) {
    keys = loadVapidKeys(ctx);
    // A failed load (database down) is tried again on the next call instead of being kept.
    keys.catch(() => keysOf.delete(ctx.db));
    keysOf.set(ctx.db, keys);
  }
  return keys;
}

async function loadVapidKeys(ctx: AppContext): Promise<VapidKeys> {
  const { vapidPublicKey, vapidPrivateKey } = ctx.config.push;
  if (vapidPublicKey !== undefined && vapidPrivateKey !== undefined) return { publicKey: vapidPublicKey, privateKey: vapidPrivateKey };
  const made = webpush.generateVAPIDKeys();
  await ctx.db
    .insert(serverKeys)
    .values({ name: VAPID_KEY_NAME, value: JSON.stringify(made) })
    .onConflictDoNothing();
  const [row] = await ctx.db.select({ value: serverKeys.value }).from(serverKeys).where(eq(serverKeys.name, VAPID_KEY_NAME)).limit(1);
  const kept = JSON.parse(row!.value) as VapidKeys;
  return { publicKey: kept.publicKey, privateKey: kept.privateKey };
}

export interface PushService {
  /** Stores the browser's subscription for the user and session; the same endpoint is replaced. */
  register(userId: number, sessionFamily: string | null, body: DeviceBody): Promise<void>;
  /** Forgets one of the user's browsers (by its endpoint); another user's is left alone. */
  remove(userId: number, endpoint: string): Promise<void>;
  /** Sends `event` to every browser of the user; resolves when done, never rejects. */
  send(userId: number, event: PushEvent): Promise<void>;
}

const services = new WeakMap<object, PushService>();

export function pushService(ctx: AppContext): PushService {
  const existing = services.get(ctx.db);
  if (existing !== undefined) return existing;
  const service = createPushService(ctx);
  services.set(ctx.db, service);
  return service;
}

/**
 * Pushes `event` to the user's browsers in the background: the action it tells of has happened
 * and answered already, and a slow or failing push service must never undo or delay it.
 */
export function pushTo(ctx: AppContext, userId: number, event: PushEvent): void {
  void pushService(ctx).send(userId, event);
}

function createPushService(ctx: AppContext): PushService {
  const { db, config, log } = ctx;
  const production = config.nodeEnv === 'production';

  const withDevices = batched<number, boolean>(async (userIds) => {
    const rows = await db.selectDistinct({ userId: pushDevices.userId }).from(pushDevices).where(inArray(pushDevices.userId, [...userIds]));
    return new Map(rows.map((row) => [row.userId, true]));
  });

  async function post(device: typeof pushDevices.$inferSelect, payload: string, keys: VapidKeys): Promise<void> {
    const host = new URL(device.endpoint).host;
    // Checked again on every send: a row stored under a looser configuration (a development
    // database taken to production, a host taken off PUSH_SERVICE_HOSTS) is dropped, not called.
    if (endpointProblem(device.endpoint, { production, serviceHosts: config.push.serviceHosts }) !== null) {
      await db.delete(pushDevices).where(eq(pushDevices.id, device.id));
      return;
    }
    const details = webpush.generateRequestDetails({ endpoint: device.endpoint, keys: { p256dh: device.p256dh, auth: device.auth } }, payload, {
      vapidDetails: { subject: config.push.subject, publicKey: keys.publicKey, privateKey: keys.privateKey },
      TTL: PUSH_TTL_SECONDS,
      contentEncoding: 'aes128gcm',
      urgency: 'high',
    });
    const headers: Record<string, string> = {};
    for (const [name, value] of Object.entries(details.headers)) if (name.toLowerCase() !== 'content-length') headers[name] = String(value);
    // fetch rather than web-push's own sender: that one speaks https only, and a redirect
    // must not lead the server somewhere the endpoint check never saw (redirect: 'manual').
    const response = await fetch(details.endpoint, {
      method: details.method,
      headers,
      body: details.body === null ? undefined : new Uint8Array(details.body),
      redirect: 'manual',
      signal: AbortSignal.timeout(PUSH_TIMEOUT_MS),
    });
    await response.body?.cancel();
    // RFC 8030: 404 and 410 mean the subscription is gone for good (unsubscribed, expired).
    if (response.status === 404 || response.status === 410) {
      await db.delete(pushDevices).where(eq(pushDevices.id, device.id));
      return;
    }
    if (!response.ok) log.warn({ status: response.status, host }, 'push: the push service refused a push');
  }

  return {
    async register(userId, sessionFamily, body) {
      const problem = endpointProblem(body.endpoint, { production, serviceHosts: config.push.serviceHosts });
      if (problem !== null) throw errors.invalidRequest({ location: 'body', field: 'endpoint', reason: problem });
      const keyProblem = keysProblem(body.keys);
      if (keyProblem !== null) throw errors.invalidRequest({ location: 'body', ...keyProblem });
      const now = new Date();
      await db.transaction(async (tx) => {
        // One row per browser: a browser registering again — after a new sign-in, even as someone
        // else — takes the row over, so a shared computer never gets the last user's pushes.
        await tx
          .insert(pushDevices)
          .values({ userId, sessionFamily, endpoint: body.endpoint, p256dh: body.keys.p256dh, auth: body.keys.auth, createdAt: now, lastUsedAt: now })
          .onConflictDoUpdate({
            target: pushDevices.endpoint,
            set: { userId, sessionFamily, p256dh: body.keys.p256dh, auth: body.keys.auth, lastUsedAt: now },
          });
        const kept = tx
          .select({ id: pushDevices.id })
          .from(pushDevices)
          .where(eq(pushDevices.userId, userId))
          .orderBy(sql`${pushDevices.lastUsedAt} desc`, sql`${pushDevices.id} desc`)
          .limit(MAX_DEVICES_PER_USER);
        await tx.delete(pushDevices).where(and(eq(pushDevices.userId, userId), notInArray(pushDevices.id, kept)));
      });
    },

    async remove(userId, endpoint) {
      await db.delete(pushDevices).where(and(eq(pushDevices.userId, userId), eq(pushDevices.endpoint, endpoint)));
    },

    async send(userId, event) {
      try {
        // Most people have no device: whether they have is asked for everyone a turn's
        // messages go to at once (a batch of chat messages), one statement.
        if (!(await withDevices(userId))) return;
        // One statement: the devices, their owner's settings and the sender's name. Most people
        // have no device, and every chat message asks.
        const rows = await db
          .select({ device: pushDevices, appLanguage: users.appLanguage, notificationSound: users.notificationSound, username: sender.username, displayName: sender.displayName })
          .from(pushDevices)
          .innerJoin(users, and(eq(users.id, pushDevices.userId), isNull(users.deletedAt), isNull(users.bannedAt)))
          .innerJoin(sender, eq(sender.id, event.fromUserId))
          .where(eq(pushDevices.userId, userId))
          .orderBy(asc(pushDevices.id));
        if (rows.length === 0) return;
        const recipient = { appLanguage: rows[0]!.appLanguage, notificationSound: rows[0]!.notificationSound };
        const from = { username: rows[0]!.username, displayName: rows[0]!.displayName };
        const devices = rows.map((row) => row.device);
        const keys = await vapidKeys(ctx);
        const payload = JSON.stringify(pushPayload(event, from, recipient, '/favicon.svg'));
        const results = await Promise.allSettled(devices.map((device) => post(device, payload, keys)));
        for (const result of results) {
          if (result.status === 'rejected') log.warn({ err: result.reason as unknown, userId, kind: event.kind }, 'push: could not send a push');
        }
      } catch (error) {
        log.warn({ err: error, userId, kind: event.kind }, 'push: could not send a push');
      }
    },
  };
}

/** Logging out of a session stops its browser's pushes. */
export async function forgetSessionDevices(ctx: AppContext, familyIds: readonly string[]): Promise<void> {
  if (familyIds.length === 0) return;
  await ctx.db.delete(pushDevices).where(inArray(pushDevices.sessionFamily, [...familyIds]));
}

/** Every session of the user ended (password change, ban) but `keepFamilyId`'s: their browsers' pushes stop too. */
export async function forgetUserDevices(ctx: AppContext, userId: number, keepFamilyId?: string): Promise<void> {
  await ctx.db
    .delete(pushDevices)
    .where(
      and(
        eq(pushDevices.userId, userId),
        keepFamilyId === undefined ? undefined : sql`${pushDevices.sessionFamily} is distinct from ${keepFamilyId}`,
      ),
    );
}

/** A notification the realtime layer saw committed (realtime/after-commit.ts) that is worth a push. */
export interface NotificationPush {
  userId: number;
  type: string;
  fromUserId: number | null;
  postId: number | null;
}

/**
 * Pushes for committed notifications: gifts on posts and profiles, and new subscribers. A chat
 * gift arrives as a chat message, whose own push tells of it; likes, comments and the rest stay
 * in the notifications screen rather than buzz a phone.
 */
export function pushNotifications(ctx: AppContext, items: readonly NotificationPush[]): void {
  for (const item of items) {
    if (item.fromUserId === null) continue;
    if (item.type === 'postGift') pushTo(ctx, item.userId, { kind: 'gift', fromUserId: item.fromUserId, postId: item.postId });
    else if (item.type === 'subscriptionNewSubscriber') pushTo(ctx, item.userId, { kind: 'newSubscriber', fromUserId: item.fromUserId });
  }
}
