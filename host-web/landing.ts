import { useCallback, useEffect, useRef, useState } from 'react';
import { normalizeInviteCode } from '../lib/contract/constants';
import type { AffiliateInfo } from '../lib/contract';
import type { Fanstage } from '../lib/sdk';
import { cookieExpiryDays } from '../lib/sdk';
import { signal } from '@preact/signals-core';
import type { LinkLanding } from '../lib/contract';

/**
 * What the last visit through a tracking link offers (`/{username}?l={code}`): her free trial or
 * first-month discount, which her profile shows (routes/LinkOffer.tsx). Null until one answers.
 */
export const linkLanding = signal<{ username: string; code: string; landing: LinkLanding } | null>(null);

/**
 * SPEC §9 utm codes of shared links (`?utm=1t2w`, lib/sdk/rules/share.ts): `1…` says what was
 * shared, `2…` on which network. On `/` they are rewritten into the standard utm_source,
 * utm_medium and utm_campaign (SPEC §2), which is what analytics tools read.
 */
const utmCampaigns: Record<string, string> = { '1t': 'post', '1m': 'own-profile', '1p': 'profile' };
const utmSources: Record<string, string> = { '2t': 'twitter', '2w': 'whatsapp', '2m': 'messenger', '2n': 'other', '2i': 'in-app' };

/** `1t2w` → utm_source whatsapp, utm_medium share, utm_campaign post; parts it does not know are left out. */
export function expandUtm(code: string): { utm_source?: string; utm_medium: string; utm_campaign?: string } {
  const expanded: { utm_source?: string; utm_medium: string; utm_campaign?: string } = { utm_medium: 'share' };
  for (let i = 0; i + 2 <= code.length; i += 2) {
    const part = code.slice(i, i + 2).toLowerCase();
    const campaign = utmCampaigns[part];
    const source = utmSources[part];
    if (campaign !== undefined) expanded.utm_campaign = campaign;
    if (source !== undefined) expanded.utm_source = source;
  }
  return expanded;
}

/**
 * The query with `utm` rewritten into utm_source, utm_medium and utm_campaign (values already
 * there win), or null when there is no `utm`. Other parameters keep their order.
 */
export function rewriteUtm(search: string): string | null {
  const params = new URLSearchParams(search);
  const code = params.get('utm');
  if (code === null) return null;
  params.delete('utm');
  for (const [name, value] of Object.entries(expandUtm(code))) {
    if (value !== undefined && !params.has(name)) params.set(name, value);
  }
  return queryString(params);
}

/** The query without utm_source (SPEC §2: removed from the address once the page has loaded), or null when it has none. */
export function withoutUtmSource(search: string): string | null {
  const params = new URLSearchParams(search);
  if (!params.has('utm_source')) return null;
  params.delete('utm_source');
  return queryString(params);
}

function queryString(params: URLSearchParams): string {
  const text = params.toString();
  return text ? `?${text}` : '';
}

/** Replaces the address's query without a navigation (the screen stays, history gets no entry). */
function replaceQuery(search: string): void {
  const { pathname, hash } = window.location;
  window.history.replaceState(window.history.state, '', `${pathname}${search}${hash}`);
}

/** Where the processor a `?pgw=` link asked for is kept for the tab's life (a reload keeps it). */
const PGW_KEY = 'fanstage.pgw';

function storage(): Storage | null {
  try {
    return window.sessionStorage;
  } catch {
    return null;
  }
}

/**
 * `pgw` names the payment processor the link wants used (SPEC §2): kept for the tab and
 * offered first by every top-up, when the platform has such a processor.
 */
export function restorePreferredProcessor(fanstage: Fanstage): void {
  const kept = storage()?.getItem(PGW_KEY);
  if (kept) preferProcessor(fanstage, kept);
}

/** The wallet's code is not in the first load (createLazyFanstage): it is fetched for this. */
function preferProcessor(fanstage: Fanstage, name: string): void {
  fanstage
    .loadStores()
    .then(() => fanstage.wallet.preferProcessor(name))
    .catch(() => undefined);
}

function rememberPreferredProcessor(fanstage: Fanstage, name: string): void {
  // Processor names are short identifiers; anything else is not one.
  if (!/^[a-z0-9_-]{1,32}$/i.test(name)) return;
  preferProcessor(fanstage, name);
  storage()?.setItem(PGW_KEY, name);
}

export interface Invitation {
  code: string;
  affiliate: AffiliateInfo;
}

/**
 * The query of a landing (SPEC §2), handled on every navigation that brings one:
 * - `aff` (an 8-character invite code, any page): who is behind it is looked up; a known code is
 *   kept in the `affcode` cookie for 31 days (the server reads it at sign-up) and answered as the
 *   invitation, which the site shows to visitors who are not logged in. A bad code is ignored.
 * - `l` on a profile (`/{username}?l={code}`): the visit through her tracking link is recorded.
 * - on `/` only: `utm` is rewritten into utm_source, utm_medium and utm_campaign; `pgw` picks the
 *   payment processor; utm_source leaves the address once the page has loaded.
 */
export function useLandingQuery(fanstage: Fanstage, location: string): { invitation: Invitation | null; dismiss: () => void } {
  const [invitation, setInvitation] = useState<Invitation | null>(null);
  const [dismissed, setDismissed] = useState<string | null>(null);
  const looked = useRef<string | null>(null);
  const visited = useRef<string | null>(null);

  useEffect(() => {
    const search = window.location.search;
    if (!search) return;
    const params = new URLSearchParams(search);

    const code = normalizeInviteCode(params.get('aff'));
    if (code !== null && looked.current !== code) {
      looked.current = code;
      fanstage.api
        .affiliate(code)
        .then(async (affiliate) => {
          setInvitation({ code, affiliate });
          await fanstage.client.post('/papi/users/cookie', { name: 'affcode', value: code, expires: cookieExpiryDays.affcode });
        })
        // An unknown code, or no answer: the page goes on as without one.
        .catch(() => undefined);
    }

    // `/{username}?l={code}`: a visit through the creator's tracking link, counted by the
    // server (its own cookie names this browser until it signs up or in). Once per page load.
    const link = params.get('l');
    const username = /^\/([^/]+)$/.exec(location)?.[1];
    if (link !== null && /^[a-z0-9]{8}$/.test(link) && username !== undefined && visited.current !== `${username}/${link}`) {
      visited.current = `${username}/${link}`;
      const name = decodeURIComponent(username);
      fanstage.client
        .post<LinkLanding>('/papi/links/visit', { username: name, code: link })
        .then((landing) => {
          linkLanding.value = { username: name, code: link, landing };
        })
        .catch(() => undefined);
    }

    if (location !== '/') return;
    const pgw = params.get('pgw');
    if (pgw) rememberPreferredProcessor(fanstage, pgw);
    const rewritten = rewriteUtm(search);
    if (rewritten !== null) replaceQuery(rewritten);
    const removeSource = () => {
      if (window.location.pathname !== '/') return;
      const cleaned = withoutUtmSource(window.location.search);
      if (cleaned !== null) replaceQuery(cleaned);
    };
    if (document.readyState === 'complete') {
      const timer = window.setTimeout(removeSource, 0);
      return () => window.clearTimeout(timer);
    }
    window.addEventListener('load', removeSource, { once: true });
    return () => window.removeEventListener('load', removeSource);
  }, [fanstage, location]);

  const dismiss = useCallback(() => setDismissed(invitation?.code ?? null), [invitation]);
  return { invitation: invitation !== null && invitation.code !== dismissed ? invitation : null, dismiss };
}

/** The invite code the `affcode` cookie holds (a link opened within the last 31 days), or null. */
export function affcodeCookie(): string | null {
  for (const part of document.cookie.split(';')) {
    const [name, ...rest] = part.trim().split('=');
    if (name === 'affcode') return normalizeInviteCode(decodeURIComponent(rest.join('=')));
  }
  return null;
}

/** Who invites the visitor, from the address's `aff` or else the `affcode` cookie: shown on the sign-up form. */
export function useInvitedBy(fanstage: Fanstage): AffiliateInfo | null {
  const [affiliate, setAffiliate] = useState<AffiliateInfo | null>(null);
  useEffect(() => {
    const code = normalizeInviteCode(new URLSearchParams(window.location.search).get('aff')) ?? affcodeCookie();
    if (code === null) return;
    let live = true;
    fanstage.api.affiliate(code).then(
      (found) => {
        if (live) setAffiliate(found);
      },
      () => undefined,
    );
    return () => {
      live = false;
    };
  }, [fanstage]);
  return affiliate;
}
