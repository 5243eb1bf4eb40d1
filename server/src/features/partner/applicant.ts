/**
 * What an applicant does in the partner programme: the form, the registration with a partner's
 * code, leaving before approval, showing the badge, answering the action-girl offer, the identity
 * check at a provider (started, polled, and its verdict by callback) and the check's documents.
 */
import { and, eq, inArray } from 'drizzle-orm';
import type { IdCheckStart, IdentityCheck, PartnerFormBody, PartnerStatus } from '../../../../lib/contract/partner';
import type { AppContext } from '../../context';
import { identityCallbacks, identityChecks, identityDocuments, partnerApplications, users } from '../../db/schema';
import { AppError } from '../../errors';
import { recordNotification } from '../notifications/service';
import { documentKey, newCheckId } from './documents';
import { checkPartnerForm, isActionGirlAnswer, type PartnerEvent } from './domain';
import { CALLBACK_MAX_AGE_MS } from './identity/sandbox';
import type { IdentityEvent } from './identity/types';
import type { CheckRow, PartnerRecords, PartnerServiceDeps } from './records';

/** The applicant's side of the partner service. */
export function applicantSide(ctx: AppContext, deps: PartnerServiceDeps, records: PartnerRecords) {
  const { db } = ctx;
  const { links, lockUser, moveOrRefuse, latestChecks, status, announce, partnerByCode } = records;

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
}
