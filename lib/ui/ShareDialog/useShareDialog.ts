import { useCallback, useEffect, useRef, useState } from 'react';
import { SHARE_POPUP_HEIGHT, SHARE_POPUP_WIDTH, shareNetworks, shareUrl, shareUtm, type ShareInput, type ShareNetwork } from '../../sdk';

export interface ShareTarget {
  network: ShareNetwork;
  href: string;
  /** Opens in a 626 × 436 window (SPEC §9); app links (mail, SMS, messengers) open in place. */
  popup: boolean;
}

export interface UseShareDialogOptions extends ShareInput {
  networks?: readonly ShareNetwork[];
}

/** SPEC §8: the copy message stays 3 s. */
export const COPY_MESSAGE_MS = 3000;

function withUtm(url: string, network: ShareNetwork | 'copy'): string {
  return `${url}${url.includes('?') ? '&' : '?'}utm=${shareUtm(network)}`;
}

function isIos(): boolean {
  return typeof navigator !== 'undefined' && /iPad|iPhone|iPod/.test(navigator.userAgent);
}

/** The share links of each network and the copy-link action with its SPEC §8 messages. */
export function useShareDialog({ networks = shareNetworks, ...input }: UseShareDialogOptions) {
  const [copy, setCopy] = useState<'copied' | 'failed' | null>(null);
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null);
  useEffect(() => () => {
    if (timer.current) clearTimeout(timer.current);
  }, []);

  const targets: ShareTarget[] = networks.map((network) => {
    const href = shareUrl(network, { ...input, url: withUtm(input.url, network) }, { ios: isIos() });
    return { network, href, popup: href.startsWith('https:') };
  });

  const open = useCallback((target: ShareTarget): boolean => {
    if (!target.popup || typeof window === 'undefined') return false;
    const left = Math.max(0, Math.round((window.screen?.width ?? SHARE_POPUP_WIDTH) / 2 - SHARE_POPUP_WIDTH / 2));
    const top = Math.max(0, Math.round((window.screen?.height ?? SHARE_POPUP_HEIGHT) / 2 - SHARE_POPUP_HEIGHT / 2));
    const popup = window.open(target.href, `share-${target.network}`, `width=${SHARE_POPUP_WIDTH},height=${SHARE_POPUP_HEIGHT},left=${left},top=${top}`);
    if (!popup) return false;
    // The network's page must not be able to navigate this one.
    popup.opener = null;
    return true;
  }, []);

  const copyLink = useCallback(async () => {
    const link = withUtm(input.url, 'copy');
    let ok = false;
    try {
      if (typeof navigator !== 'undefined' && navigator.clipboard?.writeText) {
        await navigator.clipboard.writeText(link);
        ok = true;
      }
    } catch {
      ok = false;
    }
    setCopy(ok ? 'copied' : 'failed');
    if (timer.current) clearTimeout(timer.current);
    timer.current = setTimeout(() => setCopy(null), COPY_MESSAGE_MS);
    return ok;
  }, [input.url]);

  return { targets, open, copyLink, copy, link: withUtm(input.url, 'copy') };
}
