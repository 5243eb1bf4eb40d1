/**
 * The partner programme's shared steps, which the applicant's and the administrators' actions
 * (`applicant.ts`, `admin.ts`) are made of: locking the user for a change of state and moving it
 * by the transition table, reading a person's status, checks, documents and decisions, telling
 * their open pages of a change, and logging a decision.
 */
import { and, desc, eq, inArray, sql, type SQL } from 'drizzle-orm';
import type { IdentityCheck, PartnerApplication, PartnerDecision, PartnerStatus } from '../../../../lib/contract/partner';
import type { AppContext } from '../../context';
import { identityChecks, identityDocuments, partnerApplications, partnerDecisions, users } from '../../db/schema';
import { AppError } from '../../errors';
import type { UserService } from '../users/service';
import { documentLinks } from './documents';
import { isPartnerCode, nextApprovedState, type PartnerEvent } from './domain';
import type { IdentityProvider } from './identity/types';

type Db = AppContext['db'];
export type Tx = Parameters<Parameters<Db['transaction']>[0]>[0];
export type CheckRow = typeof identityChecks.$inferSelect;
type ApplicationRow = typeof partnerApplications.$inferSelect;

const ms = (date: Date | null) => (date === null ? null : date.getTime());

const userColumns = {
  id: users.id,
  approvedState: users.approvedState,
  isPartner: users.isPartner,
  isSeller: users.isSeller,
  hasBadge: users.hasBadge,
  badgeVerifiedState: users.badgeVerifiedState,
};

export interface PartnerServiceDeps {
  providers: ReadonlyMap<string, IdentityProvider>;
  /** Where new checks go; none on a server that has no provider (production refuses to start so). */
  defaultProvider: IdentityProvider | undefined;
  users: UserService;
}

/** The steps and reads shared by the partner service's actions. */
export function partnerRecords(ctx: AppContext, deps: PartnerServiceDeps) {
  const { db } = ctx;
  const links = documentLinks(ctx.config.jwtSecret);

  /** The user row locked for a change of its partner state. */
  async function lockUser(tx: Tx, userId: number) {
    const [row] = await tx
      .select({ ...userColumns, level: users.level })
      .from(users)
      .where(and(eq(users.id, userId), sql`${users.deletedAt} is null`))
      .for('update');
    if (row === undefined) throw new AppError('user-not-found');
    return row;
  }

  /** The next state for `event`, or the refusal naming the state the account is in. */
  function moveOrRefuse(state: number, event: PartnerEvent): number {
    const next = nextApprovedState(state, event);
    if (next === null) throw new AppError('partner-wrong-state', { body: { approvedState: state } });
    return next;
  }

  async function documentsOf(checkIds: string[]) {
    if (checkIds.length === 0) return new Map<string, IdentityCheck['documents']>();
    const rows = await db.select().from(identityDocuments).where(inArray(identityDocuments.checkId, checkIds)).orderBy(identityDocuments.id);
    const now = Date.now();
    const byCheck = new Map<string, IdentityCheck['documents']>();
    for (const row of rows) {
      const list = byCheck.get(row.checkId) ?? [];
      list.push({ id: row.id, kind: row.kind as 'front' | 'back' | 'selfie', width: row.width, height: row.height, url: links.url(row.id, now) });
      byCheck.set(row.checkId, list);
    }
    return byCheck;
  }

  /** The latest identity check of each of these users. */
  async function latestChecks(userIds: number[]): Promise<Map<number, IdentityCheck>> {
    if (userIds.length === 0) return new Map();
    const rows = await db
      .selectDistinctOn([identityChecks.userId])
      .from(identityChecks)
      .where(inArray(identityChecks.userId, userIds))
      .orderBy(identityChecks.userId, desc(identityChecks.createdAt), desc(identityChecks.id));
    const documents = await documentsOf(rows.map((row) => row.id));
    return new Map(rows.map((row) => [row.userId, toCheck(row, documents.get(row.id) ?? [])]));
  }

  function toCheck(row: CheckRow, documents: IdentityCheck['documents']): IdentityCheck {
    return {
      id: row.id,
      provider: row.provider,
      status: row.status as IdentityCheck['status'],
      reason: row.reason,
      createdAt: row.createdAt.getTime(),
      decidedAt: ms(row.decidedAt),
      documents,
    };
  }

  function toForm(row: ApplicationRow | undefined) {
    return row === undefined ? null : { name: row.name, street: row.street, zip: row.zip, country: row.country, iban: row.iban, companyId: row.companyId };
  }

  async function status(userId: number): Promise<PartnerStatus> {
    const [user] = await db.select(userColumns).from(users).where(eq(users.id, userId));
    if (user === undefined) throw new AppError('user-not-found');
    const [application] = await db.select().from(partnerApplications).where(eq(partnerApplications.userId, userId));
    const checks = await latestChecks([userId]);
    return {
      approvedState: user.approvedState,
      isPartner: user.isPartner,
      isSeller: user.isSeller,
      hasBadge: user.hasBadge,
      badgeVerifiedState: user.badgeVerifiedState,
      form: toForm(application),
      partnerCode: application?.partnerCode ?? null,
      referredCode: application?.referredCode ?? null,
      declineReason: application?.declineReason ?? null,
      actionGirlState: application?.actionGirlState ?? 0,
      idCheck: checks.get(userId) ?? null,
    };
  }

  /** Tells the person's open pages that their partner state changed (SPEC §7 partnerStatusChanged). */
  async function announce(userId: number): Promise<PartnerStatus> {
    const current = await status(userId);
    deps.users.forget(userId);
    ctx.realtime.publish(userId, {
      type: 'eventMessage',
      event: 'partnerStatusChanged',
      userId,
      data: { approvedState: current.approvedState, isPartner: current.isPartner, isSeller: current.isSeller, hasBadge: current.hasBadge },
    });
    return current;
  }

  async function audit(tx: Tx, entry: { userId: number; adminId: number | null; action: PartnerDecision['action']; fromState: number; toState: number; reason: string | null }) {
    await tx.insert(partnerDecisions).values({ ...entry, createdAt: new Date() });
  }

  async function partnerByCode(code: string) {
    if (!isPartnerCode(code)) return undefined;
    const [row] = await db
      .select({ userId: partnerApplications.userId })
      .from(partnerApplications)
      .innerJoin(users, eq(users.id, partnerApplications.userId))
      .where(and(eq(partnerApplications.partnerCode, code), eq(users.isPartner, true), sql`${users.deletedAt} is null`, sql`${users.bannedAt} is null`));
    return row;
  }


  /** The applications whose applicant matches `where`, the earliest submitted first, with their checks and decisions. */
  async function applicationsWhere(where: SQL | undefined, limit: number, offset: number): Promise<PartnerApplication[]> {
    const rows = await db
      .select({
        id: users.id,
        username: users.username,
        displayName: users.displayName,
        email: users.email,
        approvedState: users.approvedState,
        isPartner: users.isPartner,
        isSeller: users.isSeller,
        hasBadge: users.hasBadge,
        badgeVerifiedState: users.badgeVerifiedState,
        application: partnerApplications,
      })
      .from(partnerApplications)
      .innerJoin(users, eq(users.id, partnerApplications.userId))
      .where(where)
      .orderBy(sql`${partnerApplications.submittedAt} asc nulls last`, partnerApplications.userId)
      .limit(limit)
      .offset(offset);
    const ids = rows.map((row) => row.id);
    const [checks, decisions] = await Promise.all([latestChecks(ids), decisionsOf(ids)]);
    return rows.map((row) => ({
      user: { id: row.id, username: row.username, displayName: row.displayName, email: row.email },
      approvedState: row.approvedState,
      isPartner: row.isPartner,
      isSeller: row.isSeller,
      hasBadge: row.hasBadge,
      badgeVerifiedState: row.badgeVerifiedState,
      form: toForm(row.application),
      referredCode: row.application.referredCode,
      submittedAt: ms(row.application.submittedAt),
      idCheck: checks.get(row.id) ?? null,
      decisions: decisions.get(row.id) ?? [],
    }));
  }

  async function decisionsOf(userIds: number[]): Promise<Map<number, PartnerDecision[]>> {
    if (userIds.length === 0) return new Map();
    const admins = sql<string | null>`(select ${users.username} from ${users} where ${users.id} = ${partnerDecisions.adminId})`;
    const rows = await db
      .select({ decision: partnerDecisions, adminUsername: admins })
      .from(partnerDecisions)
      .where(inArray(partnerDecisions.userId, userIds))
      .orderBy(partnerDecisions.createdAt, partnerDecisions.id);
    const map = new Map<number, PartnerDecision[]>();
    for (const { decision, adminUsername } of rows) {
      const list = map.get(decision.userId) ?? [];
      list.push({
        id: decision.id,
        action: decision.action as PartnerDecision['action'],
        adminId: decision.adminId,
        adminUsername,
        fromState: decision.fromState,
        toState: decision.toState,
        reason: decision.reason,
        createdAt: decision.createdAt.getTime(),
      });
      map.set(decision.userId, list);
    }
    return map;
  }

  return { links, lockUser, moveOrRefuse, latestChecks, status, announce, audit, partnerByCode, applicationsWhere };
}

export type PartnerRecords = ReturnType<typeof partnerRecords>;
