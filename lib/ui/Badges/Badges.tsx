import { useTranslation } from 'react-i18next';
import { balanceBadge, earningsBadge } from '../../sdk';
import '../theme/tokens.css';
import styles from './Badges.module.css';
import { exactDollars } from '../PriceDetail/money';

export interface BalanceBadgeProps {
  /** The wallet's credits (one credit, one cent). */
  cents: number;
  className?: string;
}

/** The wallet balance as a badge (SPEC §9: '$0.50' under a dollar, '999+' over $999). */
export function BalanceBadge({ cents, className }: BalanceBadgeProps) {
  const { t } = useTranslation();
  return (
    <span className={['fs-root', styles.badge, styles.balance, className].filter(Boolean).join(' ')} data-testid="balance-badge">
      <span aria-hidden="true">{balanceBadge(cents)}</span>
      <span className={styles.visuallyHidden}>{t('siteMoney.badge.balance', { amount: exactDollars(Math.max(0, Math.floor(cents))) })}</span>
    </span>
  );
}

export interface EarningsBadgeProps {
  /** Earnings the creator has not acknowledged yet, in cents. */
  cents: number;
  /** SPEC §2: the creator has something to act on (approved state 7, 101, 105 or 107). */
  error?: boolean;
  className?: string;
}

/**
 * New earnings on the Timeline tab (SPEC §2, §9: '$1' under a dollar, '$99+' over $99), or
 * a warning mark when the account needs the creator's attention. Nothing when neither.
 */
export function EarningsBadge({ cents, error = false, className }: EarningsBadgeProps) {
  const { t } = useTranslation();
  const amount = Math.max(0, Math.floor(Number.isFinite(cents) ? cents : 0));
  if (amount === 0 && !error) return null;
  const spoken = [amount > 0 ? t('siteMoney.badge.earnings', { amount: exactDollars(amount) }) : null, error ? t('siteMoney.badge.attention') : null].filter(Boolean).join(' ');
  return (
    <span className={['fs-root', styles.badge, error ? styles.flagged : null, className].filter(Boolean).join(' ')} data-testid="earnings-badge">
      <span aria-hidden="true">
        {amount > 0 ? earningsBadge(amount) : null}
        {error ? <span className={styles.flag}>!</span> : null}
      </span>
      <span className={styles.visuallyHidden}>{spoken}</span>
    </span>
  );
}
