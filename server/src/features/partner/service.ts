import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { and, desc, eq, inArray, isNotNull, lt, or, sql, type SQL } from 'drizzle-orm';
import type {
  AdminPartnersQuery,
  IdCheckStart,
  IdentityCheck,
  PartnerApplication,
  PartnerDecision,
  PartnerFormBody,
  PartnerStatus,
} from '../../../../lib/contract/partner';
import type { AppContext } from '../../context';
import { identityCallbacks, identityChecks, identityDocuments, partnerApplications, partnerDecisions, users } from '../../db/schema';
import { AppError } from '../../errors';
import { recordNotification } from '../notifications/service';
import type { UserService } from '../users/service';
import { ApprovedState, checkPartnerForm, isActionGirlAnswer, isPartnerCode, newPartnerCode, nextApprovedState, queuedStates, type PartnerEvent } from './domain';
import { CALLBACK_MAX_AGE_MS } from './identity/sandbox';
import type { IdentityEvent, IdentityProvider } from './identity/types';

type Db = AppContext['db'];
type Tx = Parameters<Parameters<Db['transaction']>[0]>[0];
type CheckRow = typeof identityChecks.$inferSelect;
type ApplicationRow = typeof partnerApplications.$inferSelect;

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

export function createPartnerService(ctx: AppContext, deps: PartnerServiceDeps) {
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

  return {
    status,

    async saveForm(userId: number, body: PartnerFormBody): Promise<PartnerStatus> {
      const checked = checkPartnerForm(body);
      if ('key' in checked) throw new AppError(checked.key, { body: { field: checked.field } });
      const { form } = checked;
      const changed = await db.transaction(async (tx) => {
        const user = await lockUser(tx, userId);
        const next = moveOrRefuse(user.approvedState, 'saveForm');
        const now = new Date();
        await tx
          .insert(partnerApplications)
          .values({ userId, ...form, createdAt: now, updatedAt: now })
          .onConflictDoUpdate({ target: partnerApplications.userId, set: { ...form, updatedAt: now } });
        if (next !== user.approvedState) await tx.update(users).set({ approvedState: next }).where(eq(users.id, userId));
        return next !== user.approvedState;
      });
      return changed ? announce(userId) : status(userId);
    },

    /** SPEC §5: a `C-` code of an approved partner. */
    async isValidCode(code: string): Promise<boolean> {
      return (await partnerByCode(code)) !== undefined;
    },

    async registrationDone(userId: number, companyCode: string | undefined): Promise<PartnerStatus> {
      const code = (companyCode?.trim() ?? '').toUpperCase();
      if (code !== '') {
        const partner = await partnerByCode(code);
        if (partner === undefined || partner.userId === userId) throw new AppError('invalid-code', { body: { field: 'companyCode' } });
      }
      await db.transaction(async (tx) => {
        const user = await lockUser(tx, userId);
        const next = moveOrRefuse(user.approvedState, 'registrationDone');
        const [application] = await tx.select({ userId: partnerApplications.userId }).from(partnerApplications).where(eq(partnerApplications.userId, userId));
        if (application === undefined) throw new AppError('partner-wrong-state', { body: { approvedState: user.approvedState } });
        await tx
          .update(partnerApplications)
          .set({ submittedAt: new Date(), declineReason: null, ...(code === '' ? {} : { referredCode: code }) })
          .where(eq(partnerApplications.userId, userId));
        await tx.update(users).set({ approvedState: next }).where(eq(users.id, userId));
      });
      return announce(userId);
    },

    /** Leaves the programme before approval: the state goes to 0 and a running check is cancelled. */
    async cancel(userId: number): Promise<PartnerStatus> {
      await db.transaction(async (tx) => {
        const user = await lockUser(tx, userId);
        const next = moveOrRefuse(user.approvedState, 'cancel');
        await tx.update(users).set({ approvedState: next }).where(eq(users.id, userId));
        await tx
          .update(identityChecks)
          .set({ status: 'cancelled', decidedAt: new Date() })
          .where(and(eq(identityChecks.userId, userId), inArray(identityChecks.status, ['started', 'review'])));
      });
      return announce(userId);
    },

    /**
     * An approved partner shows (or hides) the verified badge on the profile. A badge an
     * administrator revoked (badgeVerifiedState no longer 3) may be hidden, not shown again.
     */
    async confirmBadge(userId: number, show: boolean): Promise<PartnerStatus> {
      await db.transaction(async (tx) => {
        const user = await lockUser(tx, userId);
        moveOrRefuse(user.approvedState, 'confirmBadge');
        if (show && user.badgeVerifiedState !== 3) throw new AppError('badge-revoked');
        await tx.update(users).set({ hasBadge: show }).where(eq(users.id, userId));
      });
      return announce(userId);
    },

    async actionGirl(userId: number, actionState: number): Promise<void> {
      if (!isActionGirlAnswer(actionState)) throw new AppError('invalid-request', { body: { location: 'body', field: 'actionState', reason: 'must be 2 or 3' } });
      const [user] = await db.select({ isPartner: users.isPartner }).from(users).where(eq(users.id, userId));
      if (!user?.isPartner) throw new AppError('verify-required', { statusCode: -2 });
      const answered = await db
        .update(partnerApplications)
        .set({ actionGirlState: actionState, updatedAt: new Date() })
        .where(and(eq(partnerApplications.userId, userId), eq(partnerApplications.actionGirlState, 1)))
        .returning({ userId: partnerApplications.userId });
      if (answered.length === 0) throw new AppError('not-found');
    },

    /** Starts an identity check at the provider: a new check row, the state 105, and the provider's page. */
    async startIdCheck(userId: number, language: string): Promise<IdCheckStart> {
      const provider = deps.defaultProvider;
      if (provider === undefined) throw new AppError('service-unavailable');
      const checkId = newCheckId();
      await db.transaction(async (tx) => {
        const user = await lockUser(tx, userId);
        const next = moveOrRefuse(user.approvedState, 'startIdCheck');
        const now = new Date();
        // A check started again replaces the running one, whose callback is then refused.
        await tx
          .update(identityChecks)
          .set({ status: 'cancelled', decidedAt: now })
          .where(and(eq(identityChecks.userId, userId), eq(identityChecks.status, 'started')));
        await tx.insert(identityChecks).values({ id: checkId, userId, provider: provider.name, status: 'started', createdAt: now });
        await tx.update(users).set({ approvedState: next }).where(eq(users.id, userId));
      });
      const redirectUrl = await provider.startCheck({ id: checkId, userId, language });
      await announce(userId);
      return { checkId, redirectUrl };
    },

    /** The latest check; success only when it is approved. */
    async checkIdCheck(userId: number): Promise<IdentityCheck> {
      const check = (await latestChecks([userId])).get(userId);
      if (check === undefined) throw new AppError('id-check-not-started');
      if (check.status === 'approved') return check;
      const key = check.status === 'started' ? 'id-check-pending' : check.status === 'review' ? 'id-check-review' : check.status === 'declined' ? 'id-check-declined' : 'id-check-not-started';
      throw new AppError(key, { body: check });
    },

    /**
     * A provider's verdict, authenticated already: taken once per event id and only while the
     * check is running; the account moves by the transition table and is told.
     */
    async applyIdentityEvent(providerName: string, event: IdentityEvent): Promise<void> {
      const now = Date.now();
      if (event.issuedAt < now - CALLBACK_MAX_AGE_MS || event.issuedAt > now + 60_000) throw new AppError('callback-replayed');
      const userId = await db.transaction(async (tx) => {
        const taken = await tx.insert(identityCallbacks).values({ eventId: event.eventId, checkId: event.checkId }).onConflictDoNothing().returning({ eventId: identityCallbacks.eventId });
        if (taken.length === 0) throw new AppError('callback-replayed');
        const [check] = await tx.select().from(identityChecks).where(eq(identityChecks.id, event.checkId)).for('update');
        if (check === undefined || check.provider !== providerName) throw new AppError('not-found');
        if (check.status !== 'started') throw new AppError('partner-wrong-state', { body: { status: check.status } });
        const user = await lockUser(tx, check.userId);
        const movement: PartnerEvent = event.outcome === 'approved' ? 'idApproved' : event.outcome === 'review' ? 'idNeedsReview' : 'idDeclined';
        const next = moveOrRefuse(user.approvedState, movement);
        await tx
          .update(identityChecks)
          .set({ status: event.outcome, externalId: event.externalId, reason: event.reason, decidedAt: new Date() })
          .where(eq(identityChecks.id, check.id));
        await tx.update(users).set({ approvedState: next, ...(event.outcome === 'approved' ? { badgeVerifiedState: 3 } : {}) }).where(eq(users.id, check.userId));
        if (event.outcome === 'approved') await recordNotification(tx, { userId: check.userId, type: 'verificationApproved' });
        return check.userId;
      });
      await announce(userId);
    },

    /** A document's storage key, for its owner or an administrator only; not-found for anyone else. */
    async documentFor(viewer: { id: number; level: number } | null, documentId: number): Promise<string> {
      const [row] = await db.select().from(identityDocuments).where(eq(identityDocuments.id, documentId));
      if (row === undefined || viewer === null || (viewer.id !== row.userId && viewer.level < 500)) throw new AppError('not-found');
      return row.storageKey;
    },

    /** A document's storage key behind a signed link. */
    async documentByLink(documentId: number, exp: string | undefined, sig: string | undefined): Promise<string> {
      if (!links.verify(documentId, exp, sig, Date.now())) throw new AppError('not-found');
      const [row] = await db.select({ storageKey: identityDocuments.storageKey }).from(identityDocuments).where(eq(identityDocuments.id, documentId));
      if (row === undefined) throw new AppError('not-found');
      return row.storageKey;
    },

    async applications(query: AdminPartnersQuery): Promise<PartnerApplication[]> {
      const filter = query.filter ?? 'queue';
      return applicationsWhere(
        and(sql`${users.deletedAt} is null`, filter === 'queue' ? inArray(users.approvedState, [...queuedStates]) : undefined),
        query.limit ?? 30,
        query.offset ?? 0,
      );
    },

    async application(userId: number): Promise<PartnerApplication> {
      const [found] = await applicationsWhere(eq(users.id, userId), 1, 0);
      if (found === undefined) throw new AppError('not-found');
      return found;
    },

    /**
     * An administrator's decision. Approving makes the account a partner and a seller with a
     * partner code and tells them (partnerApproved); declining needs a reason, which the
     * applicant reads. Both are logged with who decided.
     */
    async decide(adminId: number, userId: number, action: 'approve' | 'decline', reason: string | undefined): Promise<PartnerApplication> {
      const why = reason?.trim() ?? '';
      if (action === 'decline' && why === '') throw new AppError('invalid-request', { body: { location: 'body', field: 'reason', reason: 'required to decline' } });
      if (adminId === userId) throw new AppError('forbidden');
      await db.transaction(async (tx) => {
        const user = await lockUser(tx, userId);
        const next = moveOrRefuse(user.approvedState, action === 'approve' ? 'adminApprove' : 'adminDecline');
        const [application] = await tx.select().from(partnerApplications).where(eq(partnerApplications.userId, userId)).for('update');
        if (application === undefined) throw new AppError('not-found');
        const now = new Date();
        if (action === 'approve') {
          await tx.update(users).set({ approvedState: next, isPartner: true, isSeller: true, badgeVerifiedState: 3 }).where(eq(users.id, userId));
          let code = application.partnerCode;
          if (code === null) {
            // Codes are random; a clash with another partner's is rare and simply retried.
            for (let attempt = 0; attempt < 5 && code === null; attempt++) {
              const candidate = newPartnerCode();
              const [taken] = await tx.select({ userId: partnerApplications.userId }).from(partnerApplications).where(eq(partnerApplications.partnerCode, candidate));
              if (taken === undefined) code = candidate;
            }
          }
          await tx.update(partnerApplications).set({ partnerCode: code, declineReason: null, updatedAt: now }).where(eq(partnerApplications.userId, userId));
          await tx.update(identityChecks).set({ status: 'approved', decidedAt: now }).where(and(eq(identityChecks.userId, userId), eq(identityChecks.status, 'review')));
          if (user.approvedState === ApprovedState.review) await recordNotification(tx, { userId, type: 'verificationApproved' });
          await recordNotification(tx, { userId, type: 'partnerApproved' });
        } else {
          await tx.update(users).set({ approvedState: next }).where(eq(users.id, userId));
          await tx.update(partnerApplications).set({ declineReason: why, updatedAt: now }).where(eq(partnerApplications.userId, userId));
          await tx
            .update(identityChecks)
            .set({ status: 'declined', reason: why, decidedAt: now })
            .where(and(eq(identityChecks.userId, userId), eq(identityChecks.status, 'review')));
        }
        await audit(tx, { userId, adminId, action, fromState: user.approvedState, toState: next, reason: why === '' ? null : why });
      });
      await announce(userId);
      return this.application(userId);
    },

    /**
     * An administrator takes a partner's verified badge away (`revoke`, with the reason the
     * partner reads) or gives it back. Revoked, the profile shows no badge and the partner cannot
     * show it again (badge-revoked); given back, the partner chooses again whether to show it.
     * Logged with who decided, like every decision.
     */
    async setBadge(adminId: number, userId: number, action: 'revokeBadge' | 'restoreBadge', reason: string | undefined): Promise<PartnerApplication> {
      const why = reason?.trim() ?? '';
      if (action === 'revokeBadge' && why === '') throw new AppError('invalid-request', { body: { location: 'body', field: 'reason', reason: 'required to revoke a badge' } });
      if (adminId === userId) throw new AppError('forbidden');
      await db.transaction(async (tx) => {
        const user = await lockUser(tx, userId);
        if (!user.isPartner || user.approvedState !== ApprovedState.approved) throw new AppError('partner-wrong-state', { body: { approvedState: user.approvedState } });
        await tx
          .update(users)
          .set(action === 'revokeBadge' ? { hasBadge: false, badgeVerifiedState: 0 } : { badgeVerifiedState: 3 })
          .where(eq(users.id, userId));
        await audit(tx, { userId, adminId, action, fromState: user.approvedState, toState: user.approvedState, reason: why === '' ? null : why });
      });
      await announce(userId);
      return this.application(userId);
    },

    /** Offers an approved partner the action-girl programme (SPEC §3 actionGirlOffer). */
    async offerActionGirl(adminId: number, userId: number): Promise<void> {
      await db.transaction(async (tx) => {
        const user = await lockUser(tx, userId);
        if (!user.isPartner) throw new AppError('partner-wrong-state', { body: { approvedState: user.approvedState } });
        const offered = await tx
          .update(partnerApplications)
          .set({ actionGirlState: 1, updatedAt: new Date() })
          .where(eq(partnerApplications.userId, userId))
          .returning({ userId: partnerApplications.userId });
        if (offered.length === 0) throw new AppError('not-found');
        await recordNotification(tx, { userId, type: 'actionGirlOffer' });
        await audit(tx, { userId, adminId, action: 'actionGirlOffer', fromState: user.approvedState, toState: user.approvedState, reason: null });
      });
    },

    /** The documents a provider page stored for a running check (replacing earlier ones of the same kind). */
    async storeDocument(checkId: string, userId: number, kind: 'front' | 'back' | 'selfie', data: Buffer, size: { width: number; height: number }): Promise<void> {
      const key = documentKey(checkId, kind);
      await ctx.storage.put(key, data);
      await db
        .insert(identityDocuments)
        .values({ checkId, userId, kind, storageKey: key, width: size.width, height: size.height })
        .onConflictDoUpdate({ target: [identityDocuments.checkId, identityDocuments.kind], set: { storageKey: key, width: size.width, height: size.height, createdAt: new Date() } });
    },

    async check(checkId: string): Promise<CheckRow | undefined> {
      const [row] = await db.select().from(identityChecks).where(eq(identityChecks.id, checkId));
      return row;
    },
  };

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
}

export type PartnerService = ReturnType<typeof createPartnerService>;

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
