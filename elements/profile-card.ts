import { createElement } from 'react';
import { useTranslation } from 'react-i18next';
import { ProfileCard } from '../lib/ui/ProfileCard';
import tokensCss from '../lib/ui/theme/tokens.css?inline';
import profileCardCss from '../lib/ui/ProfileCard/ProfileCard.module.css?inline';
import followButtonCss from '../lib/ui/FollowButton/FollowButton.module.css?inline';
import { profileHref, signInFor } from './shared';
import { widgetElement, type WidgetSpec } from './widget';

export const profileCardTag = 'fanstage-profile-card';

/** The element's attributes, as props (`api-base` becomes `apiBase`). */
export interface ProfileCardElementProps {
  user?: string;
  apiBase?: string;
  language?: string;
  /** `"false"` hides the follow button; shown otherwise. */
  follow?: string;
}

/**
 * The styles travel inside each shadow root: a host page's selectors cannot reach in, and
 * the widget's cannot leak out. Custom properties do inherit through the shadow boundary,
 * which is what makes `--fs-*` theming from the host page work.
 */
const css = `${tokensCss}\n${profileCardCss}\n${followButtonCss}`;

export const profileCardWidget: WidgetSpec<ProfileCardElementProps> = {
  attributes: ['user', 'follow'],
  css,
  render({ user, follow }, { base, fanstage }) {
    const username = user?.trim() ?? '';
    if (!username) return createElement(MissingUser);
    return createElement(ProfileCard, {
      username,
      href: profileHref(base, username),
      follow: follow?.trim().toLowerCase() !== 'false',
      // A visitor signs in through the platform's popup; the follow then goes ahead.
      onLoginRequired: () => signInFor(base, fanstage),
    });
  },
};

function MissingUser() {
  const { t } = useTranslation();
  // Tells the page's author what is wrong without breaking the rest of their page.
  return createElement('p', { className: 'fs-root', role: 'status' }, t('widget.noUser'));
}

let elementClass: CustomElementConstructor | undefined;

/**
 * The `<fanstage-profile-card>` class, made on first use: building it needs `HTMLElement`,
 * so merely importing this module stays safe in Node and during server rendering.
 */
export function profileCardElement(): CustomElementConstructor {
  elementClass ??= widgetElement(profileCardWidget);
  return elementClass;
}
