import { useTranslation } from 'react-i18next';
import { ChatPanel } from '../../lib/ui';
import { useSite, usePageTitle } from '../site';
import { useInAppLinks } from '../useInAppLinks';
import styles from './Chat.module.css';

/** `/chat-list` (SPEC §2 ChatList, login): the conversations; from 870 px with room for the one chosen next. */
export default function ChatList() {
  const { t } = useTranslation();
  const { loggedIn } = useSite();
  const onClick = useInAppLinks();
  usePageTitle(t('nav.chat'));
  return (
    <div className={styles.page}>
      <h1 className="visually-hidden">{t('nav.chat')}</h1>
      {/* The login guard sends visitors away; until the session is known there is nothing to ask for. */}
      {loggedIn ? <ChatPanel className={styles.panel} onClick={onClick} /> : null}
    </div>
  );
}
