import { StrictMode, startTransition } from 'react';
import { createRoot } from 'react-dom/client';
import { I18nextProvider } from 'react-i18next';
import { createI18n, loadLanguage } from '../lib/i18n';
import { createFanstage } from '../lib/sdk';
import { FanstageProvider } from '../lib/ui';
import '../lib/ui/theme/tokens.css';
import './styles.css';
import { navigate } from 'wouter/use-browser-location';
import { initialLanguage } from './language';
import { keepRealtimeConnected, startSession } from './session';
import { restorePreferredProcessor } from './landing';
import { SiteProvider, useSite } from './site';
import { App } from './App';
import { addMoreStrings, prefetchMoreStrings } from './strings';
import type { ReactNode } from 'react';
import type { i18n as I18n } from 'i18next';

const language = initialLanguage();
// The strings the first screen does not show come in alongside it (host-web/strings.ts).
prefetchMoreStrings().catch(() => undefined);
// The site is served by the API's own server, so the API is on the page's origin.
const fanstage = createFanstage({
  baseUrl: '',
  language,
  session: {
    // On the API's own origin the refresh token is an HttpOnly cookie the page never sees.
    mode: 'cookie',
    // SPEC §4: a session the server ended (the refresh was refused) lands on the public page.
    onLogout: (reason) => {
      if (reason === 'refresh-token-failed') navigate('/', { replace: true });
    },
  },
});
const sessionReady = startSession(fanstage);
// A payment processor a `?pgw=` link asked for earlier in this tab (SPEC §2).
restorePreferredProcessor(fanstage);
keepRealtimeConnected(fanstage);
document.documentElement.lang = language;

/** The site and the components translate with one i18next instance and one language. */
function Providers({ i18n, children }: { i18n: I18n; children: ReactNode }) {
  const { language: current } = useSite();
  return (
    <FanstageProvider fanstage={fanstage} i18n={i18n} language={current}>
      {children}
    </FanstageProvider>
  );
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
              <Providers i18n={i18n}>
                <App />
              </Providers>
            </SiteProvider>
          </I18nextProvider>
        </StrictMode>,
      ),
    );
  });
