/** Level of support accounts (SPEC §4): exempt from the resolution rule (SPEC §5), takes calls like a creator. */
export const SUPPORT_LEVEL = 100;

/** Page sizes of lists (SPEC §9): the contract holds them, the server pages with the same numbers. */
export { pageSizes, type PageSizeKey } from '../../contract/rules/pages';

/** Days each cookie of `POST /papi/users/cookie` lives (SPEC §9); the contract is the one source. */
export { CookieNames as cookieExpiryDays, type CookieName } from '../../contract/constants';

/** Layout breakpoints in CSS pixels (SPEC §1): each applies from its width up. */
export const breakpoints = { phone: 0, tablet: 870, web: 1280 } as const;

export type Breakpoint = keyof typeof breakpoints;

/** The layout for a viewport width, for code that cannot use a media query. */
export function breakpointFor(width: number): Breakpoint {
  if (width >= breakpoints.web) return 'web';
  if (width >= breakpoints.tablet) return 'tablet';
  return 'phone';
}
