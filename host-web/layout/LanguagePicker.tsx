import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import { isLanguage, languages } from '../../lib/i18n';
import { useSite } from '../site';
import { Icon } from './icons';
import styles from './LanguagePicker.module.css';

/** English or Czech; the choice is kept in the `cookielang` cookie (see site.tsx). */
export function LanguagePicker({ className }: { className?: string }) {
  const { t } = useTranslation();
  const { language, setLanguage } = useSite();
  const id = useId();
  return (
    <div className={`${styles.picker} ${className ?? ''}`}>
      <label htmlFor={id} className={styles.label}>
        <Icon name="language" size={20} />
        <span>{t('language.label')}</span>
      </label>
      <select
        id={id}
        className={styles.select}
        value={language}
        onChange={(event) => {
          if (isLanguage(event.target.value)) setLanguage(event.target.value);
        }}
      >
        {languages.map((code) => (
          // Each language is named in itself, so anyone can find their own.
          <option key={code} value={code} lang={code}>
            {t(`language.${code}`)}
          </option>
        ))}
      </select>
    </div>
  );
}
