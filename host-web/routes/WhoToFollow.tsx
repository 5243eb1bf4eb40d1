import { useEffect, useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { UserList, useFanstage } from '../../lib/ui';
import { usePageTitle } from '../site';
import { useInAppLinks } from '../useInAppLinks';
import styles from './WhoToFollow.module.css';

/** `/who-to-follow` (SPEC §2, login): suggested creators, 15 a page, at most 30 (a user list). */
export default function WhoToFollow() {
  const { t } = useTranslation();
  const { search } = useFanstage();
  const onClick = useInAppLinks();
  usePageTitle(t('discover.whoToFollow'));
  const list = useMemo(() => search.whoToFollow(), [search]);
  useEffect(() => () => list.dispose(), [list]);

  return (
    <div className={styles.page}>
      <div>
        <h1 className={styles.heading}>{t('discover.whoToFollow')}</h1>
        <p className={styles.intro}>{t('discover.whoToFollowIntro')}</p>
      </div>
      <UserList list={list} headingLevel={2} onClick={onClick} testId="who-to-follow" label={t('discover.whoToFollow')} />
    </div>
  );
}
