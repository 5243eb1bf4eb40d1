/**
 * The partner programme's service, put together from its parts: the shared steps and reads
 * (`records.ts`), the applicant's actions (`applicant.ts`), the administrators' (`admin.ts`),
 * and the identity documents' storage, links and purge (`documents.ts`).
 */
import type { AppContext } from '../../context';
import { adminSide } from './admin';
import { applicantSide } from './applicant';
import { partnerRecords, type PartnerServiceDeps } from './records';

export { DOCUMENT_LINK_SECONDS, UNUSED_DOCUMENTS_KEPT_MS, documentKey, documentLinks, newCheckId, purgeIdentityDocuments } from './documents';
export type { PartnerServiceDeps } from './records';

export function createPartnerService(ctx: AppContext, deps: PartnerServiceDeps) {
  const records = partnerRecords(ctx, deps);
  return { ...applicantSide(ctx, deps, records), ...adminSide(ctx, records) };
}

export type PartnerService = ReturnType<typeof createPartnerService>;
