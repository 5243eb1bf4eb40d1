import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import { useSignals } from '@preact/signals-react/runtime';
import { Feed } from '../../lib/ui';
import { usePageTitle, useSite } from '../site';
import { CreatorGrid } from '../components/CreatorGrid';
import { effectiveGender, genderFilter } from '../components/genderFilter';
import { useInAppLinks } from '../useInAppLinks';
import { usePostMoney } from '../overlays/PostMoney';
import styles from './Home.module.css';

/**
 * `/`: the public timeline of visitors (SPEC §2), under creators to follow. Logged-in users
 * are sent on to /timeline by the login guard, so this page is only ever a visitor's.
 */
export default function Home() {
  useSignals();
  const { t } = useTranslation();
  const { loggedIn, sessionChecked, openLoginPrompt } = useSite();
  const creatorsId = useId();
  const postsId = useId();
  const onClick = useInAppLinks();
  const money = usePostMoney();
  usePageTitle(null);
  const gender = effectiveGender(genderFilter.value, loggedIn);

  return (
    <div className={styles.home}>
      <section className={styles.hero}>
        <h1 className={styles.heroTitle}>{t('app.tagline')}</h1>
        <p className={styles.heroText}>{t('home.intro')}</p>
      </section>
      <section aria-labelledby={creatorsId} className={styles.section}>
        <h2 id={creatorsId} className={styles.sectionTitle}>
          {t('home.title')}
        </h2>
        <CreatorGrid headingLevel={3} />
      </section>
      {/* The cards render plain links (they live on partner pages too); clicks stay in the app.
          The feed is the region of the posts, named as this heading; the wrapper is not another. */}
      <div className={styles.section} onClick={onClick}>
        <h2 id={postsId} className={styles.sectionTitle}>
          {t('sitePosts.home.latest')}
        </h2>
        {/* Until the session is known the reader may be on the way to /timeline: no list yet. */}
        {sessionChecked && !loggedIn ? <Feed key={gender} type="public" gender={gender} label={t('sitePosts.home.latest')} onLoginRequired={() => openLoginPrompt()} {...money} /> : null}
      </div>
    </div>
  );
}
