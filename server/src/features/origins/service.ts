import { and, asc, eq, isNotNull, isNull, lte, ne, or, sql } from 'drizzle-orm';
import { proofFilePath, proofMetaName, type OriginProof, type OriginProofProblem, type OriginProofToken } from '../../../../lib/contract/badge';
import type { AppContext } from '../../context';
import { embedOrigins, originProofs, users } from '../../db/schema';
import { AppError } from '../../errors';
import { mayListEmbedOrigins, normaliseOrigin } from '../users/domain';
import { fileHasToken, newProofToken, pageHasToken, PROOF_MAX_FAILURES, PROOF_RECHECK_BATCH, PROOF_RECHECK_MS } from './domain';
import { proofFetch } from './fetch';

type ProofRow = typeof originProofs.$inferSelect;

/** What one look at the site found: the method that proved it, or the problem. */
export type SiteCheck = { proven: true; method: 'file' | 'meta' } | { proven: false; problem: OriginProofProblem };

/**
 * Looks for `token` on `origin`: the well-known file first, then the home page's meta tag. Outside
 * production a loopback or private address may answer (development, the tests' own servers).
 */
export async function checkSite(ctx: AppContext, origin: string, token: string): Promise<SiteCheck> {
  const allowPrivate = ctx.config.nodeEnv !== 'production';
  const file = await proofFetch(`${origin}${proofFilePath}`, { allowPrivate, maxBytes: 64 * 1024, refuseLonger: true });
  if (file.ok && file.status === 200 && fileHasToken(file.body, token)) return { proven: true, method: 'file' };
  // A refused address stays refused for the home page (the same host): no second try.
  if (!file.ok && file.problem === 'address-refused') return { proven: false, problem: 'address-refused' };
  const page = await proofFetch(`${origin}/`, { allowPrivate, maxBytes: 256 * 1024 });
  if (page.ok && page.status === 200 && pageHasToken(page.body, token)) return { proven: true, method: 'meta' };
  // The reason worth telling: a site that answered without the token says so; otherwise why the file failed.
  if ((file.ok && file.status === 200) || (page.ok && page.status === 200)) return { proven: false, problem: 'token-missing' };
  if (!file.ok) return { proven: false, problem: file.problem };
  return { proven: false, problem: 'http-status' };
}

function toProof(origin: string, listed: boolean, row: ProofRow | null): OriginProof {
  return {
    origin,
    listed,
    token: row?.token ?? null,
    proven: row?.provenAt != null,
    method: row?.provenAt != null ? row.method : null,
    provenAt: row?.provenAt?.getTime() ?? null,
    checkedAt: row?.checkedAt?.getTime() ?? null,
    failures: row?.failures ?? 0,
    problem: row?.problem ?? null,
  };
}

export function createOriginProofService(ctx: AppContext) {
  const { db } = ctx;

  /** The seller (or administrator) asking, and `text` as an origin she lists. */
  async function listedOrigin(userId: number, text: string): Promise<string> {
    const origin = normaliseOrigin(text);
    if (origin === null) throw new AppError('invalid-request', { body: { location: 'body', field: 'origin', reason: 'not an origin' } });
    const [account] = await db.select({ isSeller: users.isSeller, level: users.level }).from(users).where(eq(users.id, userId)).limit(1);
    if (account === undefined || !mayListEmbedOrigins(account)) throw new AppError('embed-origins-not-allowed');
    const listed = await db.$count(embedOrigins, and(eq(embedOrigins.userId, userId), eq(embedOrigins.origin, origin)));
    if (listed === 0) throw new AppError('origin-not-listed');
    return origin;
  }

  async function proofOf(userId: number, origin: string): Promise<ProofRow | null> {
    const [row] = await db
      .select()
      .from(originProofs)
      .where(and(eq(originProofs.userId, userId), eq(originProofs.origin, origin)))
      .limit(1);
    return row ?? null;
  }

  /**
   * Records a check's outcome. A failed check of a proven site counts, and the last allowed one
   * withdraws the proof; a site not proven counts nothing more, so `failures` at the limit
   * without a proof says it was withdrawn (until a check finds the token again).
   */
  async function record(row: ProofRow, outcome: SiteCheck): Promise<ProofRow> {
    const now = ctx.clock.now();
    const failures = outcome.proven ? 0 : row.provenAt === null ? row.failures : row.failures + 1;
    const withdrawn = !outcome.proven && (row.provenAt === null || failures >= PROOF_MAX_FAILURES);
    const [updated] = await db
      .update(originProofs)
      .set(
        outcome.proven
          ? { provenAt: row.provenAt ?? now, method: outcome.method, checkedAt: now, failures: 0, problem: null }
          : { checkedAt: now, failures, problem: outcome.problem, ...(withdrawn ? { provenAt: null, method: null } : {}) },
      )
      .where(and(eq(originProofs.userId, row.userId), eq(originProofs.origin, row.origin)))
      .returning();
    return updated ?? row;
  }

  return {
    /** GET /api/embed-origins: each listed site with its proof, and proofs of sites no longer listed. */
    async list(userId: number): Promise<OriginProof[]> {
      const [listed, proofs] = await Promise.all([
        db.select({ origin: embedOrigins.origin }).from(embedOrigins).where(eq(embedOrigins.userId, userId)).orderBy(asc(embedOrigins.origin)),
        db.select().from(originProofs).where(eq(originProofs.userId, userId)).orderBy(asc(originProofs.origin)),
      ]);
      const byOrigin = new Map(proofs.map((row) => [row.origin, row]));
      const listedSet = new Set(listed.map((row) => row.origin));
      return [
        ...listed.map(({ origin }) => toProof(origin, true, byOrigin.get(origin) ?? null)),
        ...proofs.filter((row) => !listedSet.has(row.origin)).map((row) => toProof(row.origin, false, row)),
      ];
    },

    /** POST /api/embed-origins/token: the creator's token for a site she lists (the same one each time). */
    async token(userId: number, text: string): Promise<OriginProofToken> {
      const origin = await listedOrigin(userId, text);
      await db.insert(originProofs).values({ userId, origin, token: newProofToken() }).onConflictDoNothing();
      const row = await proofOf(userId, origin);
      const token = row!.token;
      return { origin, token, fileUrl: `${origin}${proofFilePath}`, metaTag: `<meta name="${proofMetaName}" content="${token}">` };
    },

    /** POST /api/embed-origins/prove: looks for the token now; `origin-proof-failed` with the reason. */
    async prove(userId: number, text: string): Promise<OriginProof> {
      const origin = await listedOrigin(userId, text);
      const row = await proofOf(userId, origin);
      if (row === null) throw new AppError('origin-proof-failed', { body: { reason: 'token-missing' } });
      const outcome = await checkSite(ctx, origin, row.token);
      const updated = await record(row, outcome);
      if (!outcome.proven) throw new AppError('origin-proof-failed', { body: { reason: outcome.problem, proof: toProof(origin, true, updated) } });
      return toProof(origin, true, updated);
    },

    /**
     * The recheck job's run: proofs not checked for a day are looked at again; one that fails
     * PROOF_MAX_FAILURES times in a row is withdrawn. The demo's own origins are this server's
     * names and are not fetched.
     */
    async recheckDue(): Promise<number> {
      const due = new Date(ctx.clock.now().getTime() - PROOF_RECHECK_MS);
      const rows = await db
        .select()
        .from(originProofs)
        .where(
          and(
            isNotNull(originProofs.provenAt),
            or(isNull(originProofs.method), ne(originProofs.method, 'demo')),
            or(isNull(originProofs.checkedAt), lte(originProofs.checkedAt, due)),
          ),
        )
        .orderBy(sql`${originProofs.checkedAt} asc nulls first`)
        .limit(PROOF_RECHECK_BATCH);
      for (const row of rows) await record(row, await checkSite(ctx, row.origin, row.token));
      return rows.length;
    },
  };
}

export type OriginProofService = ReturnType<typeof createOriginProofService>;
