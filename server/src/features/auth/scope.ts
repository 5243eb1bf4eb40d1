/**
 * What a widget session may do: the actions the embeddable widgets offer a fan on a creator's
 * site — follow, like, comment, gift and tip, unlock, subscribe, chat, call, and top-up through
 * the platform's own card page — plus the reads they need. A widget's token lives in the partner
 * page's storage, so whatever it may do that page's script may do without the fan: its spends
 * pass only within the allowance the fan gave the site or once he confirmed them in the
 * platform's popup (features/spending/requests.ts), and it never charges a card. Everything else (password, e-mail,
 * embed origins, payouts, card removal, account deletion, partner data, admin) is refused with
 * `widget-scope`: a site a fan allowed must not be able to take the account over.
 *
 * Deny by default: a route is open to widgets only when it is listed here, so a new route is
 * safe until someone decides otherwise (a server test walks the route table against this list).
 */
export const widgetRoutes: ReadonlySet<string> = new Set([
  // the fan's own account and badges
  'GET /api/users/me',
  'GET /api/count/',
  // profiles and the social graph
  'GET /api/users/:id',
  'POST /api/users/follow',
  'DELETE /api/users/follow',
  // posts and feeds
  'GET /api/2/timeline',
  'GET /api/posts/media/timeline/:id',
  'GET /api/posts/:id',
  'GET /api/posts/:id/comments',
  'GET /api/posts/comments/:commentId',
  'POST /api/posts/:id/likes',
  'DELETE /api/posts/:id/likes',
  'POST /api/posts/comments',
  'POST /api/posts/comments/:id/like',
  'DELETE /api/posts/comments/:id/like',
  'GET /api/unlocked-posts',
  // gifts, tips and unlocks
  'POST /api/posts/gift',
  'POST /api/users/tip',
  'POST /api/media/unlock',
  'GET /api/media/:id',
  // subscriptions (a card subscription only opens a request paid in the platform's card window)
  'GET /api/subscription/offer',
  'GET /api/subscription/:id',
  'GET /api/subscription/subscribing',
  'POST /api/subscription/subscribe/:offerId',
  'POST /api/subscription/pay-new-card',
  'POST /api/subscription/pay-old-card',
  // the first-month discount a tracking link gives the fan, shown before he subscribes
  'GET /api/links/discount',
  // credits: balance, and top-ups, which only open a request paid in the platform's card window
  'GET /api/payments/processors',
  'GET /api/payments/packages',
  'GET /api/payments/balance',
  'GET /api/payments/cards',
  'POST /api/payments/pay-new-card',
  'POST /api/payments/pay-old-card',
  'GET /api/payments/sandboxresult',
  'GET /api/payments/transactions',
  // spend requests: the widget reads the fan's answer, or withdraws what it asked (never confirms)
  'GET /api/spend-requests/:id',
  'POST /api/spend-requests/:id/cancel',
  // calls (the socket carries them; these are a call's record, its ICE servers and a creator's minute price)
  'GET /api/calls/:id',
  'GET /api/calls/:id/ice-servers',
  'GET /api/users/:id/call-packages',
  // chat (the socket carries messages; these are its lists and settings)
  'GET /api/chat/conversations',
  'GET /api/chat/conversations/:userId',
  'GET /api/chat/conversations-media/',
  'POST /api/media/binary',
  'POST /api/media',
]);

/**
 * Routes a widget may call with these body fields only. Unlocking asks the fan to accept adult
 * content first (SPEC §4), which the unlock popup records on the account: that one field, and
 * nothing else of the account, is a widget's to set.
 */
export const widgetFields: Readonly<Record<string, readonly string[]>> = {
  'PUT /api/users/me': ['nsfwAgreement'],
};

/** Whether a widget session may call the route `url` (Fastify's route pattern) with `method` and `body`. */
export function widgetMayCall(method: string, url: string, body?: unknown): boolean {
  // What a visitor may do, a widget may do too (the sign-in routes refuse other pages anyway).
  if (url.startsWith('/papi/')) return true;
  const route = `${method === 'HEAD' ? 'GET' : method} ${url}`;
  if (widgetRoutes.has(route)) return true;
  const fields = widgetFields[route];
  if (fields === undefined || typeof body !== 'object' || body === null) return false;
  const sent = Object.keys(body);
  return sent.length > 0 && sent.every((field) => fields.includes(field));
}
