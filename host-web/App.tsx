import { Suspense, useEffect, useRef, useState, type ComponentProps } from 'react';
import { Route, Switch, useLocation } from 'wouter';
import { useTranslation } from 'react-i18next';
import { useSite } from './site';
import { asksToLogIn, isLoginOnly, isSparedFromForcedLogin, rememberLocation } from './navigation';
import { useTourSettings } from './routes/tourSettings';
import { lazyScreen } from './lazyScreen';
import { ErrorBoundary } from './layout/ErrorBoundary';
import { Header } from './layout/Header';
import { BottomNav } from './layout/BottomNav';
import { SideNav } from './layout/SideNav';
import { Footer } from './layout/Footer';
import { AgeGate, useTermsAgreed } from './overlays/AgeGate';
import { PostMoneyProvider } from './overlays/PostMoney';
import { RealtimeNotice } from './layout/RealtimeNotice';
import { TestModeRibbon } from './layout/TestModeRibbon';
import { useLandingQuery } from './landing';
import { useOAuthOutcome } from './oauthOutcome';
// Offline is the one screen bundled with the shell: it must show when chunks cannot load.
import Offline from './routes/Offline';
// So is the screen most visits land on, with its strings (host-web/vite.config.ts: firstLoadChunks).
import Home from './routes/Home';
import { lazyPart, useIdle, useWanted } from './layout/lazyPart';
import type { ChangedTerms as ChangedTermsPart } from './overlays/ChangedTerms';
import type { InvitationPrompt as InvitationPromptPart } from './overlays/InvitationPrompt';
import type { VerifyIdPrompt as VerifyIdPromptPart } from './overlays/VerifyIdPrompt';
import type { VerifyEmailPrompt as VerifyEmailPromptPart } from './overlays/VerifyEmailPrompt';
import type { PartnerBanner as PartnerBannerPart } from './layout/PartnerBanner';
import { useVerifyEmailRefusals } from './overlays/verifyEmailRefusals';
import styles from './App.module.css';

// What only a signed-in person or a rare moment shows stays out of a visitor's first load:
// each is fetched the first time it is wanted.
const CallOverlay = lazyPart<Record<string, never>>(() => import('./overlays/CallOverlay').then((m) => ({ default: m.CallOverlay })));
const LoginPrompt = lazyPart<Record<string, never>>(() => import('./overlays/LoginPrompt').then((m) => ({ default: m.LoginPrompt })));
// Only a session the server ended brings it, with the strings it says why in.
const SessionEndedNotice = lazyPart<Record<string, never>>(() => import('./layout/SessionEndedNotice').then((m) => ({ default: m.SessionEndedNotice })));
const LogoutConfirm = lazyPart<Record<string, never>>(() => import('./overlays/LogoutConfirm').then((m) => ({ default: m.LogoutConfirm })));
const ChangedTerms = lazyPart<ComponentProps<typeof ChangedTermsPart>>(() => import('./overlays/ChangedTerms').then((m) => ({ default: m.ChangedTerms })));
const InvitationPrompt = lazyPart<ComponentProps<typeof InvitationPromptPart>>(() => import('./overlays/InvitationPrompt').then((m) => ({ default: m.InvitationPrompt })));
const VerifyIdPrompt = lazyPart<ComponentProps<typeof VerifyIdPromptPart>>(() => import('./overlays/VerifyIdPrompt').then((m) => ({ default: m.VerifyIdPrompt })));
const VerifyEmailPrompt = lazyPart<ComponentProps<typeof VerifyEmailPromptPart>>(() => import('./overlays/VerifyEmailPrompt').then((m) => ({ default: m.VerifyEmailPrompt })));
// Asks which release is live (at most every 30 minutes): nothing a first screen waits for.
const UpdateNotice = lazyPart<{ location: string }>(() => import('./layout/UpdateNotice').then((m) => ({ default: m.UpdateNotice })), { alone: true });
// The partner programme's banner is for signed-in people on a few screens: its strings and the partner API stay out too.
const PartnerBanner = lazyPart<ComponentProps<typeof PartnerBannerPart>>(() => import('./layout/PartnerBanner').then((m) => ({ default: m.PartnerBanner })));

const Discover = lazyScreen(() => import('./routes/Discover'));
const DetailList = lazyScreen(() => import('./routes/DetailList'));
const SearchHashtags = lazyScreen(() => import('./routes/SearchHashtags'));
const WhoToFollow = lazyScreen(() => import('./routes/WhoToFollow'));
const Notifications = lazyScreen(() => import('./routes/Notifications'));
// A profile's card, like the home screen, needs only the first load's strings (routes/Profile.tsx).
const Profile = lazyScreen(() => import('./routes/Profile'), { firstLoadStrings: true });
const NotFound = lazyScreen(() => import('./routes/NotFound'));
const Settings = lazyScreen(() => import('./routes/Settings'));
const SettingsEditProfile = lazyScreen(() => import('./routes/SettingsEditProfile'));
const SettingsUploadAvatar = lazyScreen(() => import('./routes/SettingsUploadAvatar'));
const SignUp = lazyScreen(() => import('./routes/SignUp'));
const ForgotPassword = lazyScreen(() => import('./routes/ForgotPassword'));
const ResetPassword = lazyScreen(() => import('./routes/ResetPassword'));
const MailAction = lazyScreen(() => import('./routes/MailAction'));
const Timeline = lazyScreen(() => import('./routes/Timeline'));
const FeedList = lazyScreen(() => import('./routes/FeedList'));
const Post = lazyScreen(() => import('./routes/Post'));
const FullScreenMedia = lazyScreen(() => import('./routes/FullScreenMedia'));
const NewPost = lazyScreen(() => import('./routes/NewPost'));
const UpdatePost = lazyScreen(() => import('./routes/UpdatePost'));
const GopayReturn = lazyScreen(() => import('./routes/GopayReturn'));
const SettingsSubscription = lazyScreen(() => import('./routes/SettingsSubscription'));
const SettingsWallet = lazyScreen(() => import('./routes/SettingsWallet'));
const SettingsEarnings = lazyScreen(() => import('./routes/SettingsEarnings'));
// The chart library comes with this screen's chunk alone.
const Statistics = lazyScreen(() => import('./routes/Statistics'));
const SettingsAccount = lazyScreen(() => import('./routes/SettingsAccount'));
const SettingsOffers = lazyScreen(() => import('./routes/SettingsOffers'));
const SettingsWidgetSites = lazyScreen(() => import('./routes/SettingsWidgetSites'));
const SettingsMassMessages = lazyScreen(() => import('./routes/SettingsMassMessages'));
const ChatList = lazyScreen(() => import('./routes/ChatList'));
const ChatOpened = lazyScreen(() => import('./routes/ChatOpened'));
const VideoCall = lazyScreen(() => import('./routes/VideoCall'));
const TourPartners = lazyScreen(() => import('./routes/TourPartners'));
const TourFaq = lazyScreen(() => import('./routes/TourFaq'));
const PartnerRegistration = lazyScreen(() => import('./routes/PartnerRegistration'));
const VerifyRequest = lazyScreen(() => import('./routes/VerifyRequest'));
const Admin = lazyScreen(() => import('./routes/Admin'));
const AbuseForm = lazyScreen(() => import('./routes/AbuseForm'));
const LegalPage = lazyScreen(() => import('./routes/LegalPage'));
const Contact = lazyScreen(() => import('./routes/Contact'));

export function App() {
  const { t } = useTranslation();
  const { title, loggedIn, sessionChecked, fanstage, loginPromptOpen, logoutConfirmOpen } = useSite();
  const [location] = useLocation();
  useNavigationEffects(location);
  const landing = useLandingQuery(fanstage, location);
  useLoginGuard(location);
  useForcedLogin(location);
  useOAuthOutcome();
  const terms = useTermsAgreed(location);
  const [termsDeclined, setTermsDeclined] = useState(false);
  // A logged-in person who agreed to older terms is asked again in a popup, not behind the
  // gate; until the session is known, neither shows for them.
  const changedTerms = !terms.agreed && terms.olderConsent && (loggedIn || !sessionChecked);
  const gate = !terms.agreed && !changedTerms;
  const invitation = sessionChecked && !loggedIn && !gate && location !== '/sign-up' ? landing.invitation : null;
  const invitationWanted = useWanted(invitation !== null);
  const loginPromptWanted = useWanted(loginPromptOpen);
  const logoutConfirmWanted = useWanted(logoutConfirmOpen);
  const [verifyEmailOpen, closeVerifyEmail] = useVerifyEmailRefusals(fanstage);
  const idle = useIdle();
  // A test installation says so on every page (the server's FANSTAGE_STAGING).
  const testMode = useTourSettings().settings?.testMode === true;

  useEffect(() => {
    document.title = title ? t('app.documentTitle', { title: title.text }) : t('app.homeDocumentTitle');
  }, [t, title]);

  return (
    // Behind the agreement the page is only glimpsed: blurred, and inert while the modal is open.
    <div className={`fs-root site ${styles.shell} ${testMode ? styles.testMode : ''} ${gate ? styles.blurred : ''}`} data-testid="site-shell">
      <a className={styles.skipLink} href="#main">
        {t('app.skipToContent')}
      </a>
      <SideNav />
      <div className={styles.column}>
        <Header />
        <main id="main" tabIndex={-1} className={styles.main}>
          <Suspense fallback={null}>{loggedIn ? <PartnerBanner location={location} /> : null}</Suspense>
          <Suspense fallback={null}>{idle ? <UpdateNotice location={location} /> : null}</Suspense>
          <ErrorBoundary resetKey={location}>
            <PostMoneyProvider>
              <Suspense fallback={<ScreenLoading />}>
                <Switch>
                  <Route path="/" component={Home} />
                  <Route path="/discover" component={Discover} />
                  <Route path="/discover/:info">{(params) => <DetailList info={params.info} />}</Route>
                  <Route path="/search-hashtags/:hashtag">{(params) => <SearchHashtags hashtag={params.hashtag} />}</Route>
                  <Route path="/who-to-follow" component={WhoToFollow} />
                  <Route path="/notifications" component={Notifications} />
                  <Route path="/404" component={NotFound} />
                  <Route path="/offline" component={Offline} />
                  <Route path="/sign-up" component={SignUp} />
                  <Route path="/sign-up/forgotpassword" component={ForgotPassword} />
                  <Route path="/reset-password/:hash">{(params) => <ResetPassword hash={params.hash} />}</Route>
                  <Route path="/action/:hash">{(params) => <MailAction hash={params.hash} />}</Route>
                  <Route path="/settings" component={Settings} />
                  {/* SPEC §2 names Settings' first child "main": the same screen. */}
                  <Route path="/settings/main" component={Settings} />
                  <Route path="/settings/edit-profile" component={SettingsEditProfile} />
                  <Route path="/settings/upload-avatar" component={SettingsUploadAvatar} />
                  <Route path="/settings/wallet" component={SettingsWallet} />
                  <Route path="/settings/earnings" component={SettingsEarnings} />
                  <Route path="/settings/account" component={SettingsAccount} />
                  <Route path="/settings/offers" component={SettingsOffers} />
                  <Route path="/settings/widget-sites" component={SettingsWidgetSites} />
                  <Route path="/settings/mass-messages" component={SettingsMassMessages} />
                  <Route path="/settings/subscription/:type/:id">{(params) => <SettingsSubscription type={params.type} id={params.id} />}</Route>
                  <Route path="/settings/subscription/:type">{(params) => <SettingsSubscription type={params.type} />}</Route>
                  <Route path="/gopay-return" component={GopayReturn} />
                  <Route path="/tour-partners" component={TourPartners} />
                  <Route path="/tour-faq" component={TourFaq} />
                  <Route path="/terms">{() => <LegalPage doc="terms" />}</Route>
                  <Route path="/terms-for-ag">{() => <LegalPage doc="termsForAg" />}</Route>
                  <Route path="/terms2257">{() => <LegalPage doc="terms2257" />}</Route>
                  <Route path="/privacy">{() => <LegalPage doc="privacy" />}</Route>
                  <Route path="/cookie-policy">{() => <LegalPage doc="cookiePolicy" />}</Route>
                  <Route path="/contact" component={Contact} />
                  <Route path="/statistics" component={Statistics} />
                  <Route path="/partner-registration" component={PartnerRegistration} />
                  <Route path="/verify-request" component={VerifyRequest} />
                  <Route path="/admin" component={Admin} />
                  <Route path="/abuse-form" component={AbuseForm} />
                  <Route path="/timeline" component={Timeline} />
                  <Route path="/feed/:postType/:info?/:ts?" component={FeedList} />
                  <Route path="/post/:fromId/:id/full-screen-media">{(params) => <FullScreenMedia fromId={params.fromId} id={params.id} />}</Route>
                  <Route path="/post/:id/full-screen-media">{(params) => <FullScreenMedia id={params.id} />}</Route>
                  <Route path="/post/:postid/comments">{(params) => <Post postid={params.postid} comments />}</Route>
                  <Route path="/post/:postid/:commentid">{(params) => <Post postid={params.postid} commentid={params.commentid} />}</Route>
                  <Route path="/post/:postid">{(params) => <Post postid={params.postid} />}</Route>
                  <Route path="/chat-list" component={ChatList} />
                  <Route path="/chat/:user">{(params) => <ChatOpened user={params.user} />}</Route>
                  <Route path="/videocall/:id">{(params) => <VideoCall id={params.id} />}</Route>
                  <Route path="/new-post" component={NewPost} />
                  <Route path="/update-post/:postid">{(params) => <UpdatePost postid={params.postid} />}</Route>
                  <Route path="/:id">{(params) => <Profile id={params.id} />}</Route>
                  <Route component={NotFound} />
                </Switch>
              </Suspense>
            </PostMoneyProvider>
          </ErrorBoundary>
        </main>
        <Footer />
      </div>
      <BottomNav />
      {testMode ? <TestModeRibbon /> : null}
      <RealtimeNotice />
      {/* Read when the session changes: the provider above renders again then (loggedIn). */}
      {!loggedIn && (fanstage.session.logoutReason.peek() ?? 'logout') !== 'logout' ? (
        <Suspense fallback={null}>
          <SessionEndedNotice />
        </Suspense>
      ) : null}
      {gate ? <AgeGate onAgreed={terms.markAgreed} /> : null}
      {/* The lazily fetched parts mount when first wanted and stay, so their dialogs close as they open. */}
      <Suspense fallback={null}>
        {loggedIn ? <CallOverlay /> : null}
        {loginPromptWanted ? <LoginPrompt /> : null}
        {/* The invitation waits for the session check and the age agreement; members never see it, and the sign-up names the inviter itself. */}
        {invitationWanted ? <InvitationPrompt invitation={invitation} onClosed={landing.dismiss} /> : null}
        {logoutConfirmWanted ? <LogoutConfirm /> : null}
        {gate || !loggedIn ? null : <VerifyIdPrompt location={location} />}
        {/* An action the server refused for an unverified e-mail, wherever it was started. */}
        {loggedIn && verifyEmailOpen ? <VerifyEmailPrompt onClose={closeVerifyEmail} /> : null}
        {changedTerms && sessionChecked && !termsDeclined ? <ChangedTerms onAgreed={terms.markAgreed} onDeclined={() => setTermsDeclined(true)} /> : null}
      </Suspense>
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
 * SPEC §2: login-only routes send visitors to `/`. It waits for the start-up session check,
 * so a logged-in user reloading such a route stays on it. Logged-in users on `/` belong on
 * the Timeline, and keep the query on the way (an `aff` or utm code still counts there).
 */
function useLoginGuard(location: string) {
  const { loggedIn, sessionChecked, openLoginPrompt } = useSite();
  const [, navigate] = useLocation();
  useEffect(() => {
    if (sessionChecked && !loggedIn && isLoginOnly(location)) {
      navigate('/', { replace: true });
      if (asksToLogIn(location)) openLoginPrompt();
    }
    if (sessionChecked && loggedIn && location === '/') navigate(`/timeline${window.location.search}`, { replace: true });
  }, [sessionChecked, loggedIn, location, navigate, openLoginPrompt]);
}

/**
 * SPEC §6: with the operator's FORCE_LOGIN (`forceLogin` in the settings), a visitor is asked
 * to log in on every page they open, except the information pages and the ways into an
 * account (navigation.ts). Asked again at every navigation, so closing the prompt only lets
 * them glance at the page they are on.
 */
function useForcedLogin(location: string) {
  const { loggedIn, sessionChecked, openLoginPrompt } = useSite();
  const forced = useTourSettings().settings?.forceLogin === true;
  // The opener changes with the prompt's state; only a navigation (or the session) asks again.
  const open = useRef(openLoginPrompt);
  open.current = openLoginPrompt;
  useEffect(() => {
    if (forced && sessionChecked && !loggedIn && !isSparedFromForcedLogin(location)) open.current();
  }, [forced, sessionChecked, loggedIn, location]);
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
