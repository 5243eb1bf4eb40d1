import { useEffect, useMemo, useRef, useState, type MouseEventHandler } from 'react';
import { Link, useSearch } from 'wouter';
import { useTranslation } from 'react-i18next';
import { useSignals } from '@preact/signals-react/runtime';
import { DiscoverFilters, UserList, useFanstage } from '../../lib/ui';
import { discoverApi, isDiscoverTab, isPostTab, pageSizes, postMediaUrl, type DiscoverTab, type PagedList, type Post, type TagResult } from '../../lib/sdk';
import { DiscoverTabs } from '../../lib/contract/constants';
import { useSite, usePageTitle } from '../site';
import { useInAppLinks } from '../useInAppLinks';
import styles from './Discover.module.css';

/** The tab Discover opens on: the creators who are around now. */
export const DEFAULT_DISCOVER_TAB: DiscoverTab = 'activeusers';

/**
 * A tab's address. Without words the default tab is the bare /discover; with words the bare
 * address is every result, so a tab is always named.
 */
function discoverHref(tab: DiscoverTab | null, q: string): string {
  const params = new URLSearchParams();
  if (q) params.set('q', q);
  if (tab !== null && (q || tab !== DEFAULT_DISCOVER_TAB)) params.set('tab', tab);
  const query = params.toString();
  return query ? `/discover?${query}` : '/discover';
}

/**
 * `/discover` (SPEC §2): the tabs newposts, activeusers, hasBadge and the preset searches,
 * and the filter. With `?q=` it is the search's results: people first (the quick search's own
 * search, creators and fans by how well the name matches), then hashtags and posts; the tabs
 * then filter those results — a preset narrows the people to such creators, New posts keeps
 * the posts.
 */
export default function Discover() {
  useSignals();
  const { t } = useTranslation();
  const params = new URLSearchParams(useSearch());
  const q = (params.get('q') ?? '').trim().slice(0, 100);
  const requested = params.get('tab');
  // null: every result of a search (no tab chosen).
  const tab: DiscoverTab | null = isDiscoverTab(requested) ? requested : q ? null : DEFAULT_DISCOVER_TAB;
  const fanstage = useFanstage();
  const { search } = fanstage;
  const onClick = useInAppLinks();
  const [version, setVersion] = useState(0);
  usePageTitle(q || t('discover.title'));

  const filter = search.filter.value;
  const filterText = search.filterText.value;
  const postTab = tab !== null && isPostTab(tab);
  const users = useMemo(
    () => (tab === null ? search.people(q) : postTab ? null : search.users(tab, q)),
    // The filter and its text are read when the list is made; a change makes a new list.
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [search, tab, q, filter, filterText, version],
  );
  const posts = useMemo(() => (postTab && !q ? search.newPosts() : null), [search, postTab, q]);
  useEffect(() => () => users?.dispose(), [users]);
  useEffect(() => () => posts?.dispose(), [posts]);

  const headingId = 'discover-tab-heading';
  const tabs: (DiscoverTab | null)[] = q ? [null, ...DiscoverTabs] : [...DiscoverTabs];
  const tabName = (id: DiscoverTab | null) => (id === null ? t('discover.allResults') : t(`discover.tabs.${id}`));
  return (
    <div className={styles.discover}>
      <h1 className="visually-hidden">{q ? t('discover.resultsFor', { q }) : t('discover.title')}</h1>
      <nav aria-label={t('discover.sections')} className={styles.tabs}>
        <ul className={styles.tabList}>
          {tabs.map((id) => (
            <li key={id ?? 'all'}>
              <Link href={discoverHref(id, q)} className={styles.tab} aria-current={id === tab ? 'page' : undefined}>
                {tabName(id)}
              </Link>
            </li>
          ))}
        </ul>
      </nav>
      {users ? (
        <section aria-labelledby={headingId} className={styles.section}>
          <div className={styles.sectionHead}>
            <h2 id={headingId} className={styles.sectionTitle}>
              {q ? (tab === null ? t('discover.people') : t('discover.creatorsIn', { tab: tabName(tab) })) : tabName(tab)}
            </h2>
            {!q && tab !== null ? (
              <Link href={`/discover/${tab}`} className={styles.more} aria-label={t('discover.showAllOf', { tab: tabName(tab) })}>
                {t('discover.showAll')}
              </Link>
            ) : null}
          </div>
          {tab !== null ? <DiscoverFilters tab={tab} onChange={() => setVersion((v) => v + 1)} /> : null}
          <UserList
            list={users}
            headingLevel={3}
            onClick={onClick}
            testId="discover-users"
            label={q && tab === null ? t('discover.people') : tabName(tab)}
            {...(q && tab === null ? { emptyText: t('discover.noPeople', { q }) } : {})}
          />
        </section>
      ) : null}
      {posts ? (
        <section aria-labelledby={headingId} className={styles.section}>
          <div className={styles.sectionHead}>
            <h2 id={headingId} className={styles.sectionTitle}>
              {tabName(tab)}
            </h2>
            <Link href={`/discover/${tab}`} className={styles.more} aria-label={t('discover.showAllOf', { tab: tabName(tab) })}>
              {t('discover.showAll')}
            </Link>
          </div>
          <PostGrid list={posts} onClick={onClick} />
        </section>
      ) : null}
      {q && tab === null ? <TagResults q={q} onClick={onClick} /> : null}
      {q && (tab === null || postTab) ? <PostResults q={q} onClick={onClick} /> : null}
    </div>
  );
}

/** Hashtags matching the query, each leading to its posts. */
function TagResults({ q, onClick }: { q: string; onClick: MouseEventHandler<HTMLElement> }) {
  const { t } = useTranslation();
  const fanstage = useFanstage();
  const [tags, setTags] = useState<TagResult[]>([]);
  useEffect(() => {
    const controller = new AbortController();
    discoverApi(fanstage.client)
      .tags(q, controller.signal)
      .then(
        (found) => setTags(found.slice(0, pageSizes.quickSearch)),
        () => setTags([]),
      );
    return () => controller.abort();
  }, [fanstage, q]);
  if (tags.length === 0) return null;
  return (
    <section aria-labelledby="discover-tags" className={styles.section}>
      <h2 id="discover-tags" className={styles.sectionTitle}>
        {t('discover.hashtags')}
      </h2>
      <ul className={styles.tags} onClick={onClick}>
        {tags.map((tag) => (
          <li key={tag.tag}>
            <a className={styles.tagLink} href={`/search-hashtags/${encodeURIComponent(tag.tag)}`}>
              #{tag.tag} <span className={styles.tagCount}>{t('search.tagPosts', { count: tag.count })}</span>
            </a>
          </li>
        ))}
      </ul>
    </section>
  );
}

function PostResults({ q, onClick }: { q: string; onClick: MouseEventHandler<HTMLElement> }) {
  const { t } = useTranslation();
  const { search } = useFanstage();
  const list = useMemo(() => search.searchPosts(q), [search, q]);
  useEffect(() => () => list.dispose(), [list]);
  return (
    <section aria-labelledby="discover-posts" className={styles.section}>
      <h2 id="discover-posts" className={styles.sectionTitle}>
        {t('discover.posts')}
      </h2>
      <PostGrid list={list} onClick={onClick} />
    </section>
  );
}

/**
 * Posts as tiles: the first picture (the blurred preview when locked), the author and the
 * text's start, each leading to the post. Paged with Load more until a short page.
 */
export function PostGrid({ list, onClick, emptyText, testId = 'post-grid' }: { list: PagedList<Post>; onClick?: MouseEventHandler<HTMLElement>; emptyText?: string; testId?: string }) {
  useSignals();
  const { t } = useTranslation();
  const { settings } = useFanstage();
  const { loggedIn } = useSite();
  useEffect(() => {
    void list.start();
    if (settings.status.peek() === 'idle') settings.load().catch(() => undefined);
  }, [list, settings]);
  // A login changes what the viewer may see (unlocked media, own posts).
  const seenAs = useRef(loggedIn);
  useEffect(() => {
    if (seenAs.current === loggedIn) return;
    seenAs.current = loggedIn;
    void list.reload();
  }, [list, loggedIn]);

  const posts = list.items.value;
  const status = list.status.value;
  const cdn = settings.settings.value?.mediaCDN ?? null;
  return (
    <div className={styles.posts} aria-busy={status === 'loading' || undefined}>
      {posts.length > 0 ? (
        <ul className={styles.postGrid} onClick={onClick} data-testid={testId}>
          {posts.map((post) => {
            const media = post.media[0];
            const name = post.user.displayName.trim() || post.user.username;
            return (
              <li key={post.id} className={styles.postItem}>
                <a className={styles.postLink} href={`/post/${post.id}`} aria-label={t('discover.postBy', { name })}>
                  {media && cdn ? (
                    <img className={styles.postImage} src={postMediaUrl(cdn, media, media.mediaType === 'video' ? 'poster' : 320)} alt="" loading="lazy" style={{ backgroundColor: media.mediaDominantColor }} />
                  ) : (
                    <span className={styles.postText}>{post.text}</span>
                  )}
                  <span className={styles.postAuthor}>{name}</span>
                </a>
              </li>
            );
          })}
        </ul>
      ) : null}
      {status === 'ended' && posts.length === 0 ? <p className={styles.message}>{emptyText ?? t('discover.emptyPosts')}</p> : null}
      <p className={styles.message} role="status">
        {status === 'loading' ? t('discover.loading') : status === 'ended' && posts.length > 0 ? t('discover.endPosts') : ''}
      </p>
      {status === 'error' ? (
        <div className={styles.message} role="alert">
          <p>{t('discover.error')}</p>
          <button type="button" className={styles.button} onClick={() => void list.nextPage()}>
            {t('app.retry')}
          </button>
        </div>
      ) : null}
      {list.canLoadMore.value ? (
        <button type="button" className={styles.button} onClick={() => void list.nextPage()}>
          {t('discover.loadMore')}
        </button>
      ) : null}
    </div>
  );
}
