/*
 * Fanstage's service worker: web push (docs/push.md). Served from the site's root with
 * `Cache-Control: no-cache`, so a new version reaches browsers on their next visit. It caches
 * nothing: the site works the same with or without it.
 *
 * A push's payload is the JSON of lib/contract/push.ts PushPayload: title, body, icon, the
 * same-origin url a click opens, a tag (one notification per conversation or call) and whether
 * the person muted sounds (`notificationSound` 2).
 */

self.addEventListener('install', () => {
  // Nothing to prepare: take over at once instead of waiting for every tab to close.
  void self.skipWaiting();
});

self.addEventListener('activate', (event) => {
  event.waitUntil(self.clients.claim());
});

/**
 * Keeps the worker alive until `work` is done. Only events the browser dispatched may extend
 * their lifetime; one dispatched by a script (devtools, an end-to-end test) runs all the same.
 */
function keepAlive(event, work) {
  try {
    event.waitUntil(work);
  } catch {
    // An untrusted event: `work` runs on without the extension.
  }
}

/** The payload, or null for a push without one (nothing to tell). */
function payloadOf(event) {
  if (!event.data) return null;
  try {
    const payload = event.data.json();
    return payload && typeof payload.title === 'string' ? payload : null;
  } catch {
    return null;
  }
}

/** Only paths of this site: a push never sends anyone elsewhere. */
function sameOriginUrl(url) {
  try {
    const target = new URL(typeof url === 'string' ? url : '/', self.location.origin);
    return target.origin === self.location.origin ? target.href : self.location.origin + '/';
  } catch {
    return self.location.origin + '/';
  }
}

self.addEventListener('push', (event) => {
  const payload = payloadOf(event);
  if (payload === null) return;
  const url = sameOriginUrl(payload.url);
  keepAlive(
    event,
    (async () => {
      // Someone looking at that very screen (the open chat) needs no notification: the page
      // shows the news itself. Everywhere else — another screen, a background tab, no tab —
      // the notification shows.
      const windows = await self.clients.matchAll({ type: 'window', includeUncontrolled: true });
      const watching = windows.some((client) => client.focused && client.visibilityState === 'visible' && client.url === url);
      if (watching) return;
      await self.registration.showNotification(payload.title, {
        body: typeof payload.body === 'string' ? payload.body : '',
        icon: typeof payload.icon === 'string' ? payload.icon : '/favicon.svg',
        tag: typeof payload.tag === 'string' ? payload.tag : undefined,
        renotify: typeof payload.tag === 'string',
        silent: payload.silent === true,
        lang: typeof payload.lang === 'string' ? payload.lang : undefined,
        data: { url, kind: payload.kind },
      });
    })(),
  );
});

self.addEventListener('notificationclick', (event) => {
  event.notification.close();
  const url = sameOriginUrl(event.notification.data && event.notification.data.url);
  keepAlive(
    event,
    (async () => {
      const windows = await self.clients.matchAll({ type: 'window', includeUncontrolled: true });
      // An open tab of the site is reused: the one in front if any, else the first.
      const tab = windows.find((client) => client.focused) || windows[0];
      if (tab && tab.url === url) {
        await tab.focus().catch(() => undefined);
        return;
      }
      // navigate() works on the tabs this worker controls (all of them once it has claimed them).
      const moved = tab ? await tab.navigate(url).catch(() => null) : null;
      if (moved) {
        await moved.focus().catch(() => undefined);
        return;
      }
      await self.clients.openWindow(url);
    })(),
  );
});
