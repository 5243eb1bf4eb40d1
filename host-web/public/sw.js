/*
 * Fanstage's service worker: web push (docs/push.md). Served from the site's root with
 * `Cache-Control: no-cache`, so a new version reaches browsers on their next visit. It caches
 * nothing: the site works the same with or without it.
 *
 * A push's payload is the JSON of lib/contract/push.ts PushPayload: title, body, icon, the
 * same-origin url a click opens, a tag (one notification per conversation or call) and whether
 * the person muted sounds (`notificationSound` 2).
 *
 * Calls (docs/push.md "Incoming calls"): an incoming call's notification has Accept and Decline
 * and stays until acted on; `callEnded` closes it (or turns it into a missed call). Accept
 * brings a tab of the site forward and has it answer that call; Decline asks the server from
 * here, with the session's own cookie, and opens nothing. The pages and this worker speak
 * through `postMessage`: `fanstage:ring-check` (can a tab ring audibly?) and `fanstage:call`.
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

/** How long a tab may take to say whether it can ring (ms): a frozen one must not delay the notification. */
const RING_CHECK_MS = 1000;

/**
 * Whether `client` (a focused, visible tab) can ring audibly itself: a page the person has
 * clicked or typed in since it loaded (browsers play no sound before that). One that does not
 * answer in time cannot.
 */
function ringsItself(client) {
  return new Promise((resolve) => {
    const channel = new MessageChannel();
    const timer = setTimeout(() => resolve(false), RING_CHECK_MS);
    channel.port1.onmessage = (message) => {
      clearTimeout(timer);
      resolve(!!(message.data && message.data.audible === true));
    };
    try {
      client.postMessage({ type: 'fanstage:ring-check' }, [channel.port2]);
    } catch {
      clearTimeout(timer);
      resolve(false);
    }
  });
}

async function closeCallNotifications(tag) {
  const open = await self.registration.getNotifications({ tag });
  for (const notification of open) notification.close();
}

async function showIncomingCall(payload, url) {
  // A tab in front that rings out loud needs no notification; a background tab, a tab nobody
  // has clicked since it loaded (it may not play sound) or no tab at all gets one.
  const windows = await self.clients.matchAll({ type: 'window', includeUncontrolled: true });
  const inFront = windows.filter((client) => client.focused && client.visibilityState === 'visible');
  const answers = await Promise.all(inFront.map(ringsItself));
  if (answers.some(Boolean)) return;
  const actions = Array.isArray(payload.actions)
    ? payload.actions.filter((a) => a && (a.action === 'accept' || a.action === 'decline') && typeof a.title === 'string').map((a) => ({ action: a.action, title: a.title }))
    : [];
  await self.registration.showNotification(payload.title, {
    body: typeof payload.body === 'string' ? payload.body : '',
    icon: typeof payload.icon === 'string' ? payload.icon : '/favicon.svg',
    tag: typeof payload.tag === 'string' ? payload.tag : undefined,
    renotify: true,
    // A ring waits for an answer: it does not slide away after a few seconds.
    requireInteraction: true,
    silent: payload.silent === true,
    lang: typeof payload.lang === 'string' ? payload.lang : undefined,
    actions,
    data: { url, kind: 'incomingCall', callId: payload.callId },
  });
}

async function showCallEnded(payload, url) {
  const tag = typeof payload.tag === 'string' ? payload.tag : null;
  if (tag === null) return;
  await closeCallNotifications(tag);
  if (payload.missed !== true) return;
  await self.registration.showNotification(payload.title, {
    body: typeof payload.body === 'string' ? payload.body : '',
    icon: typeof payload.icon === 'string' ? payload.icon : '/favicon.svg',
    tag,
    silent: true,
    lang: typeof payload.lang === 'string' ? payload.lang : undefined,
    data: { url, kind: 'callEnded' },
  });
}

self.addEventListener('push', (event) => {
  const payload = payloadOf(event);
  if (payload === null) return;
  const url = sameOriginUrl(payload.url);
  if (payload.kind === 'incomingCall' && typeof payload.callId === 'string') {
    keepAlive(event, showIncomingCall(payload, url));
    return;
  }
  if (payload.kind === 'callEnded') {
    keepAlive(event, showCallEnded(payload, url));
    return;
  }
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

/** The Web Lock the site's tabs take turns on to refresh (lib/sdk/stores/session.ts REFRESH_LOCK_NAME). */
const REFRESH_LOCK_NAME = 'fanstage-refresh';

/** An access token from the session's refresh cookie, taking turns with the tabs; null when signed out. */
async function accessToken() {
  const refresh = async () => {
    const response = await fetch('/papi/login/refresh', { credentials: 'same-origin', headers: { Apiversion: '1.0' } });
    const answer = await response.json().catch(() => null);
    return answer && answer.body && typeof answer.body.accessToken === 'string' ? answer.body.accessToken : null;
  };
  return self.navigator.locks ? self.navigator.locks.request(REFRESH_LOCK_NAME, refresh) : refresh();
}

/**
 * Declines the call from here (POST /api/calls/{id}/decline). True when the server has its
 * answer — declined now, or already over or answered elsewhere; false when it could not be
 * asked (signed out, offline).
 */
async function declineHere(callId) {
  try {
    const token = await accessToken();
    if (token === null) return false;
    const response = await fetch(`/api/calls/${encodeURIComponent(callId)}/decline`, {
      method: 'POST',
      credentials: 'same-origin',
      headers: { Apiversion: '1.0', authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: '{}',
    });
    const answer = await response.json().catch(() => null);
    return !!answer && (answer.statusCode === 1 || answer.statusText === 'call-not-found' || answer.statusText === 'call-taken');
  } catch {
    return false;
  }
}

/** `url` with the call to answer in its query, for a tab opened to answer it. */
function answerUrl(url, callId, answer) {
  const target = new URL(url);
  target.searchParams.set('call', callId);
  if (answer !== null) target.searchParams.set('answer', answer);
  return target.href;
}

/**
 * Accept, Decline (when it could not be done from here) or a click on the notification: a tab
 * of the site comes forward and answers the call — `answer` null only shows it ringing there.
 */
async function answerInTab(url, callId, answer) {
  const windows = await self.clients.matchAll({ type: 'window', includeUncontrolled: true });
  const tab = windows.find((client) => client.focused) || windows.find((client) => client.visibilityState === 'visible') || windows[0];
  if (tab) {
    await tab.focus().catch(() => undefined);
    tab.postMessage({ type: 'fanstage:call', callId, answer });
    return;
  }
  await self.clients.openWindow(answerUrl(url, callId, answer));
}

self.addEventListener('notificationclick', (event) => {
  event.notification.close();
  const url = sameOriginUrl(event.notification.data && event.notification.data.url);
  const data = event.notification.data || {};
  if (data.kind === 'incomingCall' && typeof data.callId === 'string') {
    const callId = data.callId;
    if (event.action === 'decline') {
      keepAlive(
        event,
        (async () => {
          if (!(await declineHere(callId))) await answerInTab(url, callId, 'decline');
        })(),
      );
      return;
    }
    keepAlive(event, answerInTab(url, callId, event.action === 'accept' ? 'accept' : null));
    return;
  }
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
