/**
 * What administrators do in the partner programme: the queue of applications, approving or
 * declining one, revoking or restoring a partner's badge, and offering the action-girl
 * programme. Every decision is logged with who made it.
 */
import { and, eq, inArray, sql } from 'drizzle-orm';
import type { AdminPartnersQuery, PartnerApplication } from '../../../../lib/contract/partner';
import type { AppContext } from '../../context';
import { identityChecks, partnerApplications, users } from '../../db/schema';
import { AppError } from '../../errors';
import { recordNotification } from '../notifications/service';
import { ApprovedState, newPartnerCode, queuedStates } from './domain';
import type { PartnerRecords } from './records';

/** The administrators' side of the partner service. */
export function adminSide(ctx: AppContext, records: PartnerRecords) {
  const { db } = ctx;
  const { lockUser, moveOrRefuse, announce, audit, applicationsWhere } = records;

  return {
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
  };
}
