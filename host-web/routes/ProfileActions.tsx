import { useEffect, useId, useLayoutEffect, useRef, useState, useSyncExternalStore } from 'react';
import { useSignals } from '@preact/signals-react/runtime';
import { useTranslation } from 'react-i18next';
import { Link, useLocation } from 'wouter';
import { CallButton, Dialog, FollowButton, SubscribeButton, useFanstage } from '../../lib/ui';
import type { KnownProfile } from '../../lib/sdk';
import { useSite } from '../site';
import { gopayReturnUrl } from './moneyLinks';
import { abuseFormHref } from './abuseLinks';
import styles from './ProfileActions.module.css';

const phoneQuery = '(max-width: 869.98px)';
function subscribePhone(onChange: () => void): () => void {
  const query = window.matchMedia(phoneQuery);
  query.addEventListener('change', onChange);
  return () => query.removeEventListener('change', onChange);
}

/** A phone's row has room for four controls: Message moves into the menu and Call shows its icon. */
function usePhone(): boolean {
  return useSyncExternalStore(subscribePhone, () => window.matchMedia(phoneQuery).matches);
}

type Confirmation = { kind: 'block' | 'unfollow'; resolve: (confirmed: boolean) => void };

/**
 * The profile page's relation actions (SPEC §2, §4): follow, and a "more" menu with block or
 * unblock and hide. Unfollowing and blocking ask first; a visitor gets the login prompt.
 */
export function ProfileActions({ profile }: { profile: KnownProfile }) {
  useSignals();
  const { t } = useTranslation();
  const { session, relations } = useFanstage();
  const { openLoginPrompt } = useSite();
  const [, navigate] = useLocation();
  const [menuOpen, setMenuOpen] = useState(false);
  const [confirmation, setConfirmation] = useState<Confirmation | null>(null);
  const [announcement, setAnnouncement] = useState('');
  const [failure, setFailure] = useState<string | null>(null);
  const menuId = useId();
  const menuButton = useRef<HTMLButtonElement>(null);
  const moreBox = useRef<HTMLDivElement>(null);
  const menu = useRef<HTMLUListElement>(null);
  const name = profile.displayName.trim() || profile.username;
  const loggedIn = session.isLoggedIn.value;
  const busy = relations.pending.value.has(profile.id);
  const blocked = loggedIn && profile.blockedStatus === 1;
  const phone = usePhone();

  useEffect(() => {
    if (!menuOpen) return;
    const close = (event: KeyboardEvent) => {
      if (event.key !== 'Escape') return;
      setMenuOpen(false);
      menuButton.current?.focus();
    };
    // A press anywhere outside the menu and its button closes it, as a native menu would.
    const outside = (event: PointerEvent) => {
      if (!moreBox.current?.contains(event.target as Node)) setMenuOpen(false);
    };
    document.addEventListener('keydown', close);
    document.addEventListener('pointerdown', outside);
    return () => {
      document.removeEventListener('keydown', close);
      document.removeEventListener('pointerdown', outside);
    };
  }, [menuOpen]);

  // The menu opens under its button, as wide as its longest item; where the button sits near an
  // edge of the screen (a phone's actions row ends at the right edge) it moves back inside.
  useLayoutEffect(() => {
    const list = menu.current;
    if (!menuOpen || !list) return;
    list.style.translate = '';
    const margin = 8;
    const box = list.getBoundingClientRect();
    const shift = Math.max(margin - box.left, Math.min(0, document.documentElement.clientWidth - margin - box.right));
    if (shift !== 0) list.style.translate = `${shift}px 0`;
  }, [menuOpen]);

  // On one's own profile the actions are the way to the settings (SPEC §2: settings on Profile).
  if (session.userId.value !== null && session.userId.value === profile.id) {
    return (
      <div className={styles.actions}>
        <Link href="/settings" className={styles.secondary}>
          {t('settings.title')}
        </Link>
      </div>
    );
  }

  function ask(kind: Confirmation['kind']): Promise<boolean> {
    return new Promise((resolve) => setConfirmation({ kind, resolve }));
  }

  async function run(change: () => Promise<void>, done: string) {
    setFailure(null);
    try {
      await change();
      setAnnouncement(done);
    } catch (error) {
      const code = (error as { code?: unknown }).code;
      setFailure(t(typeof code === 'string' ? `errors.${code}` : 'auth.genericError', { defaultValue: t('auth.genericError') }));
    }
  }

  async function onBlock() {
    setMenuOpen(false);
    if (!session.isLoggedIn.peek()) return openLoginPrompt();
    if (!(await ask('block'))) return;
    await run(() => relations.block(profile.id), t('profileActions.blocked', { name }));
  }

  async function onUnblock() {
    setMenuOpen(false);
    await run(() => relations.unblock(profile.id), t('profileActions.unblocked', { name }));
  }

  async function onHide() {
    setMenuOpen(false);
    if (!session.isLoggedIn.peek()) return openLoginPrompt();
    await run(() => relations.hide(profile.id), t('profileActions.hiddenDone', { name }));
  }

  return (
    <div className={phone ? `${styles.actions} ${styles.phoneRow}` : styles.actions} data-testid="profile-actions">
      {blocked ? null : <FollowButton userId={profile.id} className={styles.follow} onLoginRequired={openLoginPrompt} confirmUnfollow={() => ask('unfollow')} />}
      {/* A card subscription leaves for the processor's page and comes back here through /gopay-return. */}
      {blocked ? null : <SubscribeButton userId={profile.id} className={styles.grow} reserve={profile.offersSubscriptions} onLoginRequired={openLoginPrompt} paymentMode="redirect" returnUrl={gopayReturnUrl()} />}
      {blocked || phone ? null : loggedIn ? (
        <Link href={`/chat/${encodeURIComponent(profile.username)}`} className={styles.secondary} data-testid="profile-chat">
          {t('siteChat.message')}
        </Link>
      ) : (
        <button type="button" className={styles.secondary} aria-haspopup="dialog" onClick={openLoginPrompt}>
          {t('siteChat.message')}
        </button>
      )}
      {blocked ? null : (
        <CallButton creator={profile.id} compact={phone} onLoginRequired={openLoginPrompt} onStarted={(callId) => navigate(`/videocall/${encodeURIComponent(callId)}`)} />
      )}
      <div ref={moreBox} className={styles.more}>
        <button
          ref={menuButton}
          type="button"
          className={styles.moreButton}
          aria-expanded={menuOpen}
          aria-controls={menuId}
          onClick={() => setMenuOpen((open) => !open)}
        >
          <span aria-hidden="true">⋯</span>
          <span className={styles.visuallyHidden}>{t('profileActions.more')}</span>
        </button>
        <ul ref={menu} id={menuId} className={styles.menu} hidden={!menuOpen}>
          {phone && !blocked ? (
            <li>
              {loggedIn ? (
                <Link href={`/chat/${encodeURIComponent(profile.username)}`} className={styles.menuItem} data-testid="profile-chat" onClick={() => setMenuOpen(false)}>
                  {t('siteChat.message')}
                </Link>
              ) : (
                <button type="button" className={styles.menuItem} aria-haspopup="dialog" onClick={() => {
                    setMenuOpen(false);
                    openLoginPrompt();
                  }}>
                  {t('siteChat.message')}
                </button>
              )}
            </li>
          ) : null}
          <li>
            {blocked ? (
              <button type="button" className={styles.menuItem} aria-disabled={busy || undefined} onClick={() => void onUnblock()}>
                {t('profileActions.unblock')}
              </button>
            ) : (
              <button type="button" className={`${styles.menuItem} ${styles.danger}`} aria-disabled={busy || undefined} onClick={() => void onBlock()}>
                {t('profileActions.block')}
              </button>
            )}
          </li>
          <li>
            {loggedIn && profile.isHidden ? (
              <span className={styles.menuNote}>{t('profileActions.hidden')}</span>
            ) : (
              <button type="button" className={styles.menuItem} aria-disabled={busy || undefined} onClick={() => void onHide()}>
                {t('profileActions.hide')}
              </button>
            )}
          </li>
          <li>
            {/* The report form is for signed-in people (SPEC §2 /abuse-form, login); a visitor is asked to log in. */}
            {loggedIn ? (
              <Link href={abuseFormHref('user', profile.id)} className={styles.menuItem} onClick={() => setMenuOpen(false)}>
                {t('profileActions.report')}
              </Link>
            ) : (
              <button type="button" className={styles.menuItem} onClick={() => {
                  setMenuOpen(false);
                  openLoginPrompt();
                }}>
                {t('profileActions.report')}
              </button>
            )}
          </li>
        </ul>
      </div>
      <p className={styles.visuallyHidden} role="status">
        {announcement}
      </p>
      {failure ? (
        <p className={styles.alert} role="alert">
          {failure}
        </p>
      ) : null}
      <ConfirmDialog
        confirmation={confirmation}
        name={name}
        onDone={(confirmed) => {
          confirmation?.resolve(confirmed);
          setConfirmation(null);
        }}
      />
    </div>
  );
}

/** SPEC §2: the block and unfollow confirmations, as a modal that Escape or Cancel dismisses. */
function ConfirmDialog({ confirmation, name, onDone }: { confirmation: Confirmation | null; name: string; onDone: (confirmed: boolean) => void }) {
  const { t } = useTranslation();
  const kind = confirmation?.kind ?? 'unfollow';
  return (
    <Dialog
      open={confirmation !== null}
      title={t(kind === 'block' ? 'profileActions.blockTitle' : 'profileActions.unfollowTitle', { name })}
      description={t(kind === 'block' ? 'profileActions.blockText' : 'profileActions.unfollowText')}
      closeButton={false}
      size="small"
      onClose={() => onDone(false)}
      data-testid="relation-confirm"
    >
      <div className={styles.dialogButtons}>
        <button type="button" className={styles.secondary} onClick={() => onDone(false)}>
          {t('profileActions.cancel')}
        </button>
        <button type="button" className={kind === 'block' ? styles.dangerButton : styles.primary} onClick={() => onDone(true)}>
          {t(kind === 'block' ? 'profileActions.blockConfirm' : 'profileActions.unfollowConfirm')}
        </button>
      </div>
    </Dialog>
  );
}
