import { useTranslation } from 'react-i18next';
import { OfferSettings } from '../../lib/ui';
import { usePageTitle, useSite } from '../site';
import { AfterSessionCheck } from '../components/AfterSessionCheck';
import { LoginNeeded } from './Settings';
import styles from './Money.module.css';

/**
 * `/settings/offers` (login): the creator's subscription offers — make one at a post-media price
 * step, change its price, archive it or offer it again, delete it (SPEC §7 offers, §8 messages).
 */
export default function SettingsOffers() {
  const { loggedIn } = useSite();
  return <AfterSessionCheck>{loggedIn ? <Offers /> : <LoginNeeded />}</AfterSessionCheck>;
}

function Offers() {
  const { t } = useTranslation();
  usePageTitle(t('creatorTools.site.offers'));
  return (
    <section className={styles.screen} aria-labelledby="offers-title">
      <h1 id="offers-title" className={styles.title}>
        {t('creatorTools.site.offers')}
      </h1>
      <OfferSettings headingLevel={2} hideHeading />
    </section>
  );
}
