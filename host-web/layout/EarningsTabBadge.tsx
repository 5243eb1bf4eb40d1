import { useEffect } from 'react';
import { useSignals } from '@preact/signals-react/runtime';
import { timelineBadgeError } from '../../lib/sdk';
import { EarningsBadge } from '../../lib/ui';
import { useSite } from '../site';

/** How often the balance is asked for while the page stays open, until the websocket pushes it. */
const REFRESH_MS = 60_000;

/**
 * The Timeline tab's badge (SPEC §2, §9): the creator's earnings not yet seen, in dollars
 * ('$1' under a dollar, '$99+' above $99), flagged when the account waits for the creator
 * (approved state 7, 101, 105 or 107). Seeing the earnings in settings clears it. It follows the
 * tab's label; the navigation's `className` places it (over the icon on a phone, at the end of
 * the row in the side navigation), clear of the label.
 */
export function EarningsTabBadge({ className }: { className?: string | undefined }) {
  useSignals();
  const { fanstage, loggedIn } = useSite();
  // The money stores are touched for a signed-in person only: a visitor's page goes without their code.
  useEffect(() => {
    if (!loggedIn) return;
    const { wallet } = fanstage;
    wallet.refresh().catch(() => undefined);
    const id = setInterval(() => wallet.refresh().catch(() => undefined), REFRESH_MS);
    return () => clearInterval(id);
  }, [fanstage, loggedIn]);

  const cents = loggedIn ? fanstage.earnings.unacked.value : 0;
  const flagged = loggedIn && timelineBadgeError(fanstage.session.account.value?.approvedState);
  return <EarningsBadge cents={cents} error={flagged} {...(className ? { className } : {})} />;
}
