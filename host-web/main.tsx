import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { I18nextProvider } from 'react-i18next';
import { createI18n } from '../lib/i18n';
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
import type { ReactNode } from 'react';

const language = initialLanguage();
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
const i18n = createI18n(language);
document.documentElement.lang = language;

/** The site and the components translate with one i18next instance and one language. */
function Providers({ children }: { children: ReactNode }) {
  const { language: current } = useSite();
  return (
    <FanstageProvider fanstage={fanstage} i18n={i18n} language={current}>
      {children}
    </FanstageProvider>
  );
}

const container = document.getElementById('root');
if (!container) throw new Error('index.html has no #root');

createRoot(container).render(
  <StrictMode>
    <I18nextProvider i18n={i18n}>
      <SiteProvider fanstage={fanstage} i18n={i18n} initialLanguage={language} sessionReady={sessionReady}>
        <Providers>
          <App />
        </Providers>
      </SiteProvider>
    </I18nextProvider>
  </StrictMode>,
);
