import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import { useSignals } from '@preact/signals-react/runtime';
import { useSite } from '../site';
import { chooseGenderFilter, effectiveGender, genderFilter, genderFilterValues, type GenderFilterValue } from './genderFilter';
import styles from './GenderFilter.module.css';

export { hasGenderFilter } from './genderFilter';

/** The header's gender filter on Timeline and Public (SPEC §2); visitors do not get "everyone". */
export function GenderFilter() {
  useSignals();
  const { t } = useTranslation();
  const { fanstage, loggedIn } = useSite();
  const id = useId();
  const value = effectiveGender(genderFilter.value, loggedIn);
  const options = genderFilterValues.filter((option) => loggedIn || option !== 0);

  return (
    // On a phone the header has no room for the words: the select sits, invisible but still
    // the control that is focused and operated, over a filter icon.
    <div className={styles.filter}>
      <svg className={styles.icon} width="24" height="24" viewBox="0 0 24 24" fill="currentColor" aria-hidden="true" focusable="false">
        <path d="M10 18h4v-2h-4v2zM3 6v2h18V6H3zm3 7h12v-2H6v2z" />
      </svg>
      <label htmlFor={id} className="visually-hidden">
        {t('sitePosts.genderFilter.label')}
      </label>
      <select
        id={id}
        className={styles.select}
        value={value}
        data-testid="gender-filter"
        onChange={(event) => chooseGenderFilter(fanstage.client, Number(event.target.value) as GenderFilterValue)}
      >
        {options.map((option) => (
          <option key={option} value={option}>
            {t(`sitePosts.genderFilter.option${option}`)}
          </option>
        ))}
      </select>
    </div>
  );
}
