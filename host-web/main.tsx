import { StrictMode, startTransition } from 'react';
import { createRoot } from 'react-dom/client';
import { I18nextProvider } from 'react-i18next';
import { createI18n, loadLanguage } from '../lib/i18n';
import { createLazyFanstage } from '../lib/sdk/fanstageCore';
import { FanstageContext } from '../lib/ui/FanstageProvider/context';
import '../lib/ui/theme/tokens.css';
import './styles.css';
import { navigate } from 'wouter/use-browser-location';
import { initialLanguage } from './language';
import { keepRealtimeConnected, startSession } from './session';
import { restorePreferredProcessor } from './landing';
import { SiteProvider } from './site';
import { App } from './App';
import { addMoreStrings, prefetchMoreStrings } from './strings';
import { loadHeavyStores, setSiteFanstage } from './stores';
import type { ReactNode } from 'react';

const language = initialLanguage();
// The strings the first screen does not show come in alongside it (host-web/strings.ts).
prefetchMoreStrings().catch(() => undefined);
// The site is served by the API's own server, so the API is on the page's origin. The stores a
// visitor's home screen does not use come later (host-web/stores.ts).
const fanstage = createLazyFanstage({
  baseUrl: '',
  language,
  session: {
    // On the API's own origin the refresh token is an HttpOnly cookie the page never sees.
    mode: 'cookie',
    // SPEC §4: a session the server ended (the refresh was refused, a block, a password changed
    // elsewhere) lands on the public page, which says why (layout/SessionEndedNotice.tsx).
    onLogout: (reason) => {
      if (reason !== 'logout') navigate('/', { replace: true });
    },
  },
}, loadHeavyStores);
setSiteFanstage(fanstage);
const sessionReady = startSession(fanstage);
// A payment processor a `?pgw=` link asked for earlier in this tab (SPEC §2).
restorePreferredProcessor(fanstage);
keepRealtimeConnected(fanstage);
document.documentElement.lang = language;

/**
 * The site and the components share one Fanstage object and translate with one i18next instance
 * and one language (the I18nextProvider above). The context is given directly rather than
 * through FanstageProvider, which can build a Fanstage object of its own and so would bring
 * every store's code into the first load.
 */
function Providers({ children }: { children: ReactNode }) {
  return <FanstageContext.Provider value={fanstage}>{children}</FanstageContext.Provider>;
}

const container = document.getElementById('root');
if (!container) throw new Error('index.html has no #root');

// Only English is bundled. A visitor who reads Czech waits for the Czech strings (fetched
// alongside the session check) rather than seeing English first; if they cannot be fetched,
// the page speaks English.
void loadLanguage(language)
  .catch(() => undefined)
  .then(() => {
    const i18n = createI18n(language);
    addMoreStrings(i18n).catch(() => undefined);
    const root = createRoot(container);
    // The first render as a transition: React renders the shell in slices and keeps the page
    // answering input in between, instead of one long task while a phone parses the rest.
    startTransition(() =>
      root.render(
        <StrictMode>
          <I18nextProvider i18n={i18n}>
            <SiteProvider fanstage={fanstage} i18n={i18n} initialLanguage={language} sessionReady={sessionReady}>
              <Providers>
                <App />
              </Providers>
            </SiteProvider>
          </I18nextProvider>
        </StrictMode>,
      ),
    );
  });
