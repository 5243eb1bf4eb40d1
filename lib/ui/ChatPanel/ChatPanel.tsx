import type { MouseEventHandler } from 'react';
import { useTranslation } from 'react-i18next';
import '../theme/tokens.css';
import type { Conversation } from '../../sdk';
import { ChatComposer } from '../ChatComposer/ChatComposer';
import { ChatConversation } from '../ChatConversation/ChatConversation';
import { ChatPriceBadge } from '../ChatPriceBadge/ChatPriceBadge';
import { ConversationList } from '../ConversationList/ConversationList';
import { useChatPartner } from './useChatPanel';
import styles from './ChatPanel.module.css';

export interface ChatPanelProps {
  /** The open conversation's partner, by username or id; none shows the list alone (phones) or with a placeholder. */
  user?: string | number | null;
  /** Where a conversation row leads (default `/chat/{username}`). */
  hrefFor?: (conversation: Conversation) => string;
  /** Where the partner's name leads (their profile); none leaves it plain text. */
  profileHref?: (username: string) => string;
  /** The report form for one of the partner's messages; none shows no Report action. */
  reportHref?: (messageId: number) => string;
  /** Phones show one pane at a time: a link back to the list from an open conversation. */
  listHref?: string;
  /** Clicks on the panel's plain links, e.g. for in-app navigation. */
  onClick?: MouseEventHandler<HTMLElement>;
  /** How a top-up opens the card page. */
  paymentMode?: 'popup' | 'redirect';
  /** The open conversation's heading level (default 2). */
  headingLevel?: 2 | 3;
  /**
   * The open conversation's own header with the partner's name and the price badge (default
   * true); a page that shows both in its own header leaves it out.
   */
  conversationHeader?: boolean;
  className?: string;
}

/**
 * The chat (SPEC §2 ChatList and ChatOpened): conversations beside the open one from 870 px
 * on; on phones the list, or the open conversation with a way back.
 */
export function ChatPanel({ user, hrefFor, profileHref, reportHref, listHref, onClick, paymentMode, headingLevel, conversationHeader = true, className }: ChatPanelProps) {
  const { t, i18n } = useTranslation();
  const partner = useChatPartner(user);
  const open = user !== undefined && user !== null && user !== '';
  return (
    <div className={['fs-root', styles.root, className].filter(Boolean).join(' ')} data-open={open || undefined} lang={i18n.resolvedLanguage ?? i18n.language} onClick={onClick}>
      <nav className={styles.listPane} aria-label={t('chat.list.label')}>
        <ConversationList activeUserId={partner.userId} {...(hrefFor ? { hrefFor } : {})} />
      </nav>
      <div className={styles.conversationPane}>
        {open && listHref ? (
          <a className={styles.back} href={listHref}>
            {t('chat.backToList')}
          </a>
        ) : null}
        {!open ? (
          <p className={styles.placeholder}>{t('chat.choose')}</p>
        ) : partner.userId === null ? (
          <p className={styles.placeholder} role={partner.missing ? 'alert' : 'status'}>
            {partner.statusText}
          </p>
        ) : (
          <ChatConversation
            key={partner.userId}
            userId={partner.userId}
            showHeader={conversationHeader}
            headerExtra={<ChatPriceBadge userId={partner.userId} />}
            {...(profileHref && partner.profile ? { profileHref: profileHref(partner.profile.username) } : {})}
            {...(reportHref ? { reportHref } : {})}
            {...(paymentMode ? { paymentMode } : {})}
            {...(headingLevel ? { headingLevel } : {})}
          >
            <ChatComposer userId={partner.userId} />
          </ChatConversation>
        )}
      </div>
    </div>
  );
}
