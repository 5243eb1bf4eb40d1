import { randomBytes } from 'node:crypto';
import { desc, gt, isNull, lte, or } from 'drizzle-orm';
import { exportJWK, generateKeyPair, importJWK, type CryptoKey, type JWK } from 'jose';
import type { AppContext } from '../../context';
import { badgeKeys } from '../../db/schema';
import { BADGE_KEY_GRACE_MS, BADGE_KEY_ROTATION_MS, type PublicBadgeJwk } from './domain';

/** The key that signs now. */
export interface SigningKey {
  kid: string;
  key: CryptoKey;
  createdAt: Date;
}

/** How long a node keeps the keys it read before reading them again (another node may have rotated). */
const KEYS_CACHE_MS = 60_000;

interface Loaded {
  at: number;
  signing: Promise<SigningKey>;
}
const loadedOf = new WeakMap<object, Loaded>();

function newKid(): string {
  return randomBytes(12).toString('base64url');
}

async function makeKeyRow(createdAt: Date): Promise<typeof badgeKeys.$inferInsert & { kid: string }> {
  const { publicKey, privateKey } = await generateKeyPair('EdDSA', { crv: 'Ed25519', extractable: true });
  const kid = newKid();
  const publicJwk = { ...(await exportJWK(publicKey)), kid, alg: 'EdDSA', use: 'sig' };
  const privateJwk = { ...(await exportJWK(privateKey)), kid, alg: 'EdDSA' };
  return { kid, publicJwk: JSON.stringify(publicJwk), privateJwk: JSON.stringify(privateJwk), createdAt };
}

/**
 * The key that signs badges: the one without a retirement date, made on the first start. Two
 * nodes starting together both try to insert one; the unique index keeps the first and both
 * read it back (as the VAPID keys, features/push/service.ts). Kept a minute per node, so a
 * rotation on another node is picked up soon; the old key stays published meanwhile.
 */
export function signingKey(ctx: AppContext): Promise<SigningKey> {
  const now = Date.now();
  const loaded = loadedOf.get(ctx.db);
  if (loaded !== undefined && now - loaded.at < KEYS_CACHE_MS) return loaded.signing;
  const signing = loadSigningKey(ctx);
  // A failed load (database down) is tried again on the next call instead of being kept.
  signing.catch(() => loadedOf.delete(ctx.db));
  loadedOf.set(ctx.db, { at: now, signing });
  return signing;
}

async function currentRow(ctx: AppContext) {
  const [row] = await ctx.db.select().from(badgeKeys).where(isNull(badgeKeys.retiresAt)).limit(1);
  return row;
}

async function loadSigningKey(ctx: AppContext): Promise<SigningKey> {
  let row = await currentRow(ctx);
  if (row === undefined) {
    await ctx.db.insert(badgeKeys).values(await makeKeyRow(ctx.clock.now())).onConflictDoNothing();
    row = await currentRow(ctx);
  }
  if (row === undefined) throw new Error('No badge signing key after making one');
  const key = (await importJWK(JSON.parse(row.privateJwk) as JWK, 'EdDSA')) as CryptoKey;
  return { kid: row.kid, key, createdAt: row.createdAt };
}

/** The public keys badges may be checked with: the signing one and the retiring ones still live. */
export async function publishedKeys(ctx: AppContext): Promise<PublicBadgeJwk[]> {
  await signingKey(ctx);
  const rows = await ctx.db
    .select({ publicJwk: badgeKeys.publicJwk })
    .from(badgeKeys)
    .where(or(isNull(badgeKeys.retiresAt), gt(badgeKeys.retiresAt, ctx.clock.now())))
    .orderBy(desc(badgeKeys.createdAt), desc(badgeKeys.kid));
  return rows.map((row) => {
    const { kty, crv, x, kid, alg, use } = JSON.parse(row.publicJwk) as PublicBadgeJwk;
    return { kty, crv, x, kid, alg, use };
  });
}

/**
 * A new signing key now: the current one stops signing and stays published for the grace
 * period (longer than a badge lives plus how long the key set may be cached), then goes.
 */
export async function rotateBadgeKey(ctx: AppContext): Promise<string> {
  const now = ctx.clock.now();
  const row = await makeKeyRow(now);
  await ctx.db.transaction(async (tx) => {
    await tx
      .update(badgeKeys)
      .set({ retiresAt: new Date(now.getTime() + BADGE_KEY_GRACE_MS) })
      .where(isNull(badgeKeys.retiresAt));
    await tx.insert(badgeKeys).values(row);
  });
  loadedOf.delete(ctx.db);
  return row.kid;
}

/**
 * The rotation job's run: a signing key older than the rotation period is replaced, and keys
 * past their retirement are deleted. Returns how many keys it made or deleted.
 */
export async function rotateDueBadgeKeys(ctx: AppContext): Promise<number> {
  const now = ctx.clock.now();
  const current = await signingKey(ctx);
  let handled = 0;
  if (now.getTime() - current.createdAt.getTime() >= BADGE_KEY_ROTATION_MS) {
    await rotateBadgeKey(ctx);
    handled += 1;
  }
  const gone = await ctx.db
    .delete(badgeKeys)
    .where(lte(badgeKeys.retiresAt, now))
    .returning({ kid: badgeKeys.kid });
  return handled + gone.length;
}
