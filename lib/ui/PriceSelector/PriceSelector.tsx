import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import type { PriceKind } from '../../sdk';
import '../theme/tokens.css';
import styles from './PriceSelector.module.css';
import { usePriceSelector } from './usePriceSelector';
import { priceStepsNote } from './stepsNote';
import { useFanstage } from '../FanstageProvider/context';

export interface PriceSelectorProps {
  kind?: PriceKind;
  /** The stored price in cents. */
  value: number;
  /** Called on every choice (inline use, e.g. in a new post). */
  onChange?: (cents: number) => void;
  /** Shows a 'Set price' button, disabled while the choice equals `value` (SPEC §5). */
  onApply?: (cents: number) => void;
  disabled?: boolean;
  /** Shown under the steps, e.g. why the selector is disabled. */
  hint?: string;
  label?: string;
  className?: string;
}

/** The price steps of SPEC §9 as a group of radio buttons. */
export function PriceSelector({ kind = 'postMedia', value, onChange, onApply, disabled, hint, label, className }: PriceSelectorProps) {
  const { t } = useTranslation();
  const state = usePriceSelector({ kind, value });
  const salt = useFanstage().settings.settings.value?.salt;
  const name = useId();
  const hintId = useId();
  return (
    <fieldset className={['fs-root', styles.root, className].filter(Boolean).join(' ')} disabled={disabled} aria-describedby={hintId}>
      <legend className={styles.legend}>{label ?? t('posts.price.label')}</legend>
      <div className={styles.steps}>
        {state.options.map((option) => (
          <label key={option.cents} className={styles.step} data-checked={state.selected === option.cents || undefined}>
            <input
              type="radio"
              name={name}
              value={option.cents}
              checked={state.selected === option.cents}
              onChange={() => {
                state.setSelected(option.cents);
                onChange?.(option.cents);
              }}
            />
            <span>{option.label}</span>
          </label>
        ))}
      </div>
      <p id={hintId} className={styles.hint}>
        {hint ?? t('posts.price.hint')} {priceStepsNote(t, kind, salt)}
      </p>
      {onApply ? (
        <button type="button" className={styles.apply} disabled={disabled || !state.changed} onClick={() => onApply(state.selected)}>
          {t('posts.price.apply')}
        </button>
      ) : null}
    </fieldset>
  );
}
