import { useEffect, useMemo, useRef, useState } from 'react';
import { useSignals } from '@preact/signals-react/runtime';
import { useTranslation } from 'react-i18next';
import { avatarUrl, callBlocker, formatPrice, takesCalls, type CallBlocker } from '../../sdk';
import type { PaymentMode } from '../../sdk/stores/wallet';
import { useFanstage } from '../FanstageProvider/context';
import type { Message } from '../shared/errorMessage';

export interface UseCallButtonOptions {
  /** The creator to call, by username or id. */
  creator: string | number;
  /**
   * Called instead of calling when nobody is signed in. When it signs the fan in and resolves
   * `true` (a widget's popup sign-in), the call goes on.
   */
  onLoginRequired?: () => void | boolean | Promise<boolean | void>;
  /** Told once the call rings, with its id (the site opens `/videocall/{id}`). */
  onStarted?: (callId: string) => void;
  /** How a top-up opens the card page (`popup` by default). */
  paymentMode?: PaymentMode;
}

export interface CallButtonState {
  /** Nothing to show: the profile is not known yet, it is the viewer's own, or the person takes no calls. */
  hidden: boolean;
  name: string;
  label: string;
  /** Why the viewer cannot call (a disabled button says it), or null. */
  reason: Message;
  disabled: boolean;
  busy: boolean;
  /** The top-up dialog for a fan with less than a minute's credits. */
  topUpOpen: boolean;
  topUpText: string;
  alert: Message;
  paymentMode: PaymentMode;
  call: () => void;
  closeTopUp: () => void;
  /** After a top-up: call at once. */
  paid: () => void;
}

/** Blockers that hide the button rather than disable it. */
const hiding: ReadonlySet<CallBlocker> = new Set<CallBlocker>(['self', 'not-seller']);
/** Blockers the button still acts on (sign in first, or top up first). */
const actionable: ReadonlySet<CallBlocker> = new Set<CallBlocker>(['logged-out', 'no-credit']);

/** "Call · $1.60/min": rings a creator from the fan's credits, or says why it cannot. */
export function useCallButton({ creator, onLoginRequired, onStarted, paymentMode = 'popup' }: UseCallButtonOptions): CallButtonState {
  useSignals();
  const { profiles, session, settings, wallet, calls, socket } = useFanstage();
  const { t } = useTranslation();
  const entry = useMemo(() => profiles.get(creator), [profiles, creator]);
  const [busy, setBusy] = useState(false);
  const [topUpOpen, setTopUpOpen] = useState(false);
  const [alert, setAlert] = useState<Message>(null);
  const mounted = useRef(true);

  useEffect(() => {
    mounted.current = true;
    void profiles.load(creator).catch(() => undefined);
    void settings.load().catch(() => undefined);
    return () => {
      mounted.current = false;
    };
  }, [profiles, settings, creator]);

  const profile = entry.profile.value;
  const account = session.account.value;
  const loggedIn = session.isLoggedIn.value;
  const salt = settings.settings.value?.salt ?? null;
  const balance = wallet.balance.value;
  const phase = calls.phase.value;

  useEffect(() => {
    if (loggedIn && !wallet.balance.peek()) void wallet.refresh().catch(() => undefined);
  }, [loggedIn, wallet]);

  // A call rings over the realtime connection: a partner app's button connects it (the site has at login).
  useEffect(() => {
    if (!loggedIn) return;
    const now = socket.connectedState.peek();
    if (now === 'idle' || now === 'closed') socket.connect();
  }, [loggedIn, socket]);

  const name = profile ? profile.displayName.trim() || profile.username : '';
  const blocker = profile
    ? callBlocker(profile, {
        account: loggedIn ? account : null,
        inCall: phase !== 'idle' && phase !== 'ended',
        credits: balance ? balance.gBalance : null,
        salt,
        webrtc: calls.supported(),
      })
    : null;
  const price = profile && salt !== null ? formatPrice(profile.callPrice, salt, '') : '';
  const label = profile && profile.callPrice > 0 && price ? t('calls.button', { price }) : t('calls.buttonFree');

  async function ring(): Promise<void> {
    if (!profile) return;
    setBusy(true);
    setAlert(null);
    const cdn = settings.settings.peek()?.mediaCDN ?? null;
    const result = await calls.start({
      id: profile.id,
      username: profile.username,
      displayName: profile.displayName,
      avatarUrl: cdn ? avatarUrl(cdn, profile.avatarMedia, 120) : null,
      callPrice: profile.callPrice,
    });
    if (!mounted.current) return;
    setBusy(false);
    if (result.ok) onStarted?.(result.callId);
    else setAlert(t(`calls.problem.${result.problem}`, { defaultValue: t(`calls.blocked.${result.problem}`, { name, defaultValue: t('calls.end.failed') }) }));
  }

  async function call(): Promise<void> {
    if (busy || !profile) return;
    setAlert(null);
    if (!session.isLoggedIn.peek()) {
      try {
        const signedIn = await onLoginRequired?.();
        if (signedIn !== true || !session.isLoggedIn.peek()) return;
      } catch {
        setAlert(t('calls.widget.signInFailed'));
        return;
      }
      // The fan who just signed in may be the creator herself, or have no credits: ask again.
      await wallet.refresh().catch(() => undefined);
      if (!mounted.current) return;
    }
    // A session restored a moment ago: its account and balance may still be on their way.
    if (!session.account.peek()) await session.loadAccount().catch(() => undefined);
    if (!wallet.balance.peek()) await wallet.refresh().catch(() => undefined);
    if (!mounted.current) return;
    const now = callBlocker(profile, {
      account: session.account.peek(),
      inCall: calls.phase.peek() !== 'idle' && calls.phase.peek() !== 'ended',
      credits: wallet.balance.peek()?.gBalance ?? null,
      salt: settings.settings.peek()?.salt ?? null,
      webrtc: calls.supported(),
    });
    if (now === 'no-credit') {
      setTopUpOpen(true);
      return;
    }
    if (now !== null) {
      setAlert(t(`calls.blocked.${now}`, { name }));
      return;
    }
    await ring();
  }

  return {
    hidden: !profile || (blocker !== null && hiding.has(blocker)) || (!takesCalls(profile) && blocker === 'logged-out'),
    name,
    label,
    reason: blocker !== null && !actionable.has(blocker) ? t(`calls.blocked.${blocker}`, { name }) : null,
    disabled: blocker !== null && !actionable.has(blocker),
    busy,
    topUpOpen,
    topUpText: t('calls.topUpText', { name, price: price || t('price.free') }),
    alert,
    paymentMode,
    call: () => void call(),
    closeTopUp: () => {
      wallet.cancelPayment();
      setTopUpOpen(false);
    },
    paid: () => {
      setTopUpOpen(false);
      void ring();
    },
  };
}
