import { eq, sql } from 'drizzle-orm';
import type { AppContext } from '../../context';
import { embedOrigins, media, originProofs, subscriptionOffers, users } from '../../db/schema';
import { newProofToken } from '../origins/domain';
import { hashPassword } from '../auth/service';
import { initialsSvg, renderAvatar, storeRendered, type RenderedImage } from '../../media/images';
import { demoCreators, demoEmailDomain, demoFans, demoOffers, demoPartnerOrigins, demoStaff, initialsOf, type DemoUser } from './domain';
import { seedDemoPosts } from './posts';
import { seedDemoChats } from './chats';

/** Serialises seeding between nodes starting at once; see startupLockKey for migrations. */
const seedLockKey = 722_061_002;

async function countUsers(ctx: AppContext): Promise<number> {
  const [row] = await ctx.db.select({ count: sql<number>`count(*)::int` }).from(users);
  return row?.count ?? 0;
}

export interface DemoSeedOptions {
  /**
   * Also give the creators their photo posts (default: everywhere but NODE_ENV=test). Drawing
   * the pictures takes a moment, and most server tests start a fresh database; the tests that
   * want the posts call `seedDemoPosts` themselves.
   */
  posts?: boolean;
}

/**
 * Seeds the demo people when the database has no users at all, and does nothing otherwise,
 * so it is safe on every start and never touches a real installation's data. Returns how
 * many users it created.
 */
export async function seedDemoContent(ctx: AppContext, options: DemoSeedOptions = {}): Promise<number> {
  if ((await countUsers(ctx)) > 0) return 0;
  const people = [...demoCreators, ...demoFans, ...demoStaff];

  // Pictures first, outside the transaction: rendering is the slow part, and files written
  // for a seed that loses the race to another node are simply the same files.
  const avatars = new Map<string, RenderedImage>();
  for (const person of people) {
    const avatar = await renderAvatar(initialsSvg(initialsOf(person.displayName), person.colors[0], person.colors[1]));
    await storeRendered(ctx.storage, avatar);
    avatars.set(person.username, avatar);
  }

  // One hash for every demo account: they share the password, and argon2 is deliberately slow.
  const passwordHash = ctx.config.demoPassword === undefined ? null : await hashPassword(ctx.config.demoPassword);

  const created = await ctx.db.transaction(async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(${seedLockKey})`);
    const [existing] = await tx.select({ count: sql<number>`count(*)::int` }).from(users);
    if ((existing?.count ?? 0) > 0) return 0;
    const now = new Date();
    for (const person of people) {
      const [created] = await tx.insert(users).values({ ...userValues(person, now), passwordHash }).returning({ id: users.id });
      const avatar = avatars.get(person.username)!;
      const [picture] = await tx
        .insert(media)
        .values({
          hash: avatar.hash,
          ownerId: created!.id,
          kind: 'avatar',
          mediaType: 'image',
          format: avatar.format,
          width: avatar.width,
          height: avatar.height,
          status: 3,
        })
        .onConflictDoUpdate({ target: media.hash, set: { ownerId: created!.id } })
        .returning({ id: media.id });
      await tx.update(users).set({ avatarMediaId: picture!.id }).where(eq(users.id, created!.id));
      if (person.embedsDemo) {
        const origins = demoPartnerOrigins(ctx.config.publicUrl);
        await tx.insert(embedOrigins).values(origins.map((origin) => ({ userId: created!.id, origin })));
        // The demo's origins are this server's own loopback names, serving the demo itself: proven
        // by what they are (method 'demo', never fetched), so the popup names the demo creators.
        await tx.insert(originProofs).values(origins.map((origin) => ({ userId: created!.id, origin, token: newProofToken(), method: 'demo', provenAt: now, checkedAt: now })));
      }
      const offers = person.isSeller && person.offersSubscriptions ? (demoOffers[person.username] ?? []) : [];
      if (offers.length > 0) {
        await tx.insert(subscriptionOffers).values(offers.map((offer) => ({ userId: created!.id, name: offer.name, priceCents: offer.priceCents, createdAt: now })));
      }
    }
    return people.length;
  });
  if (created > 0 && (options.posts ?? ctx.config.nodeEnv !== 'test')) await seedDemoPosts(ctx);
  if (created > 0) await seedDemoChats(ctx);
  return created;
}

function userValues(person: DemoUser, now: Date) {
  return {
    username: person.username,
    displayName: person.displayName,
    bio: person.bio,
    email: `${person.username}@${demoEmailDomain}`,
    emailVerified: true,
    level: person.level ?? 0,
    gender: person.gender,
    isSeller: person.isSeller,
    isPartner: person.isPartner,
    hasBadge: person.hasBadge,
    badgeVerifiedState: person.hasBadge ? 3 : 0,
    messagePrice: person.messagePrice,
    callPrice: person.callPrice,
    followersCount: person.followersCount,
    postsCount: person.postsCount,
    offersSubscriptions: person.offersSubscriptions,
    nsfwAgreement: 0,
    score: person.isPartner ? 5 : person.isSeller ? 3 : 1,
    lastSeenAt: person.online ? now : null,
  };
}
