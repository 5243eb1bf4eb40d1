import { useTranslation } from 'react-i18next';
import styles from '../PriceDetail/moneyDialog.module.css';
import { Dialog } from '../dialog/Dialog';
import { WalletTopUp } from '../WalletTopUp';

export interface TopUpDialogProps {
  /** `true` once credits are in the wallet, `false` when the fan went back without buying. */
  done: (bought: boolean) => void;
  /** The card page in a popup (default: the dialog and what the fan was doing stay) or by leaving the page. */
  mode?: 'popup' | 'redirect';
  returnUrl?: string;
  /** What the purchase that ran short costs, in the fan's credits: the package offered first covers it. */
  needed?: number | undefined;
}

/**
 * The buy-credit popup a spend opens when the wallet is short (SPEC §8 "noMoney opens
 * buy-credit popup"): the wallet top-up in a dialog, then back to what the fan was doing.
 */
export function TopUpDialog({ done, mode = 'popup', returnUrl, needed }: TopUpDialogProps) {
  const { t } = useTranslation();
  return (
    <Dialog title={t('unlock.buyCredits')} onClose={() => done(false)}>
      <p className={styles.warning}>{t('errors.noMoney')}</p>
      <WalletTopUp hideTitle headingLevel={3} mode={mode} {...(returnUrl ? { returnUrl } : {})} {...(needed !== undefined ? { needed } : {})} onPaid={() => done(true)} />
      <div className={styles.actions}>
        <button type="button" className={styles.secondary} onClick={() => done(false)}>
          {t('unlock.back')}
        </button>
      </div>
    </Dialog>
  );
}

/** The default credit purchase of the money dialogs; `needed` is what the purchase costs the fan. */
export const renderTopUpDialog = (done: (bought: boolean) => void, needed?: number) => <TopUpDialog done={done} needed={needed} />;
