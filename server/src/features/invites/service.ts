import { and, eq, isNull, sql } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import { normalizeInviteCode } from '../../../../lib/contract/constants';
import type { AffiliateInfo, Invite } from '../../../../lib/contract/invites';
import type { AppContext } from '../../context';
import { blocks, media, users } from '../../db/schema';
import { AppError } from '../../errors';
import { inviteLink, newInviteCode, type InviteOutcome } from './domain';

/** Tries before giving up on finding a free code (31^8 codes: a clash is already rare). */
const CODE_ATTEMPTS = 8;

function isUniqueViolation(error: unknown): boolean {
  // Drivers and drizzle wrap the database's error; its SQLSTATE sits somewhere down the causes.
  let e: unknown = error;
  for (let depth = 0; depth < 5 && typeof e === 'object' && e !== null; depth++) {
    if ((e as { code?: unknown }).code === '23505') return true;
    e = (e as { cause?: unknown }).cause;
  }
  return false;
}

function toAffiliateInfo(row: { username: string; displayName: string; avatarHash: string | null; avatarFormat: string | null }): AffiliateInfo {
  return {
    username: row.username,
    displayName: row.displayName,
    avatarMedia: row.avatarHash !== null && row.avatarFormat !== null ? { mediaHash: row.avatarHash, format: row.avatarFormat } : null,
  };
}

/** An account that can invite: it exists, is not deleted and not banned. */
const activeAccount = and(isNull(users.deletedAt), isNull(users.bannedAt));

/**
 * Invite codes and the affiliate relation (SPEC §5, §7 aff-code): every account has an
 * 8-character code, given the first time it is asked for; an account records the one who
 * invited it once, and that person then earns a share of the platform's fee on what it spends
 * (ledger/pay.ts).
 */
export function createInviteService(ctx: AppContext) {
  const { db } = ctx;

  /** The account's code, given now if it has none; two requests at once agree on one code. */
  async function codeOf(userId: number): Promise<string> {
    for (let attempt = 0; attempt < CODE_ATTEMPTS; attempt++) {
      const [row] = await db.select({ code: users.inviteCode }).from(users).where(eq(users.id, userId)).limit(1);
      if (row === undefined) throw new AppError('user-not-found');
      if (row.code !== null) return row.code;
      try {
        const [given] = await db
          .update(users)
          .set({ inviteCode: newInviteCode() })
          .where(and(eq(users.id, userId), isNull(users.inviteCode)))
          .returning({ code: users.inviteCode });
        if (given?.code) return given.code;
        // Another request gave it a code a moment ago: the next round reads it.
      } catch (error) {
        if (!isUniqueViolation(error)) throw error;
        // The code drawn belongs to someone else: draw again.
      }
    }
    throw new Error('No free invite code was found');
  }

  return {
    codeOf,

    /** The viewer's invite code and link, and who invited the viewer (while that account is there). */
    async invite(userId: number): Promise<Invite> {
      const code = await codeOf(userId);
      const inviter = alias(users, 'inviter');
      const [row] = await db
        .select({ username: inviter.username, displayName: inviter.displayName, avatarHash: media.hash, avatarFormat: media.format })
        .from(users)
        .innerJoin(inviter, and(eq(inviter.id, users.referrerId), isNull(inviter.deletedAt)))
        .leftJoin(media, eq(media.id, inviter.avatarMediaId))
        .where(eq(users.id, userId))
        .limit(1);
      return { code, link: inviteLink(ctx.config.publicUrl, code), invitedBy: row === undefined ? null : toAffiliateInfo(row) };
    },

    /**
     * Who is behind an invite code, for the invitation prompt: username, display name and
     * avatar only. As on every profile read, someone who blocked the viewer has vanished for
     * them (user-not-found), unless the viewer blocked them too.
     */
    async affiliate(rawCode: string, viewerId: number | null): Promise<AffiliateInfo> {
      const code = normalizeInviteCode(rawCode);
      if (code === null) throw new AppError('user-not-found');
      const [row] = await db
        .select({ username: users.username, displayName: users.displayName, avatarHash: media.hash, avatarFormat: media.format })
        .from(users)
        .leftJoin(media, eq(media.id, users.avatarMediaId))
        .where(
          and(
            eq(users.inviteCode, code),
            activeAccount,
            viewerId === null
              ? undefined
              : sql`not (exists(select 1 from ${blocks} where ${blocks.blockerId} = ${users.id} and ${blocks.blockedId} = ${viewerId})
                    and not exists(select 1 from ${blocks} where ${blocks.blockerId} = ${viewerId} and ${blocks.blockedId} = ${users.id}))`,
          ),
        )
        .limit(1);
      if (row === undefined) throw new AppError('user-not-found');
      return toAffiliateInfo(row);
    },

    /**
     * Records who invited `userId`, from their code. Never fails on the code: an unknown code,
     * one's own, or an account that already has an inviter leaves everything as it was and
     * says which it was. The first inviter stays, also when two codes arrive at once.
     */
    async accept(userId: number, rawCode: string | null | undefined): Promise<InviteOutcome> {
      const code = normalizeInviteCode(rawCode);
      if (code === null) return 'unknown';
      const [inviter] = await db
        .select({ id: users.id })
        .from(users)
        .where(and(eq(users.inviteCode, code), activeAccount))
        .limit(1);
      if (inviter === undefined) return 'unknown';
      if (inviter.id === userId) return 'self';
      const updated = await db
        .update(users)
        .set({ referrerId: inviter.id })
        .where(and(eq(users.id, userId), isNull(users.referrerId)))
        .returning({ id: users.id });
      return updated.length > 0 ? 'set' : 'already';
    },
  };
}

export type InviteService = ReturnType<typeof createInviteService>;
