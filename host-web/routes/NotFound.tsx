import { Link } from 'wouter';
import { useTranslation } from 'react-i18next';
import { usePageTitle } from '../site';
import styles from './NotFound.module.css';

/** `/404`, unknown addresses and unknown profiles (SPEC §2). */
export default function NotFound() {
  const { t } = useTranslation();
  usePageTitle(t('notFound.title'), { inHeader: false });
  return (
    <section className={styles.box} data-testid="not-found">
      <p className={styles.code} aria-hidden="true">
        404
      </p>
      <h1 className={styles.title}>{t('notFound.title')}</h1>
      <p className={styles.text}>{t('notFound.text')}</p>
      <Link href="/" className={styles.action}>
        {t('notFound.home')}
      </Link>
    </section>
  );
}
