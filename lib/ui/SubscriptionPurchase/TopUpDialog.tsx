import { useTranslation } from 'react-i18next';
import styles from '../PriceDetail/moneyDialog.module.css';
import { MoneyDialog } from '../PriceDetail/MoneyDialog';
import { WalletTopUp } from '../WalletTopUp';

export interface TopUpDialogProps {
  /** `true` once credits are in the wallet, `false` when the fan went back without buying. */
  done: (bought: boolean) => void;
  /** The card page in a popup (default: the dialog and what the fan was doing stay) or by leaving the page. */
  mode?: 'popup' | 'redirect';
  returnUrl?: string;
}

/**
 * The buy-credit popup a spend opens when the wallet is short (SPEC §8 "noMoney opens
 * buy-credit popup"): the wallet top-up in a dialog, then back to what the fan was doing.
 */
export function TopUpDialog({ done, mode = 'popup', returnUrl }: TopUpDialogProps) {
  const { t } = useTranslation();
  return (
    <MoneyDialog title={t('unlock.buyCredits')} onClose={() => done(false)}>
      <p className={styles.warning}>{t('errors.noMoney')}</p>
      <WalletTopUp hideTitle headingLevel={3} mode={mode} {...(returnUrl ? { returnUrl } : {})} onPaid={() => done(true)} />
      <div className={styles.actions}>
        <button type="button" className={styles.secondary} onClick={() => done(false)}>
          {t('unlock.back')}
        </button>
      </div>
    </MoneyDialog>
  );
}

/** The default credit purchase of the money dialogs. */
export const renderTopUpDialog = (done: (bought: boolean) => void) => <TopUpDialog done={done} />;
