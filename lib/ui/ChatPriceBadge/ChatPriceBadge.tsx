import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import '../theme/tokens.css';
import { Dialog } from '../dialog/Dialog';
import dialogStyles from '../PriceDetail/moneyDialog.module.css';
import { PriceSelector } from '../PriceSelector/PriceSelector';
import { useChatPriceBadge, type ChatPriceBadgeState } from './useChatPriceBadge';
import styles from './ChatPriceBadge.module.css';

export interface ChatPriceBadgeProps {
  /** The partner's user id. */
  userId: number;
  className?: string;
}

/**
 * What one message costs in this chat (SPEC §2 ChatOpened header, §6): shown to fans writing
 * to partners, sellers and verified creators; a seller's badge opens this fan's own price.
 * Nothing in support chats or between two fans.
 */
export function ChatPriceBadge({ userId, className }: ChatPriceBadgeProps) {
  const state = useChatPriceBadge({ userId });
  return <ChatPriceBadgeView {...state} {...(className ? { className } : {})} />;
}

export function ChatPriceBadgeView(props: ChatPriceBadgeState & { className?: string }) {
  const { t, i18n } = useTranslation();
  const savedId = useId();
  if (props.mode === null) return null;
  const lang = i18n.resolvedLanguage ?? i18n.language;
  if (props.mode === 'price') {
    return (
      <span className={['fs-root', styles.badge, props.className].filter(Boolean).join(' ')} lang={lang} title={props.label} data-testid="chat-price-badge">
        <Texts long={props.text} short={props.shortText} />
        <span className={styles.visuallyHidden}>{props.label}</span>
      </span>
    );
  }
  return (
    <span className={['fs-root', styles.wrap, props.className].filter(Boolean).join(' ')} lang={lang}>
      <button type="button" className={`${styles.badge} ${styles.button}`} aria-haspopup="dialog" onClick={() => props.setOpen(true)} aria-label={props.label} title={props.label} data-testid="chat-price-badge" aria-describedby={props.saved ? savedId : undefined}>
        <Texts long={props.text} short={props.shortText} />
      </button>
      <span id={savedId} className={styles.visuallyHidden} role="status">
        {props.saved}
      </span>
      {props.open ? (
        <Dialog title={t('chat.price.title', { name: props.partnerName })} onClose={() => props.setOpen(false)}>
          <PriceSelector kind="chatMessage" value={props.price} onApply={props.apply} disabled={props.busy} label={t('chat.price.selector')} hint={t('chat.price.hint', { name: props.partnerName })} />
          {props.alert ? (
            <p role="alert" className={dialogStyles.warning}>
              {props.alert}
            </p>
          ) : null}
          {props.custom ? (
            <div className={dialogStyles.actions}>
              <button type="button" className={dialogStyles.secondary} onClick={props.useUsual} disabled={props.busy}>
                {t('chat.price.usual')}
              </button>
            </div>
          ) : null}
        </Dialog>
      ) : null}
    </span>
  );
}

/** The full text from 870 px, the price alone on phones, where the header is narrow. */
function Texts({ long, short }: { long: string; short: string }) {
  return (
    <>
      <span className={styles.long} aria-hidden="true">
        {long}
      </span>
      <span className={styles.short} aria-hidden="true">
        {short}
      </span>
    </>
  );
}
