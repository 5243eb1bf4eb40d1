import { useEffect, useMemo, useState } from 'react';
import { useSignals } from '@preact/signals-react/runtime';
import { type FeedItem, type FeedStatus, type FeedType, type PublicProfile } from '../../sdk';
import { useFanstage } from '../FanstageProvider/context';

/** A row of the rendered feed. */
export type FeedRow =
  | { kind: 'post'; key: string; id: number; index: number }
  | { kind: 'divider'; key: string }
  | { kind: 'whoToFollow'; key: string; block: number };

export interface UseFeedOptions {
  type: FeedType;
  /** Username for `profile`, tag for `hashtag`. */
  param?: string;
  /** Public timeline gender filter. */
  gender?: number;
  /** Who-to-follow blocks after every 5 posts (SPEC §2); on for the timelines by default. */
  whoToFollow?: boolean;
  /** How often to look for newer posts, in ms; 0 never. One minute on timelines by default. */
  checkNewEvery?: number;
}

/** SPEC §9: one who-to-follow block per 5 posts. */
export const POSTS_PER_SUGGESTION_BLOCK = 5;
/** Suggestions shown in one block. */
export const SUGGESTIONS_PER_BLOCK = 3;
/** SPEC §4: after 5 minutes away, a timeline scrolled near its top starts over. */
const AWAY_RELOAD_MS = 5 * 60_000;

export interface FeedState {
  rows: FeedRow[];
  status: FeedStatus;
  errorCode: string | null;
  postCount: number;
  newCount: number;
  suggestions: readonly PublicProfile[];
  loadMore: () => void;
  retry: () => void;
  showNew: () => void;
}

/** The feed's rows and paging from the feed store, with the timers a timeline needs. */
export function useFeed({ type, param, gender, whoToFollow, checkNewEvery }: UseFeedOptions): FeedState {
  useSignals();
  const fanstage = useFanstage();
  const feed = useMemo(() => fanstage.feeds.feed(type, param, gender !== undefined ? { gender } : {}), [fanstage, type, param, gender]);
  const timeline = type === 'public' || type === 'private';
  const wantSuggestions = whoToFollow ?? timeline;
  const interval = checkNewEvery ?? (timeline ? 60_000 : 0);
  const [suggestions, setSuggestions] = useState<readonly PublicProfile[]>([]);

  const status = feed.status.value;
  const items = feed.items.value;
  const error = feed.error.value;

  useEffect(() => {
    if (feed.status.peek() === 'idle') void feed.loadMore();
  }, [feed, status]);

  useEffect(() => {
    if (!wantSuggestions) return;
    let live = true;
    fanstage.search
      .suggested()
      .then((list) => {
        if (!live) return;
        setSuggestions(list);
      })
      .catch(() => undefined);
    return () => {
      live = false;
    };
  }, [fanstage, wantSuggestions, fanstage.session.userId.value]);

  useEffect(() => {
    if (!interval || typeof window === 'undefined') return;
    const timer = setInterval(() => {
      if (typeof document !== 'undefined' && document.visibilityState === 'hidden') return;
      void feed.checkNew().catch(() => undefined);
    }, interval);
    return () => clearInterval(timer);
  }, [feed, interval]);

  useEffect(() => {
    if (!timeline || typeof document === 'undefined') return;
    let hiddenAt = 0;
    const onVisibility = () => {
      if (document.visibilityState === 'hidden') {
        hiddenAt = Date.now();
        return;
      }
      if (hiddenAt && Date.now() - hiddenAt > AWAY_RELOAD_MS && window.scrollY < 200) void feed.reload();
      hiddenAt = 0;
    };
    document.addEventListener('visibilitychange', onVisibility);
    return () => document.removeEventListener('visibilitychange', onVisibility);
  }, [feed, timeline]);

  const rows = useMemo(() => toRows(items, wantSuggestions && suggestions.length > 0), [items, wantSuggestions, suggestions.length]);

  return {
    rows,
    status,
    errorCode: error?.code ?? null,
    postCount: rows.filter((row) => row.kind === 'post').length,
    newCount: feed.newCount.value,
    suggestions,
    loadMore: () => void feed.loadMore(),
    retry: () => void feed.loadMore(),
    showNew: () => feed.showNew(),
  };
}

export function toRows(items: readonly FeedItem[], suggestions: boolean): FeedRow[] {
  const rows: FeedRow[] = [];
  let posts = 0;
  for (const item of items) {
    if (item.kind === 'divider') {
      rows.push({ kind: 'divider', key: item.key });
      continue;
    }
    rows.push({ kind: 'post', key: item.key, id: item.id, index: posts });
    posts += 1;
    if (suggestions && posts % POSTS_PER_SUGGESTION_BLOCK === 0) {
      const block = posts / POSTS_PER_SUGGESTION_BLOCK - 1;
      rows.push({ kind: 'whoToFollow', key: `w${block}`, block });
    }
  }
  return rows;
}
