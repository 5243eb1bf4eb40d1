/**
 * Identity documents as files: where a check's pictures are kept in the media storage, the
 * check ids, the signed short-lived links the admin queue shows them by, and the purge of the
 * pictures nobody needs any more.
 */
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { and, eq, inArray, isNotNull, lt, or } from 'drizzle-orm';
import type { AppContext } from '../../context';
import { identityChecks, identityDocuments, users } from '../../db/schema';

/** Links to identity documents work this long without a token (an `<img src>` in the admin queue). */
export const DOCUMENT_LINK_SECONDS = 15 * 60;

/** Where the identity documents are kept in the media storage: never under a public media address. */
export function documentKey(checkId: string, kind: string): string {
  return `identity/${checkId}-${kind}.webp`;
}

export function newCheckId(): string {
  return `idc_${randomBytes(12).toString('hex')}`;
}

/** Signs and checks the short-lived links of identity documents. */
export function documentLinks(jwtSecret: string) {
  const key = createHmac('sha256', jwtSecret).update('fanstage identity documents v1').digest();
  const mac = (id: number, exp: number) => createHmac('sha256', key).update(`document:${id}:${exp}`).digest();
  return {
    url(id: number, nowMs: number): string {
      const exp = Math.floor(nowMs / 1000) + DOCUMENT_LINK_SECONDS;
      return `/papi/partner/documents/${id}?exp=${exp}&sig=${mac(id, exp).toString('base64url')}`;
    },
    verify(id: number, exp: string | undefined, sig: string | undefined, nowMs: number): boolean {
      if (exp === undefined || sig === undefined || !/^\d{1,12}$/.test(exp) || !/^[A-Za-z0-9_-]{43}$/.test(sig)) return false;
      const expires = Number(exp);
      if (expires * 1000 < nowMs) return false;
      const given = Buffer.from(sig, 'base64url');
      const expected = mac(id, expires);
      return given.length === expected.length && timingSafeEqual(given, expected);
    },
  };
}

/** Pictures of cancelled or declined checks are kept this long (for a review or an appeal), then removed. */
export const UNUSED_DOCUMENTS_KEPT_MS = 30 * 86_400_000;

/**
 * Removes identity documents nobody needs any more: every picture of a deleted account, and
 * those of checks cancelled or declined more than 30 days ago. The pictures of an approved check
 * stay, as the record of who the partner is. Files go first, then their rows, so a failed
 * delete is tried again on the next run. Answers how many were removed.
 */
export async function purgeIdentityDocuments(ctx: AppContext): Promise<number> {
  const before = new Date(ctx.clock.now().getTime() - UNUSED_DOCUMENTS_KEPT_MS);
  const rows = await ctx.db
    .select({ id: identityDocuments.id, storageKey: identityDocuments.storageKey })
    .from(identityDocuments)
    .innerJoin(users, eq(users.id, identityDocuments.userId))
    .innerJoin(identityChecks, eq(identityChecks.id, identityDocuments.checkId))
    .where(or(isNotNull(users.deletedAt), and(inArray(identityChecks.status, ['cancelled', 'declined']), lt(identityChecks.decidedAt, before))))
    .limit(500);
  for (const row of rows) {
    await ctx.storage.delete(row.storageKey);
    await ctx.db.delete(identityDocuments).where(eq(identityDocuments.id, row.id));
  }
  return rows.length;
}
