import { useEffect, useId, useState, type FormEvent } from 'react';
import { useSignals } from '@preact/signals-react/runtime';
import { useTranslation } from 'react-i18next';
import { ageBoundsFor, genderChoices, type DiscoverFilter, type DiscoverTab } from '../../sdk';
import { useFanstage } from '../FanstageProvider/context';

/** The form's fields as text, the way inputs hold them. */
export interface FilterDraft {
  gender: string;
  ageFrom: string;
  ageTo: string;
  hair: string;
  body: string;
  hasBadge: boolean;
  bigBoobs: boolean;
  wantsFun: boolean;
  text: string;
}

export interface Choice {
  value: string;
  label: string;
}

export interface DiscoverFiltersState {
  ids: { form: string; title: string; age: string; ageError: string };
  open: boolean;
  onToggle: () => void;
  /** Whether a filter is set now (the toggle says so). */
  active: boolean;
  draft: FilterDraft;
  set: <K extends keyof FilterDraft>(key: K, value: FilterDraft[K]) => void;
  genders: Choice[];
  hairs: Choice[];
  bodies: Choice[];
  ageBounds: { min: number; max: number };
  ageError: string | null;
  onSubmit: (event: FormEvent<HTMLFormElement>) => void;
  onReset: () => void;
}

export interface UseDiscoverFiltersOptions {
  /** The tab whose preset the age range starts from (teens 18–25, milf 30–50, else 18–42). */
  tab: DiscoverTab;
  /** Called after the filter changed, e.g. to load the list again. */
  onChange?: () => void;
  /** Start open (default false: a Filters button opens the form). */
  defaultOpen?: boolean;
}

const hairValues = ['1', '2', '3', '4', '5'];
const bodyValues = ['1', '2', '3', '4'];

function draftOf(filter: DiscoverFilter, text: string, bounds: { min: number; max: number }): FilterDraft {
  return {
    // Unset until chosen: without a gender the search spans every creator.
    gender: filter.gender === undefined ? '' : String(filter.gender),
    ageFrom: String(filter.age_gte ?? bounds.min),
    ageTo: String(filter.age_lte ?? bounds.max),
    hair: filter.hair === undefined ? '' : String(filter.hair),
    body: filter.body === undefined ? '' : String(filter.body),
    hasBadge: filter.hasBadge === true,
    bigBoobs: filter.bigBoobs === true,
    wantsFun: filter.wantsFun === true,
    text,
  };
}

/**
 * The discover filter form over the search store. Only what the person changed becomes part
 * of the filter: an unchosen gender and the tab's own age range stay unset, so no query
 * carries them (SPEC §5).
 */
export function useDiscoverFilters({ tab, onChange, defaultOpen = false }: UseDiscoverFiltersOptions): DiscoverFiltersState {
  useSignals();
  const { t } = useTranslation();
  const { search, session } = useFanstage();
  const loggedIn = session.isLoggedIn.value;
  const bounds = ageBoundsFor(tab);
  const filter = search.filter.value;
  const text = search.filterText.value;
  const [open, setOpen] = useState(defaultOpen);
  const [draft, setDraft] = useState<FilterDraft>(() => draftOf(filter, text, bounds));
  const [ageError, setAgeError] = useState<string | null>(null);
  const base = useId();

  // The store may change elsewhere (a reset from the logo, another tab's preset).
  useEffect(() => {
    setDraft(draftOf(filter, text, bounds));
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [filter, text, bounds.min, bounds.max]);

  function apply(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const from = Number(draft.ageFrom || bounds.min);
    const to = Number(draft.ageTo || bounds.max);
    if (!Number.isInteger(from) || !Number.isInteger(to) || from < 18 || to > 120 || from > to) {
      setAgeError(t('discover.filters.ageInvalid'));
      return;
    }
    setAgeError(null);
    const gender = draft.gender === '' ? null : Number(draft.gender);
    const next: DiscoverFilter = {
      ...(gender !== null && genderChoices(loggedIn).includes(gender) ? { gender } : {}),
      ...(from !== bounds.min ? { age_gte: from } : {}),
      ...(to !== bounds.max ? { age_lte: to } : {}),
      ...(draft.hair ? { hair: Number(draft.hair) } : {}),
      ...(draft.body ? { body: Number(draft.body) } : {}),
      ...(draft.hasBadge ? { hasBadge: true } : {}),
      ...(draft.bigBoobs ? { bigBoobs: true } : {}),
      ...(draft.wantsFun ? { wantsFun: true } : {}),
    };
    search.setFilter(next);
    search.setFilterText(draft.text.trim());
    onChange?.();
  }

  function reset() {
    setAgeError(null);
    search.setFilter({});
    search.setFilterText('');
    setDraft(draftOf({}, '', bounds));
    onChange?.();
  }

  return {
    ids: { form: `${base}-form`, title: `${base}-title`, age: `${base}-age`, ageError: `${base}-age-error` },
    open,
    onToggle: () => setOpen((value) => !value),
    active: search.filterActive.value,
    draft,
    set: (key, value) => setDraft((current) => ({ ...current, [key]: value })),
    genders: [{ value: '', label: t('discover.filters.genderOptions.any') }, ...genderChoices(loggedIn).map((value) => ({ value: String(value), label: t(`discover.filters.genderOptions.${value}`) }))],
    hairs: [{ value: '', label: t('discover.filters.hairOptions.any') }, ...hairValues.map((value) => ({ value, label: t(`discover.filters.hairOptions.${value}`) }))],
    bodies: [{ value: '', label: t('discover.filters.bodyOptions.any') }, ...bodyValues.map((value) => ({ value, label: t(`discover.filters.bodyOptions.${value}`) }))],
    ageBounds: bounds,
    ageError,
    onSubmit: apply,
    onReset: reset,
  };
}
