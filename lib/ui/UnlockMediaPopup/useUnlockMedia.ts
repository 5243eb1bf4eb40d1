import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { useSignals } from '@preact/signals-react/runtime';
import { useTranslation } from 'react-i18next';
import { fanPriceCents, formatPrice, isSdkError, SALT_UNIT } from '../../sdk';
import type { MediaView, Post } from '../../contract';
import { useFanstage } from '../FanstageProvider/context';

/** SPEC §9: how long the unlock animation runs before the popup gives way to the media. */
export const UNLOCK_DELAY_MS = 3800;
/** SPEC §8: post-doesnt-exists is a 3 s warning. */
export const GONE_WARNING_MS = 3000;

/**
 * Where the popup is: the offer (price, unlock, subscribe); the adult-content agreement
 * (SPEC §4: unlocking needs nsfwAgreement 1); working; the price changed since the fan saw it
 * (asked again with the new one); the wallet is short (the top-up); unlocked; the post is gone.
 */
export type UnlockPhase = 'offer' | 'agreement' | 'working' | 'priceChanged' | 'topUp' | 'subscribe' | 'unlocked' | 'gone';

/**
 * A media outside any post, e.g. a locked chat media: what it is, whose, and how the holder of
 * it learns the outcome (its list is not the posts cache).
 */
export interface UnlockSource {
  media: MediaView | null;
  /** The owner's id (the subscription offer) and the line naming them ("From Lucy"). */
  ownerId: number;
  byline: string;
  offersSubscriptions: boolean;
  /** The unlock went through: the holder shows the original with this key. */
  applyUnlock: (mediaId: number, mediaUnlockHash: string) => void;
  /** The server refused the price shown: the holder keeps the price that holds now. */
  applyPrice: (mediaId: number, mediaPrice: number) => void;
}

export interface UseUnlockMediaOptions {
  /** The post whose media to unlock; or `source` for a media of another kind. */
  postId?: number;
  /** Which media of the post; the first by default. */
  mediaIndex?: number;
  source?: UnlockSource;
  onClose: () => void;
  /** After the media was unlocked (the posts cache already shows it). */
  onUnlocked?: (media: { mediaId: number; mediaUnlockHash: string }) => void;
  /** Closes the popup by itself after the unlock animation (SPEC §9, 3.8 s); on by default. */
  autoClose?: boolean;
}

export function useUnlockMedia(options: UseUnlockMediaOptions) {
  useSignals();
  const fanstage = useFanstage();
  const { t } = useTranslation();
  const { postId, mediaIndex = 0, source } = options;
  const entry = useMemo(() => (postId === undefined ? null : fanstage.posts.get(postId)), [fanstage, postId]);
  const post: Post | null = entry?.post.value ?? null;
  const media: MediaView | null = source ? source.media : (post?.media[mediaIndex] ?? null);
  const account = fanstage.session.account.value;
  const knownSalt = fanstage.settings.settings.value?.salt;
  const salt = knownSalt ?? SALT_UNIT;
  const [phase, setPhase] = useState<UnlockPhase>('offer');
  const [error, setError] = useState<string | null>(null);
  // The price the fan agreed to: what they were shown, until the server says it changed.
  const [shownPrice, setShownPrice] = useState<number | null>(media?.mediaPrice ?? null);
  const optionsRef = useRef(options);
  optionsRef.current = options;
  const live = useRef(true);
  useEffect(() => {
    live.current = true;
    return () => {
      live.current = false;
    };
  }, []);

  useEffect(() => {
    if (fanstage.settings.status.peek() === 'idle') fanstage.settings.load().catch(() => undefined);
    if (fanstage.session.isLoggedIn.peek() && fanstage.wallet.balance.peek() === null) fanstage.wallet.refresh().catch(() => undefined);
  }, [fanstage]);

  useEffect(() => {
    if (shownPrice === null && media) setShownPrice(media.mediaPrice);
  }, [media, shownPrice]);

  // Unlocked elsewhere meanwhile (another tab, a subscription): nothing left to pay for.
  const alreadyOpen = media !== null && (media.mediaUnlockHash !== null || media.mediaPrice === 0);

  useEffect(() => {
    if (phase === 'unlocked' && optionsRef.current.autoClose !== false) {
      const timer = setTimeout(() => optionsRef.current.onClose(), UNLOCK_DELAY_MS);
      return () => clearTimeout(timer);
    }
    if (phase === 'gone') {
      const timer = setTimeout(() => optionsRef.current.onClose(), GONE_WARNING_MS);
      return () => clearTimeout(timer);
    }
    return undefined;
  }, [phase]);

  const unlockNow = useCallback(
    async (price: number) => {
      if (!media) return;
      setPhase('working');
      setError(null);
      try {
        const result = await fanstage.wallet.unlock({ mediaId: media.mediaId, mediaPrice: price });
        if (source) source.applyUnlock(media.mediaId, result.mediaUnlockHash);
        else fanstage.posts.applyUnlock(media.mediaId, result.mediaUnlockHash);
        if (!live.current) return;
        setPhase('unlocked');
        optionsRef.current.onUnlocked?.({ mediaId: media.mediaId, mediaUnlockHash: result.mediaUnlockHash });
      } catch (cause) {
        if (!live.current) return;
        const code = isSdkError(cause) ? cause.code : 'internal-error';
        switch (code) {
          case 'noMoney':
            setPhase('topUp');
            return;
          case 'nsfw-agreement-required':
            setPhase('agreement');
            return;
          case 'post-doesnt-exists':
          case 'not-found':
          case 'media-not-found':
            setPhase('gone');
            return;
          case 'price-changed': {
            const body = isSdkError(cause) ? (cause.body as { price?: unknown } | undefined) : undefined;
            // The answer carries the price that holds now; a post is asked for again instead.
            if (source) {
              if (typeof body?.price === 'number') source.applyPrice(media.mediaId, body.price);
            } else if (postId !== undefined) await fanstage.posts.load(postId).catch(() => undefined);
            if (!live.current) return;
            setPhase('priceChanged');
            return;
          }
          default:
            setError(t([`errors.${code}`, 'unlock.failed']));
            setPhase('offer');
        }
      }
    },
    [fanstage, media, postId, source, t],
  );

  /** The fan chose to unlock at the price shown. */
  function unlock() {
    if (!media) return;
    if (account && account.nsfwAgreement !== 1) {
      setPhase('agreement');
      return;
    }
    void unlockNow(shownPrice ?? media.mediaPrice);
  }

  /** Agrees to see adult content (PUT /api/users/me), then unlocks. */
  async function agree() {
    if (!media) return;
    setPhase('working');
    setError(null);
    try {
      const updated = await fanstage.account.updateMe({ nsfwAgreement: 1 });
      fanstage.session.setAccount(updated);
    } catch (cause) {
      if (!live.current) return;
      const code = isSdkError(cause) ? cause.code : 'internal-error';
      setError(t([`errors.${code}`, 'unlock.failed']));
      setPhase('agreement');
      return;
    }
    await unlockNow(shownPrice ?? media.mediaPrice);
  }

  /** After the price changed: the fan accepts the new one. */
  function acceptNewPrice() {
    if (!media) return;
    setShownPrice(media.mediaPrice);
    if (account && account.nsfwAgreement !== 1) {
      setPhase('agreement');
      return;
    }
    void unlockNow(media.mediaPrice);
  }

  /** Back from buying credits: unlock straight away when credits were bought. */
  function toppedUp(bought: boolean) {
    setPhase('offer');
    if (bought) void unlockNow(shownPrice ?? media?.mediaPrice ?? 0);
  }

  /** After a subscription: the creator's posts open, so the post is asked for again with its keys. */
  async function subscribed() {
    if (postId !== undefined) await fanstage.posts.load(postId).catch(() => undefined);
  }

  const author = post ? post.user.displayName.trim() || post.user.username : '';
  const creatorOffers = source ? source.offersSubscriptions && !(media?.mediaIsOwner ?? false) : post !== null && !post.isMy && post.user.offersSubscriptions;
  const price = shownPrice ?? media?.mediaPrice ?? 0;

  return {
    post,
    media,
    /** Whether what holds the media has arrived (the post, or the given source). */
    found: source !== undefined || post !== null,
    /** The media's owner, for 'Subscribe'. */
    ownerId: source ? source.ownerId : (post?.user.id ?? null),
    /** Who the media is by, as a line of the offer. */
    byline: source ? source.byline : t('unlock.by', { name: author }),
    /** False until the platform's salt is known: no price is shown before it is the real one. */
    priceReady: knownSalt !== undefined,
    author,
    phase,
    setPhase,
    error,
    /** What the fan pays, as shown on the lock ($3.20). */
    price: formatPrice(price, salt),
    priceCents: price,
    /** What the fan pays, in credits: the top-up offers a package that covers it. */
    needed: fanPriceCents(price, salt),
    /** After price-changed: the price that holds now. */
    newPrice: media ? formatPrice(media.mediaPrice, salt) : null,
    alreadyOpen,
    offersSubscriptions: creatorOffers,
    needsAgreement: account !== null && account.nsfwAgreement !== 1,
    unlock,
    agree,
    acceptNewPrice,
    toppedUp,
    subscribed,
  };
}
