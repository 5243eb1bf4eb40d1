import { createElement, useEffect, useState } from 'react';
import { useSignals } from '@preact/signals-react/runtime';
import { useTranslation } from 'react-i18next';
import { useFanstage } from '../lib/ui/FanstageProvider/context';
import { Dialog } from '../lib/ui/dialog/Dialog';
import { WalletTopUp } from '../lib/ui/WalletTopUp/WalletTopUp';
import { formatMoney } from '../lib/ui/shared/money';
import tokensCss from '../lib/ui/theme/tokens.css?inline';
import walletTopUpCss from '../lib/ui/WalletTopUp/WalletTopUp.module.css?inline';
import dialogCss from '../lib/ui/dialog/Dialog.module.css?inline';
import walletStyles from '../lib/ui/WalletTopUp/WalletTopUp.module.css';
import { signInFor } from './shared';
import { widgetElement, type WidgetSpec } from './widget';

export const walletTag = 'fanstage-wallet';

/** The element's attributes, as props (`api-base` becomes `apiBase`). */
export interface WalletElementProps {
  apiBase?: string;
  language?: string;
}

const css = [tokensCss, dialogCss, walletTopUpCss].join('\n');

/**
 * The fan's balance and a way to buy credits, on any page: a visitor signs in through the
 * platform's popup; the card page opens in a popup, so the page the fan is on stays.
 */
function WalletPanel({ onSignIn }: { onSignIn: () => Promise<boolean> }) {
  useSignals();
  const { session, wallet } = useFanstage();
  const { t, i18n } = useTranslation();
  const [open, setOpen] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);
  const lang = i18n.resolvedLanguage ?? i18n.language;
  const loggedIn = session.isLoggedIn.value;
  const balance = wallet.balance.value;

  useEffect(() => {
    if (loggedIn && !wallet.balance.peek()) void wallet.refresh().catch(() => undefined);
  }, [loggedIn, wallet]);

  if (!loggedIn) {
    return createElement(
      'div',
      { className: `fs-root ${walletStyles.root}`, lang },
      createElement(
        'button',
        {
          type: 'button',
          className: walletStyles.pay,
          onClick: () => {
            setFailure(null);
            onSignIn().catch((error: unknown) => setFailure(t(`errors.${(error as { code?: string }).code ?? 'internal-error'}`)));
          },
        },
        t('wallet.signIn'),
      ),
      failure ? createElement('p', { role: 'alert', className: walletStyles.alert }, failure) : null,
    );
  }

  const failed = balance === null && wallet.balanceError.value !== null;
  return createElement(
    'div',
    { className: `fs-root ${walletStyles.root}`, lang },
    createElement(
      'p',
      { className: failed ? walletStyles.alert : walletStyles.balance, role: failed ? 'alert' : undefined },
      failed
        ? t('errors.couldnt-get-info-from-server')
        : balance
          ? t('wallet.balanceValue', { amount: formatMoney(balance.gBalance) })
          : t('wallet.balanceLoading'),
    ),
    createElement('button', { type: 'button', className: walletStyles.pay, 'aria-haspopup': 'dialog', onClick: () => setOpen(true) }, t('wallet.topUp')),
    open
      ? createElement(Dialog, {
          title: t('wallet.title'),
          closeLabel: t('wallet.close'),
          onClose: () => setOpen(false),
          lang,
          children: createElement(WalletTopUp, { mode: 'popup', hideTitle: true }),
        })
      : null,
  );
}

export const walletWidget: WidgetSpec<WalletElementProps> = {
  attributes: [],
  css,
  render: (_props, { base, fanstage }) => createElement(WalletPanel, { onSignIn: () => signInFor(base, fanstage) }),
};

let elementClass: CustomElementConstructor | undefined;

/** The `<fanstage-wallet>` class, made on first use (needs `HTMLElement`). */
export function walletElement(): CustomElementConstructor {
  elementClass ??= widgetElement(walletWidget);
  return elementClass;
}
