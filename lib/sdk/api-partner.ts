/**
 * Typed calls of the partner programme (SPEC §7 Partner; docs/partners.md): the partner form,
 * the identity check, badge confirmation, partner codes, and the administrators' queue.
 * Failures reject with an `SdkError` whose `code` is the envelope's statusText:
 * `partner-invalid-<field>` (with `body.field`), `partner-wrong-state` (with
 * `body.approvedState`), `invalid-code`, `id-check-pending`, `id-check-review`,
 * `id-check-declined`, `id-check-not-started` (the check in `body`), `verify-required`, ...
 *
 * API (stable):
 *
 *   partnerApi(client)
 *     .status()                       GET  /api/partner                      → PartnerStatus
 *     .saveForm(form)                 PUT  /api/partner                      → PartnerStatus
 *     .registrationDone(companyCode?) GET  /api/partner/reg-done             → PartnerStatus (7 → 101)
 *     .checkCode(companyCode)         GET  /papi/partner/check-code          → true, or false for an unknown code (sets the affcode cookie when true)
 *     .cancelVerification()           GET  /api/partner/cancel-verification  → PartnerStatus (→ 0)
 *     .confirmBadge(show)             POST /api/partner/confirm-badge | confirm-no-badge → PartnerStatus
 *     .actionGirl(actionState)        POST /api/partner/action-girl {actionState: 2 | 3}
 *     .startIdCheck()                 GET  /api/partner/start-id-check       → IdCheckStart (navigate to redirectUrl)
 *     .checkIdCheck()                 GET  /api/partner/check-id-check       → IdentityCheck (approved; rejects otherwise)
 *
 *   adminPartnersApi(client)            (administrators, level 500)
 *     .list({filter?, limit?, offset?}) GET  /api/admin/partners            → PartnerApplication[]
 *     .get(userId)                      GET  /api/admin/partners/{userId}   → PartnerApplication
 *     .approve(userId, reason?)         POST /api/admin/partners/{userId}/approve → PartnerApplication
 *     .decline(userId, reason)          POST /api/admin/partners/{userId}/decline → PartnerApplication
 *     .revokeBadge(userId, reason)      POST /api/admin/partners/{userId}/revoke-badge → PartnerApplication
 *     .restoreBadge(userId)             POST /api/admin/partners/{userId}/restore-badge → PartnerApplication
 *     .offerActionGirl(userId)          POST /api/admin/partners/{userId}/action-girl-offer
 *
 * The state changes also arrive over the socket as `eventMessage` `partnerStatusChanged`.
 */
import type { AdminPartnersQuery, IdCheckStart, IdentityCheck, PartnerApplication, PartnerFormBody, PartnerStatus } from '../contract/partner';
import type { FanstageClient } from './client';
import { SdkError } from './errors';

const seg = (value: number | string) => encodeURIComponent(String(value));

export function partnerApi(client: FanstageClient) {
  return {
    status: (signal?: AbortSignal) => client.get<PartnerStatus>('/api/partner', undefined, { signal }),
    saveForm: (form: PartnerFormBody) => client.request<PartnerStatus>('PUT', '/api/partner', { body: form }),
    registrationDone: (companyCode?: string) => client.get<PartnerStatus>('/api/partner/reg-done', companyCode ? { companyCode } : undefined),
    /** Whether `companyCode` is an approved partner's `C-` code; the server then sets the `affcode` cookie. */
    async checkCode(companyCode: string): Promise<boolean> {
      try {
        await client.get<undefined>('/papi/partner/check-code', { companyCode });
        return true;
      } catch (error) {
        if (error instanceof SdkError && error.code === 'invalid-code') return false;
        throw error;
      }
    },
    cancelVerification: () => client.get<PartnerStatus>('/api/partner/cancel-verification'),
    confirmBadge: (show: boolean) => client.post<PartnerStatus>(show ? '/api/partner/confirm-badge' : '/api/partner/confirm-no-badge'),
    actionGirl: (actionState: 2 | 3) => client.post<undefined>('/api/partner/action-girl', { actionState }),
    startIdCheck: () => client.get<IdCheckStart>('/api/partner/start-id-check'),
    checkIdCheck: (signal?: AbortSignal) => client.get<IdentityCheck>('/api/partner/check-id-check', undefined, { signal }),
  };
}

export function adminPartnersApi(client: FanstageClient) {
  return {
    list: (query: AdminPartnersQuery = {}, signal?: AbortSignal) =>
      client.get<PartnerApplication[]>('/api/admin/partners', { ...(query.filter ? { filter: query.filter } : {}), ...(query.limit ? { limit: query.limit } : {}), ...(query.offset ? { offset: query.offset } : {}) }, { signal }),
    get: (userId: number, signal?: AbortSignal) => client.get<PartnerApplication>(`/api/admin/partners/${seg(userId)}`, undefined, { signal }),
    approve: (userId: number, reason?: string) => client.post<PartnerApplication>(`/api/admin/partners/${seg(userId)}/approve`, reason === undefined ? {} : { reason }),
    decline: (userId: number, reason: string) => client.post<PartnerApplication>(`/api/admin/partners/${seg(userId)}/decline`, { reason }),
    revokeBadge: (userId: number, reason: string) => client.post<PartnerApplication>(`/api/admin/partners/${seg(userId)}/revoke-badge`, { reason }),
    restoreBadge: (userId: number) => client.post<PartnerApplication>(`/api/admin/partners/${seg(userId)}/restore-badge`, {}),
    offerActionGirl: (userId: number) => client.post<undefined>(`/api/admin/partners/${seg(userId)}/action-girl-offer`),
  };
}

export type PartnerApi = ReturnType<typeof partnerApi>;
export type AdminPartnersApi = ReturnType<typeof adminPartnersApi>;
