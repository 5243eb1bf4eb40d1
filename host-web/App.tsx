import { Suspense, useEffect, useRef } from 'react';
import { Route, Switch, useLocation } from 'wouter';
import { useTranslation } from 'react-i18next';
import { useSite } from './site';
import { rememberLocation } from './navigation';
import { lazyScreen } from './lazyScreen';
import { ErrorBoundary } from './layout/ErrorBoundary';
import { Header } from './layout/Header';
import { BottomNav } from './layout/BottomNav';
import { SideNav } from './layout/SideNav';
import { Footer } from './layout/Footer';
import { LoginPrompt } from './overlays/LoginPrompt';
// Offline is the one screen bundled with the shell: it must show when chunks cannot load.
import Offline from './routes/Offline';
import styles from './App.module.css';

const Home = lazyScreen(() => import('./routes/Home'));
const Discover = lazyScreen(() => import('./routes/Discover'));
const Profile = lazyScreen(() => import('./routes/Profile'));
const NotFound = lazyScreen(() => import('./routes/NotFound'));

export function App() {
  const { t } = useTranslation();
  const { title } = useSite();
  const [location] = useLocation();
  useNavigationEffects(location);

  useEffect(() => {
    document.title = title ? t('app.documentTitle', { title: title.text }) : t('app.homeDocumentTitle');
  }, [t, title]);

  return (
    <div className={`fs-root site ${styles.shell}`}>
      <a className={styles.skipLink} href="#main">
        {t('app.skipToContent')}
      </a>
      <SideNav />
      <div className={styles.column}>
        <Header />
        <main id="main" tabIndex={-1} className={styles.main}>
          <ErrorBoundary resetKey={location}>
            <Suspense fallback={<ScreenLoading />}>
              <Switch>
                <Route path="/" component={Home} />
                <Route path="/discover" component={Discover} />
                <Route path="/404" component={NotFound} />
                <Route path="/offline" component={Offline} />
                <Route path="/:id">{(params) => <Profile id={params.id} />}</Route>
                <Route component={NotFound} />
              </Switch>
            </Suspense>
          </ErrorBoundary>
        </main>
        <Footer />
      </div>
      <BottomNav />
      <LoginPrompt />
    </div>
  );
}

function ScreenLoading() {
  const { t } = useTranslation();
  return (
    <p className={styles.loading} role="status">
      {t('app.loading')}
    </p>
  );
}

/**
 * After a navigation inside the app: remember where the user came from (the back arrow and
 * the offline retry use it), start the new screen at its top, and move focus to the content
 * so keyboard and screen-reader users continue from the new screen, not from the old link.
 */
function useNavigationEffects(location: string) {
  const previous = useRef<string | null>(null);
  useEffect(() => {
    if (previous.current !== null && previous.current !== location) {
      rememberLocation(previous.current);
      window.scrollTo(0, 0);
      const main = document.getElementById('main');
      // A dialog that navigated keeps focus management to itself.
      if (main && !document.querySelector('dialog[open]')) main.focus({ preventScroll: true });
    }
    previous.current = location;
  }, [location]);
}
