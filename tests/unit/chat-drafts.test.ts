import { describe, expect, it } from 'vitest';
import { CHAT_DRAFTS_KEY, createChatDraftStore, type ChatDraftStorage, type StoredChatDraft } from '../../lib/sdk';

/** A Web Storage stand-in that can be told to refuse writes (a full quota). */
function memoryStorage() {
  const map = new Map<string, string>();
  let full = false;
  const storage: ChatDraftStorage & { map: Map<string, string>; fill(on: boolean): void } = {
    map,
    getItem: (key) => map.get(key) ?? null,
    setItem(key, value) {
      if (full) throw new Error('QuotaExceededError');
      map.set(key, value);
    },
    removeItem: (key) => void map.delete(key),
    fill(on) {
      full = on;
    },
  };
  return storage;
}

function draft(partnerId: number, n: number, change: Partial<StoredChatDraft> = {}): StoredChatDraft {
  return {
    msgId: `m-${n}`,
    receiverId: partnerId,
    text: `draft ${n}`,
    mediaId: null,
    media: null,
    giftId: null,
    price: 0,
    sendDt: 1_700_000_000_000 + n,
    status: 'failed',
    failure: 'not_delivered-general',
    reason: 'message_not_send-offline',
    newPrice: null,
    ...change,
  };
}

describe('chat drafts in web storage', () => {
  it('keeps each conversation of each user apart, and a logout forgets all of one user', () => {
    const storage = memoryStorage();
    const drafts = createChatDraftStore(storage);
    drafts.write(1, 2, [draft(2, 1)]);
    drafts.write(1, 3, [draft(3, 2, { status: 'sending', failure: null, reason: null })]);
    drafts.write(4, 2, [draft(2, 3)]);
    expect(drafts.read(1, 2)).toEqual([draft(2, 1)]);
    expect(drafts.read(1, 3)).toMatchObject([{ msgId: 'm-2', status: 'sending' }]);
    expect(drafts.read(4, 2)).toEqual([draft(2, 3)]);
    expect(drafts.read(2, 1)).toEqual([]);
    expect(storage.map.has(`${CHAT_DRAFTS_KEY}.1.2`)).toBe(true);

    drafts.clear(1);
    expect(drafts.read(1, 2)).toEqual([]);
    expect(drafts.read(1, 3)).toEqual([]);
    expect([...storage.map.keys()].filter((k) => k.startsWith(`${CHAT_DRAFTS_KEY}.1`))).toEqual([]);
    expect(drafts.read(4, 2)).toEqual([draft(2, 3)]);
  });

  it('removes the entry when no draft is left', () => {
    const storage = memoryStorage();
    const drafts = createChatDraftStore(storage);
    drafts.write(1, 2, [draft(2, 1)]);
    drafts.write(1, 2, []);
    expect(storage.map.size).toBe(0);
  });

  it('is bounded: the newest drafts of a conversation, a size per entry, and the most recently written conversations', () => {
    const storage = memoryStorage();
    const drafts = createChatDraftStore(storage, { maxDrafts: 3, maxBytes: 2000, maxThreads: 2 });
    drafts.write(1, 2, [1, 2, 3, 4, 5].map((n) => draft(2, n)));
    expect(drafts.read(1, 2).map((d) => d.msgId)).toEqual(['m-3', 'm-4', 'm-5']);

    drafts.write(1, 2, [draft(2, 1), draft(2, 2, { text: 'x'.repeat(1600) })]);
    expect(drafts.read(1, 2).map((d) => d.msgId)).toEqual(['m-2']);
    drafts.write(1, 2, [draft(2, 1, { text: 'x'.repeat(3000) })]);
    expect(drafts.read(1, 2)).toEqual([]);

    drafts.write(1, 2, [draft(2, 1)]);
    drafts.write(1, 3, [draft(3, 1)]);
    drafts.write(1, 4, [draft(4, 1)]);
    expect(drafts.read(1, 2)).toEqual([]);
    expect(drafts.read(1, 3)).toHaveLength(1);
    expect(drafts.read(1, 4)).toHaveLength(1);
  });

  it('lives without a storage, or with one that refuses or holds something else', () => {
    const none = createChatDraftStore(null);
    none.write(1, 2, [draft(2, 1)]);
    expect(none.read(1, 2)).toEqual([]);

    const storage = memoryStorage();
    const drafts = createChatDraftStore(storage);
    storage.fill(true);
    expect(() => drafts.write(1, 2, [draft(2, 1)])).not.toThrow();
    expect(drafts.read(1, 2)).toEqual([]);
    storage.fill(false);

    storage.map.set(`${CHAT_DRAFTS_KEY}.1.2`, 'not json');
    expect(drafts.read(1, 2)).toEqual([]);
    storage.map.set(`${CHAT_DRAFTS_KEY}.1.2`, JSON.stringify([{ msgId: 'x' }, draft(3, 1), draft(2, 2), draft(2, 2), { ...draft(2, 3), failure: 'nope' }]));
    expect(drafts.read(1, 2).map((d) => d.msgId)).toEqual(['m-2']);
  });
});
