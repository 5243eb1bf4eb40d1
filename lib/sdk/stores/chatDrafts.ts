/**
 * Unsent chat drafts kept in web storage, so a reload (the site's socket reloads the page after
 * too many reconnections, SPEC §4; or the person reloads or leaves) does not lose them.
 *
 * One entry per logged-in user and partner under `fanstage.chatDrafts.<userId>.<partnerId>`,
 * and an index of the user's partners under `fanstage.chatDrafts.<userId>`, so a logout removes
 * them all without walking the storage. Bounded: at most `maxDrafts` drafts a conversation (the
 * newest), `maxBytes` an entry and `maxThreads` conversations a user (the least recently
 * written go). A storage that refuses (quota, privacy mode) only means the drafts last as long
 * as the page.
 */
import type { ChatMedia } from '../../contract';
import type { ChatFailure } from '../../contract/constants';

/** The part of the Web Storage API the drafts need, e.g. `sessionStorage`. */
export interface ChatDraftStorage {
  getItem(key: string): string | null;
  setItem(key: string, value: string): void;
  removeItem(key: string): void;
}

/** A draft as kept: everything a resend with the same `msgId` needs, and its failure. */
export interface StoredChatDraft {
  msgId: string;
  receiverId: number;
  text: string;
  mediaId: number | null;
  media: ChatMedia | null;
  giftId: number | null;
  price: number;
  sendDt: number;
  status: 'sending' | 'failed';
  failure: ChatFailure | null;
  reason: string | null;
  newPrice: number | null;
}

export interface ChatDraftLimits {
  /** Drafts kept a conversation (the newest); default 20. */
  maxDrafts?: number;
  /** Characters of one conversation's entry; default 64 000. */
  maxBytes?: number;
  /** Conversations kept a user (the most recently written); default 30. */
  maxThreads?: number;
}

export const CHAT_DRAFTS_KEY = 'fanstage.chatDrafts';

const FAILURES: ReadonlySet<string> = new Set<ChatFailure>(['not_delivered', 'no_credit', 'waiting_for_email', 'not_delivered-general']);

/** `sessionStorage` when the host has one (and allows it), else none. */
export function defaultChatDraftStorage(): ChatDraftStorage | null {
  try {
    return typeof sessionStorage === 'undefined' ? null : sessionStorage;
  } catch {
    return null;
  }
}

function isNumberOrNull(value: unknown): value is number | null {
  return value === null || (typeof value === 'number' && Number.isFinite(value));
}

/** What was read back, checked: an entry written by another version or by hand is skipped. */
function validDraft(value: unknown, partnerId: number): StoredChatDraft | null {
  if (typeof value !== 'object' || value === null) return null;
  const d = value as Record<string, unknown>;
  if (typeof d.msgId !== 'string' || d.msgId === '') return null;
  if (d.receiverId !== partnerId) return null;
  if (typeof d.text !== 'string' || typeof d.price !== 'number' || typeof d.sendDt !== 'number') return null;
  if (!isNumberOrNull(d.mediaId) || !isNumberOrNull(d.giftId) || !isNumberOrNull(d.newPrice)) return null;
  if (d.status !== 'sending' && d.status !== 'failed') return null;
  if (d.failure !== null && !(typeof d.failure === 'string' && FAILURES.has(d.failure))) return null;
  if (d.reason !== null && typeof d.reason !== 'string') return null;
  const media = typeof d.media === 'object' && d.media !== null ? (d.media as ChatMedia) : null;
  return {
    msgId: d.msgId,
    receiverId: partnerId,
    text: d.text,
    mediaId: d.mediaId,
    media,
    giftId: d.giftId,
    price: d.price,
    sendDt: d.sendDt,
    status: d.status,
    failure: d.failure as ChatFailure | null,
    reason: d.reason,
    newPrice: d.newPrice,
  };
}

export function createChatDraftStore(storage: ChatDraftStorage | null, limits: ChatDraftLimits = {}) {
  const maxDrafts = limits.maxDrafts ?? 20;
  const maxBytes = limits.maxBytes ?? 64_000;
  const maxThreads = limits.maxThreads ?? 30;

  const keyOf = (userId: number, partnerId: number) => `${CHAT_DRAFTS_KEY}.${userId}.${partnerId}`;
  const indexKey = (userId: number) => `${CHAT_DRAFTS_KEY}.${userId}`;

  function get(key: string): string | null {
    try {
      return storage?.getItem(key) ?? null;
    } catch {
      return null;
    }
  }

  function set(key: string, value: string): boolean {
    try {
      storage?.setItem(key, value);
      return true;
    } catch {
      return false;
    }
  }

  function remove(key: string): void {
    try {
      storage?.removeItem(key);
    } catch {
      // Nothing more to do.
    }
  }

  function readIndex(userId: number): number[] {
    const raw = get(indexKey(userId));
    if (!raw) return [];
    try {
      const parsed: unknown = JSON.parse(raw);
      return Array.isArray(parsed) ? parsed.filter((id): id is number => typeof id === 'number' && Number.isInteger(id)) : [];
    } catch {
      return [];
    }
  }

  function writeIndex(userId: number, ids: readonly number[]): void {
    if (ids.length === 0) remove(indexKey(userId));
    else set(indexKey(userId), JSON.stringify(ids));
  }

  /** The drafts kept for one conversation, oldest first. */
  function read(userId: number, partnerId: number): StoredChatDraft[] {
    if (!storage) return [];
    const raw = get(keyOf(userId, partnerId));
    if (!raw) return [];
    try {
      const parsed: unknown = JSON.parse(raw);
      if (!Array.isArray(parsed)) return [];
      const seen = new Set<string>();
      const out: StoredChatDraft[] = [];
      for (const entry of parsed) {
        const draft = validDraft(entry, partnerId);
        if (draft && !seen.has(draft.msgId)) {
          seen.add(draft.msgId);
          out.push(draft);
        }
      }
      return out;
    } catch {
      return [];
    }
  }

  /** Keeps one conversation's drafts (none removes the entry). */
  function write(userId: number, partnerId: number, drafts: readonly StoredChatDraft[]): void {
    if (!storage) return;
    const key = keyOf(userId, partnerId);
    let index = readIndex(userId).filter((id) => id !== partnerId);
    if (drafts.length === 0) {
      remove(key);
      writeIndex(userId, index);
      return;
    }
    // The newest drafts are kept; a media's view is the first thing to go when it is too big.
    let kept = drafts.slice(-maxDrafts);
    let json = JSON.stringify(kept);
    if (json.length > maxBytes) {
      kept = kept.map((d) => (d.media ? { ...d, media: null } : d));
      json = JSON.stringify(kept);
    }
    while (json.length > maxBytes && kept.length > 1) {
      kept = kept.slice(1);
      json = JSON.stringify(kept);
    }
    if (json.length > maxBytes) {
      remove(key);
      writeIndex(userId, index);
      return;
    }
    // The most recently written conversation last; the oldest beyond the limit are forgotten.
    index.push(partnerId);
    while (index.length > maxThreads) {
      const dropped = index.shift() as number;
      remove(keyOf(userId, dropped));
    }
    if (!set(key, json)) {
      index = index.filter((id) => id !== partnerId);
    }
    writeIndex(userId, index);
  }

  /** Forgets every draft of one user (a logout). */
  function clear(userId: number): void {
    if (!storage) return;
    for (const partnerId of readIndex(userId)) remove(keyOf(userId, partnerId));
    remove(indexKey(userId));
  }

  return { read, write, clear };
}

export type ChatDraftStore = ReturnType<typeof createChatDraftStore>;
