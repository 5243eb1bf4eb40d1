import { createElement } from 'react';
import { useTranslation } from 'react-i18next';

/** What a creator's widget shows when its `creator` attribute is empty. */
export function MissingCreator() {
  const { t } = useTranslation();
  return createElement('p', { className: 'fs-root', role: 'status' }, t('widget.noUser'));
}
