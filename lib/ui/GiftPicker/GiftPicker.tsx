import { useId, useRef, type KeyboardEvent } from 'react';
import { useTranslation } from 'react-i18next';
import type { Gift } from '../../sdk';
import '../theme/tokens.css';
import { formatMoney } from '../shared/money';
import { giftName } from './giftName';
import styles from './GiftPicker.module.css';

export interface GiftPickerProps {
  gifts: readonly Gift[];
  selectedId: number | null;
  onSelect: (gift: Gift) => void;
  /** The picture of a gift, or null to show its name alone. */
  pictureOf: (gift: Gift) => string | null;
  disabled?: boolean;
  className?: string;
}

/**
 * The gift catalogue as a radio group: each gift with its picture and what the fan pays.
 * Arrow keys move between gifts, as in any radio group; Enter or Space chooses.
 */
export function GiftPicker({ gifts, selectedId, onSelect, pictureOf, disabled, className }: GiftPickerProps) {
  const { t } = useTranslation();
  const labelId = useId();
  const list = useRef<HTMLDivElement>(null);
  const focusIndex = Math.max(
    0,
    gifts.findIndex((g) => g.id === selectedId),
  );

  function onKeyDown(event: KeyboardEvent<HTMLDivElement>) {
    const keys: Record<string, number> = { ArrowRight: 1, ArrowDown: 1, ArrowLeft: -1, ArrowUp: -1 };
    const step = keys[event.key];
    if (step === undefined || disabled) return;
    event.preventDefault();
    const buttons = Array.from(list.current?.querySelectorAll<HTMLElement>('[role="radio"]') ?? []);
    const active = (list.current?.getRootNode() as Document | ShadowRoot | undefined)?.activeElement;
    const at = buttons.findIndex((b) => b === active);
    const next = (at + step + buttons.length) % buttons.length;
    const gift = gifts[next];
    if (gift) {
      onSelect(gift);
      buttons[next]?.focus();
    }
  }

  return (
    <div className={['fs-root', styles.root, className].filter(Boolean).join(' ')}>
      <p id={labelId} className={styles.label}>
        {t('tip.gifts')}
      </p>
      <div ref={list} role="radiogroup" aria-labelledby={labelId} className={styles.grid} onKeyDown={onKeyDown}>
        {gifts.map((gift, index) => {
          const picture = pictureOf(gift);
          const selected = gift.id === selectedId;
          return (
            <button
              key={gift.id}
              type="button"
              role="radio"
              aria-checked={selected}
              aria-disabled={disabled || undefined}
              tabIndex={index === focusIndex ? 0 : -1}
              className={styles.gift}
              onClick={() => !disabled && onSelect(gift)}
            >
              {picture ? <img className={styles.picture} src={picture} alt="" width={56} height={56} loading="lazy" /> : <span className={styles.placeholder} aria-hidden="true" />}
              <span className={styles.name}>{giftName(t, gift)}</span>
              <span className={styles.price}>{t('tip.giftPrice', { price: formatMoney(gift.gValue) })}</span>
            </button>
          );
        })}
      </div>
    </div>
  );
}
