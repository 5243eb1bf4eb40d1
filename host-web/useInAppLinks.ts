import { useCallback, type MouseEvent } from 'react';
import { useLocation } from 'wouter';

/**
 * Components from `lib/ui` render plain `<a href>` links, since they also live on partner
 * pages without a router. Inside the site, a plain click on a same-origin link navigates in
 * place instead of reloading the page; modified clicks (new tab, download) keep their meaning.
 */
export function useInAppLinks() {
  const [, navigate] = useLocation();
  return useCallback(
    (event: MouseEvent<HTMLElement>) => {
      if (event.defaultPrevented || event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
      const anchor = event.target instanceof Element ? event.target.closest('a') : null;
      if (!anchor || (anchor.target && anchor.target !== '_self') || anchor.hasAttribute('download')) return;
      const url = new URL(anchor.href, window.location.href);
      if (url.origin !== window.location.origin) return;
      event.preventDefault();
      navigate(url.pathname + url.search + url.hash);
    },
    [navigate],
  );
}
