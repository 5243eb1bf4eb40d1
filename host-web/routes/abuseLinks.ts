import type { AbuseType } from '../../lib/contract/abuse';

/** The report form for a thing (SPEC §2 /abuse-form): what is reported travels in the query. */
export function abuseFormHref(type: AbuseType, id: number): string {
  return `/abuse-form?type=${type}&id=${id}`;
}
