// The shell's parts only a signed-in person sees (the tabs' counts, the earnings): one chunk,
// fetched the first time someone is signed in on the page (layout/TabItems.tsx, Header.tsx,
// SideNav.tsx), with the strings and stores they use.
export { NotificationBadge } from './NotificationBadge';
export { ChatTabBadge } from './ChatTabBadge';
export { EarningsTabBadge } from './EarningsTabBadge';
export { HeaderEarnings } from './HeaderEarnings';
export { EarningsAside } from './EarningsAside';
