import { and, desc, eq, gt, isNotNull, isNull, lt, sql } from 'drizzle-orm';
import type { AppContext } from '../../context';
import { oauthAccounts, oauthRequests, users } from '../../db/schema';
import { AppError } from '../../errors';
import { normalizeEmail, tokenHash } from '../auth/domain';
import { requestLifetimeMs, signupLifetimeMs } from './domain';
import type { ExternalIdentity } from './types';

function isUniqueViolation(error: unknown): boolean {
  let e: unknown = error;
  for (let depth = 0; depth < 5 && typeof e === 'object' && e !== null; depth++) {
    if ((e as { code?: unknown }).code === '23505') return true;
    e = (e as { cause?: unknown }).cause;
  }
  return false;
}

export type OAuthRequestRow = typeof oauthRequests.$inferSelect;

export function createOAuthService(ctx: AppContext) {
  const now = () => ctx.clock.now();
  const service = {
    /** Records a sign-in that starts now, bound to the browser's state cookie. */
    async begin(input: { provider: string; token: string; browserNonce: string; returnTo: string; language: string }): Promise<void> {
      await ctx.db.insert(oauthRequests).values({
        provider: input.provider,
        tokenHash: tokenHash(input.token),
        browserHash: tokenHash(input.browserNonce),
        returnTo: input.returnTo,
        language: input.language,
        expiresAt: new Date(now().getTime() + requestLifetimeMs),
      });
    },

    /** The sign-in a callback names, whatever its state (for the state check before it is taken). */
    async find(token: string): Promise<OAuthRequestRow | null> {
      const [row] = await ctx.db.select().from(oauthRequests).where(eq(oauthRequests.tokenHash, tokenHash(token))).limit(1);
      return row ?? null;
    },

    /**
     * Takes the sign-in once: marks it used in the one statement that checks it is unused and
     * fresh, so a replayed callback (or two racing) finds nothing.
     */
    async claim(id: number): Promise<OAuthRequestRow | null> {
      const [row] = await ctx.db
        .update(oauthRequests)
        .set({ usedAt: now() })
        .where(and(eq(oauthRequests.id, id), isNull(oauthRequests.usedAt), gt(oauthRequests.expiresAt, now())))
        .returning();
      return row ?? null;
    },

    /** The account linked to the provider's person, if any. */
    async linkedAccount(provider: string, externalId: string): Promise<{ userId: number; banned: boolean } | null> {
      const [row] = await ctx.db
        .select({ userId: users.id, bannedAt: users.bannedAt })
        .from(oauthAccounts)
        .innerJoin(users, and(eq(users.id, oauthAccounts.userId), isNull(users.deletedAt)))
        .where(and(eq(oauthAccounts.provider, provider), eq(oauthAccounts.externalId, externalId)))
        .limit(1);
      if (row === undefined) return null;
      await ctx.db
        .update(oauthAccounts)
        .set({ lastUsedAt: now() })
        .where(and(eq(oauthAccounts.provider, provider), eq(oauthAccounts.externalId, externalId)));
      return { userId: row.userId, banned: row.bannedAt !== null };
    },

    /** Keeps a new person's identity until they chose a username and agreed to the terms. */
    async holdSignup(id: number, identity: ExternalIdentity): Promise<void> {
      await ctx.db
        .update(oauthRequests)
        .set({ identity, signupExpiresAt: new Date(now().getTime() + signupLifetimeMs) })
        .where(eq(oauthRequests.id, id));
    },

    /** The sign-up waiting in this browser (its state cookie), if it is still open. */
    async pendingSignup(browserNonce: string): Promise<OAuthRequestRow | null> {
      const [row] = await ctx.db
        .select()
        .from(oauthRequests)
        .where(
          and(
            eq(oauthRequests.browserHash, tokenHash(browserNonce)),
            isNotNull(oauthRequests.usedAt),
            isNotNull(oauthRequests.identity),
            isNull(oauthRequests.completedAt),
            gt(oauthRequests.signupExpiresAt, now()),
          ),
        )
        .orderBy(desc(oauthRequests.id))
        .limit(1);
      return row ?? null;
    },

    /**
     * Creates the account of a waiting sign-up and links the provider's person to it, once: the
     * completion is claimed in the same transaction, so a second submit finds it done. The
     * provider's e-mail is kept when no account has it yet (verified only if the provider
     * vouches for it); an address another account has is left out rather than linked, since
     * signing in elsewhere must never open an account here that someone else holds.
     */
    async completeSignup(row: OAuthRequestRow, username: string): Promise<{ userId: number }> {
      const identity = row.identity;
      if (identity === null) throw new AppError('link-expired');
      try {
        return await ctx.db.transaction(async (tx) => {
          const [claimed] = await tx
            .update(oauthRequests)
            .set({ completedAt: now() })
            .where(and(eq(oauthRequests.id, row.id), isNull(oauthRequests.completedAt), gt(oauthRequests.signupExpiresAt, now())))
            .returning({ id: oauthRequests.id });
          if (claimed === undefined) throw new AppError('link-expired');
          let email: string | null = identity.email;
          if (email !== null) {
            const [taken] = await tx.select({ id: users.id }).from(users).where(sql`lower(${users.email}) = ${normalizeEmail(email)}`).limit(1);
            if (taken !== undefined) email = null;
          }
          const [user] = await tx
            .insert(users)
            .values({
              username,
              displayName: identity.name ?? username,
              email,
              emailVerified: email !== null && identity.emailVerified,
              passwordHash: null,
              appLanguage: row.language === 'cs' ? 'cs' : 'en',
            })
            .returning({ id: users.id });
          if (user === undefined) throw new AppError('internal-error');
          await tx.insert(oauthAccounts).values({ provider: row.provider, externalId: identity.id, userId: user.id });
          return { userId: user.id };
        });
      } catch (error) {
        if (!isUniqueViolation(error)) throw error;
        // The username was taken meanwhile, or the person's account was created by another tab.
        const linked = await service.linkedAccount(row.provider, identity.id);
        if (linked !== null && !linked.banned) {
          await ctx.db.update(oauthRequests).set({ completedAt: now() }).where(eq(oauthRequests.id, row.id));
          return { userId: linked.userId };
        }
        throw new AppError('username-taken', { statusCode: -5 });
      }
    },

    /** Deletes sign-ins a day past their use. */
    async prune(): Promise<number> {
      const deleted = await ctx.db.delete(oauthRequests).where(lt(oauthRequests.expiresAt, new Date(now().getTime() - 24 * 60 * 60_000 - signupLifetimeMs))).returning({ id: oauthRequests.id });
      return deleted.length;
    },
  };
  return service;
}

export type OAuthService = ReturnType<typeof createOAuthService>;
