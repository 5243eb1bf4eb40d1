import { useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSignals } from '@preact/signals-react/runtime';
import { DiscoverFilters, UserList, useFanstage } from '../../lib/ui';
import { isDiscoverTab, isPostTab, pageSizes } from '../../lib/sdk';
import { usePageTitle } from '../site';
import { useInAppLinks } from '../useInAppLinks';
import NotFound from './NotFound';
import { PostGrid } from './Discover';
import styles from './Discover.module.css';

/** `/discover/{info}` (SPEC §2): one discover section on its own, in pages of 30. */
export default function DetailList({ info }: { info: string }) {
  useSignals();
  const { t } = useTranslation();
  const { search } = useFanstage();
  const onClick = useInAppLinks();
  const [version, setVersion] = useState(0);
  const tab = isDiscoverTab(info) ? info : null;
  const title = tab ? t(`discover.tabs.${tab}`) : null;
  usePageTitle(title);

  const filter = search.filter.value;
  const filterText = search.filterText.value;
  const users = useMemo(
    () => (tab && !isPostTab(tab) ? search.users(tab, '', pageSizes.discoverSearch) : null),
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [search, tab, filter, filterText, version],
  );
  const posts = useMemo(() => (tab && isPostTab(tab) ? search.newPosts(pageSizes.tourTimeline) : null), [search, tab]);
  useEffect(() => () => users?.dispose(), [users]);
  useEffect(() => () => posts?.dispose(), [posts]);

  if (!tab) return <NotFound />;
  return (
    <div className={styles.discover}>
      <h1 className={styles.heading}>{title}</h1>
      {users ? <DiscoverFilters tab={tab} onChange={() => setVersion((v) => v + 1)} /> : null}
      {users ? <UserList list={users} headingLevel={2} onClick={onClick} testId="discover-users" label={title ?? undefined} /> : null}
      {posts ? <PostGrid list={posts} onClick={onClick} /> : null}
    </div>
  );
}
