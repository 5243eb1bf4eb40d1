import { useTranslation } from 'react-i18next';
import '../theme/tokens.css';
import { useDiscoverFilters, type DiscoverFiltersState, type UseDiscoverFiltersOptions } from './useDiscoverFilters';
import styles from './DiscoverFilters.module.css';

export type DiscoverFiltersProps = UseDiscoverFiltersOptions & { className?: string };

/** The discover filter: a Filters button that opens a form of gender, age and looks. */
export function DiscoverFilters({ className, ...options }: DiscoverFiltersProps) {
  const state = useDiscoverFilters(options);
  return <DiscoverFiltersView {...state} {...(className ? { className } : {})} />;
}

export function DiscoverFiltersView(props: DiscoverFiltersState & { className?: string }) {
  const { t } = useTranslation();
  const { ids, draft, set } = props;
  return (
    <div className={['fs-root', styles.root, props.className].filter(Boolean).join(' ')}>
      <button type="button" className={styles.toggle} aria-expanded={props.open} aria-controls={ids.form} onClick={props.onToggle}>
        <svg className={styles.icon} viewBox="0 0 24 24" aria-hidden="true" focusable="false">
          <path fill="none" stroke="currentColor" strokeWidth="2" strokeLinecap="round" d="M4 6h16M7 12h10M10 18h4" />
        </svg>
        {t('discover.filters.open')}
        {props.active ? <span className={styles.dot}> · {t('discover.filters.active')}</span> : null}
      </button>
      <form id={ids.form} className={styles.form} aria-labelledby={ids.title} hidden={!props.open} onSubmit={props.onSubmit} noValidate>
        <h2 id={ids.title} className={styles.title}>
          {t('discover.filters.title')}
        </h2>
        <div className={styles.fields}>
          <label className={styles.field}>
            <span>{t('discover.filters.gender')}</span>
            <select value={draft.gender} onChange={(e) => set('gender', e.target.value)}>
              {props.genders.map((c) => (
                <option key={c.value} value={c.value}>
                  {c.label}
                </option>
              ))}
            </select>
          </label>
          {(['ageFrom', 'ageTo'] as const).map((key) => (
            <label key={key} className={styles.field}>
              <span>{t(`discover.filters.${key}`)}</span>
              <input
                type="number"
                inputMode="numeric"
                min={18}
                max={120}
                value={draft[key]}
                aria-invalid={props.ageError ? true : undefined}
                aria-describedby={props.ageError ? ids.ageError : undefined}
                onChange={(e) => set(key, e.target.value)}
              />
            </label>
          ))}
          <label className={styles.field}>
            <span>{t('discover.filters.hair')}</span>
            <select value={draft.hair} onChange={(e) => set('hair', e.target.value)}>
              {props.hairs.map((c) => (
                <option key={c.value} value={c.value}>
                  {c.label}
                </option>
              ))}
            </select>
          </label>
          <label className={styles.field}>
            <span>{t('discover.filters.body')}</span>
            <select value={draft.body} onChange={(e) => set('body', e.target.value)}>
              {props.bodies.map((c) => (
                <option key={c.value} value={c.value}>
                  {c.label}
                </option>
              ))}
            </select>
          </label>
          <label className={`${styles.field} ${styles.wide}`}>
            <span>{t('discover.filters.text')}</span>
            <input type="text" maxLength={100} value={draft.text} onChange={(e) => set('text', e.target.value)} />
          </label>
        </div>
        {props.ageError ? (
          <p id={ids.ageError} className={styles.error} role="alert">
            {props.ageError}
          </p>
        ) : null}
        <div className={styles.checks}>
          <label className={styles.check}>
            <input type="checkbox" checked={draft.hasBadge} onChange={(e) => set('hasBadge', e.target.checked)} />
            {t('discover.filters.hasBadge')}
          </label>
          <label className={styles.check}>
            <input type="checkbox" checked={draft.bigBoobs} onChange={(e) => set('bigBoobs', e.target.checked)} />
            {t('discover.filters.bigBoobs')}
          </label>
          <label className={styles.check}>
            <input type="checkbox" checked={draft.wantsFun} onChange={(e) => set('wantsFun', e.target.checked)} />
            {t('discover.filters.wantsFun')}
          </label>
        </div>
        <div className={styles.actions}>
          <button type="submit" className={styles.primary}>
            {t('discover.filters.apply')}
          </button>
          <button type="button" className={styles.secondary} onClick={props.onReset}>
            {t('discover.filters.reset')}
          </button>
        </div>
      </form>
    </div>
  );
}
