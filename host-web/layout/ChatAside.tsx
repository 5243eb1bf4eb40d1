import { useId, useState } from 'react';
import { Link, useLocation } from 'wouter';
import { useTranslation } from 'react-i18next';
import { useSignals } from '@preact/signals-react/runtime';
import { formatPrice, isSdkError, offersMessagePriceSetting, pageSizes, SALT_UNIT } from '../../lib/sdk';
import { ConversationList, PriceSelector } from '../../lib/ui';
import { useSite } from '../site';
import { useInAppLinks } from '../useInAppLinks';
import styles from './ChatAside.module.css';

/** Remembered on this device, so a person who minimised the aside is not shown it again on each page. */
const MINIMISED_KEY = 'fanstage.chatAsideMinimised';

function readMinimised(): boolean {
  try {
    return localStorage.getItem(MINIMISED_KEY) === '1';
  } catch {
    return false;
  }
}

function writeMinimised(minimised: boolean): void {
  try {
    if (minimised) localStorage.setItem(MINIMISED_KEY, '1');
    else localStorage.removeItem(MINIMISED_KEY);
  } catch {
    // Storage the browser forbids: the choice lasts as long as the page.
  }
}

/** SPEC §2 main layout: gender 2 profiles set the price of messages to them from the aside. */
function useMessagePrice() {
  useSignals();
  const { fanstage } = useSite();
  const { t } = useTranslation();
  const [busy, setBusy] = useState(false);
  const [alert, setAlert] = useState<string | null>(null);
  const [saved, setSaved] = useState<string | null>(null);
  const account = fanstage.session.account.value;
  const salt = fanstage.settings.settings.value?.salt ?? SALT_UNIT;
  const price = account?.messagePrice ?? 0;
  return {
    shown: offersMessagePriceSetting(account),
    price,
    priceText: formatPrice(price, salt, t('price.free')),
    busy,
    alert,
    saved,
    apply(cents: number) {
      setBusy(true);
      setAlert(null);
      setSaved(null);
      fanstage.chat.setMessagePrice(cents).then(
        () => {
          setBusy(false);
          setSaved(t('chat.price.saved'));
        },
        (cause: unknown) => {
          setBusy(false);
          // SPEC §5: only sellers set prices; the others are asked to verify (verify-required).
          setAlert(t([`errors.${isSdkError(cause) ? cause.code : 'internal-error'}`, 'chat.price.failed']));
        },
      );
    },
  };
}

/**
 * The chat in the web layout's side column (SPEC §2 main layout): the 8 latest conversations
 * (SPEC §9), the message price for gender 2 profiles, the way to the full list; it can be
 * minimised. Not shown on the chat screens themselves, which show all of it.
 */
export function ChatAside() {
  useSignals();
  const { t } = useTranslation();
  const { loggedIn } = useSite();
  const [location] = useLocation();
  const onClick = useInAppLinks();
  const [minimised, setMinimised] = useState(readMinimised);
  const price = useMessagePrice();
  const headingId = useId();
  const bodyId = useId();
  if (!loggedIn || location === '/chat-list' || location.startsWith('/chat/')) return null;

  return (
    <aside className={styles.aside} aria-labelledby={headingId} data-testid="chat-aside">
      <div className={styles.head}>
        <h2 id={headingId} className={styles.title}>
          {t('siteChat.aside.title')}
        </h2>
        <button
          type="button"
          className={styles.toggle}
          aria-expanded={!minimised}
          aria-controls={bodyId}
          onClick={() => {
            writeMinimised(!minimised);
            setMinimised(!minimised);
          }}
        >
          {minimised ? t('siteChat.aside.expand') : t('siteChat.aside.minimise')}
        </button>
      </div>
      <div id={bodyId} hidden={minimised} className={styles.body}>
        {minimised ? null : (
          <>
            <ConversationList limit={pageSizes.chatAside} search={false} archive={false} label={t('siteChat.aside.latest')} onClick={onClick} className={styles.list} />
            {price.shown ? (
              <details className={styles.price}>
                <summary>{t('siteChat.aside.price', { price: price.priceText })}</summary>
                <PriceSelector kind="chatMessage" value={price.price} onApply={price.apply} disabled={price.busy} label={t('siteChat.aside.priceLabel')} hint={t('siteChat.aside.priceHint')} />
                {price.alert ? (
                  <p role="alert" className={styles.alert}>
                    {price.alert}
                  </p>
                ) : null}
                <p role="status" className={styles.saved}>
                  {price.saved}
                </p>
              </details>
            ) : null}
            <Link href="/chat-list" className={styles.all}>
              {t('siteChat.aside.all')}
            </Link>
          </>
        )}
      </div>
    </aside>
  );
}
