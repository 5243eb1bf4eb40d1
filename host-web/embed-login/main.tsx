import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { createFanstage } from '../../lib/sdk';
import { FanstageProvider } from '../../lib/ui';
import '../../lib/ui/theme/tokens.css';
import { initialLanguage } from '../language';
import { createI18n, loadLanguage } from '../../lib/i18n';
import { addMoreStrings } from '../strings';
import { EmbedLogin } from './EmbedLogin';
import { EmbedConfirm } from './EmbedConfirm';
import './embed-login.css';

/**
 * The widgets' popups: pages of their own on the platform's origin, without the site's shell,
 * opened by a widget on a creator's site — `/embed/login` signs the fan in (docs/embedding.md,
 * Sign-in), `/embed/confirm` asks him to confirm a spend or pay a card in the platform's card
 * window (docs/spending.md).
 */
const language = initialLanguage();
document.documentElement.lang = language;
// On the platform's own origin the session is the site's: a fan logged in there skips the form.
const fanstage = createFanstage({ baseUrl: '', language, session: { mode: 'cookie' } });

const container = document.getElementById('root');
if (!container) throw new Error('embed-login.html has no #root');

// The page renders with all its strings: the visitor's language, and the English strings the
// site's first load leaves out (host-web/strings.ts), this page's among them.
const i18n = createI18n(language);
void Promise.all([loadLanguage(language), addMoreStrings(i18n)])
  .catch(() => undefined)
  .then(() => {
    createRoot(container).render(
      <StrictMode>
        <FanstageProvider fanstage={fanstage} language={language} i18n={i18n}>
          {window.location.pathname.startsWith('/embed/confirm') ? (
            <EmbedConfirm search={window.location.search} opener={window.opener as Window | null} onDone={() => window.close()} />
          ) : (
            <EmbedLogin search={window.location.search} opener={window.opener as Window | null} onDone={() => window.close()} />
          )}
        </FanstageProvider>
      </StrictMode>,
    );
  });
