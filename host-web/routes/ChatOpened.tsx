import { useEffect, useState } from 'react';
import { Link } from 'wouter';
import { useTranslation } from 'react-i18next';
import { ChatPanel, useChatPartner } from '../../lib/ui';
import { getPreviousLocation } from '../navigation';
import { useSite, usePageTitle } from '../site';
import { useInAppLinks } from '../useInAppLinks';
import styles from './Chat.module.css';
import { abuseFormHref } from './abuseLinks';

/** Where a chat may be opened from in the middle of a flow that the person should finish. */
const unfinished = /^\/(partner-registration|verify-request)(\/|\?|$)/;

/**
 * The registration or verification the person came from, if any (SPEC §4: a chat opened mid
 * registration shows a 'continue' action). The previous route is remembered by the shell's
 * navigation effect, which runs after this screen's own effects: it is read once they are done.
 */
function useUnfinishedFlow(): string | null {
  const [from, setFrom] = useState<string | null>(null);
  useEffect(() => {
    let live = true;
    queueMicrotask(() => {
      const previous = getPreviousLocation();
      if (live && previous && unfinished.test(previous)) setFrom(previous);
    });
    return () => {
      live = false;
    };
  }, []);
  return from;
}

/**
 * `/chat/{user}` (SPEC §2 ChatOpened, login): the conversation with a username (or id). The
 * header shows the partner's name and the chat price badge; the list stays beside it from 870 px.
 */
export default function ChatOpened({ user }: { user: string }) {
  const { t } = useTranslation();
  const { loggedIn } = useSite();
  const onClick = useInAppLinks();
  const partner = useChatPartner(loggedIn ? user : null);
  const name = partner.profile ? partner.profile.displayName.trim() || partner.profile.username : null;
  const continueTo = useUnfinishedFlow();
  usePageTitle(name ?? t('nav.chat'));

  return (
    <div className={styles.page}>
      <h1 className="visually-hidden">{name ? t('siteChat.title', { name }) : t('nav.chat')}</h1>
      {continueTo ? (
        <p className={styles.continue}>
          <span>{t('siteChat.continueText')}</span>
          <Link href={continueTo} className={styles.continueLink}>
            {t('siteChat.continue')}
          </Link>
        </p>
      ) : null}
      {loggedIn ? (
        <ChatPanel
          className={styles.panel}
          user={user}
          listHref="/chat-list"
          profileHref={(username) => `/${encodeURIComponent(username)}`}
          reportHref={(messageId) => abuseFormHref('message', messageId)}
          onClick={onClick}
          conversationHeader={false}
        />
      ) : null}
    </div>
  );
}
