import { useTranslation } from 'react-i18next';
import { Feed } from '../../lib/ui';
import { isValidHashtag } from '../../lib/sdk';
import { useSite, usePageTitle } from '../site';
import { useInAppLinks } from '../useInAppLinks';
import { usePostMoney } from '../overlays/PostMoney';
import styles from './Discover.module.css';

/** `/search-hashtags/{hashtag}` (SPEC §2): the posts carrying a hashtag, newest first, 30 a page. */
export default function SearchHashtags({ hashtag }: { hashtag: string }) {
  const { t } = useTranslation();
  const { openLoginPrompt } = useSite();
  const onClick = useInAppLinks();
  const money = usePostMoney();
  const tag = safeDecode(hashtag).replace(/^#/, '');
  const valid = isValidHashtag(tag);
  const title = t('search.hashtagTitle', { tag });
  usePageTitle(valid ? title : null);

  return (
    // The click handler only turns the cards' plain links into in-app navigation.
    <div className={styles.discover} onClick={onClick}>
      <h1 className={styles.heading}>{valid ? title : t('search.hashtagInvalid')}</h1>
      {valid ? (
        <Feed
          key={tag.toLowerCase()}
          type="hashtag"
          param={tag}
          whoToFollow={false}
          label={title}
          empty={<p className={styles.message}>{t('search.hashtagEmpty', { tag })}</p>}
          onLoginRequired={() => openLoginPrompt()}
          {...money}
        />
      ) : null}
    </div>
  );
}

function safeDecode(value: string): string {
  try {
    return decodeURIComponent(value);
  } catch {
    return value;
  }
}
