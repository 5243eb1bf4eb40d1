import { describe, expect, it } from 'vitest';
import { SdkError } from '../../lib/sdk/errors';
import { asSdkError, promptFor } from '../../lib/sdk/stores/shared/errors';
import { createRetryKeys, newIdempotencyKey } from '../../lib/sdk/stores/shared/keys';
import { createPagedList, pageStatusAfter } from '../../lib/sdk/stores/shared/paged';
import { createStreamPosition } from '../../lib/sdk/stores/chat/position';

describe('idempotency keys kept for a retry', () => {
  it('sends a try whose answer was lost again with the same key, and a try after a final answer with a new one', async () => {
    const keys = createRetryKeys();
    const sent: string[] = [];
    const lost = new SdkError({ code: 'network', statusCode: 0, retryable: true });
    const refused = new SdkError({ code: 'noMoney', statusCode: -1 });

    await expect(keys.run('user:1:2', undefined, (key) => (sent.push(key), Promise.reject(lost)))).rejects.toBe(lost);
    await keys.run('user:1:2', undefined, async (key) => sent.push(key));
    await keys.run('user:1:2', undefined, async (key) => sent.push(key));
    expect(sent[1]).toBe(sent[0]);
    expect(sent[2]).not.toBe(sent[1]);

    await expect(keys.run('user:1:2', undefined, (key) => (sent.push(key), Promise.reject(refused)))).rejects.toBe(refused);
    await keys.run('user:1:2', undefined, async (key) => sent.push(key));
    expect(sent[4]).not.toBe(sent[3]);
  });

  it('uses the key the caller brings, keeps slots apart, and forgets them all on clear', async () => {
    const keys = createRetryKeys();
    const lost = new SdkError({ code: 'timeout', statusCode: 0, retryable: true });
    const seen: Record<string, string> = {};
    await expect(keys.run('a', 'caller-key-1', () => Promise.reject(lost))).rejects.toBe(lost);
    await expect(keys.run('b', undefined, (key) => ((seen.b = key), Promise.reject(lost)))).rejects.toBe(lost);
    await keys.run('a', undefined, async (key) => (seen.a = key));
    expect(seen.a).toBe('caller-key-1');
    keys.clear();
    await keys.run('b', undefined, async (key) => expect(key).not.toBe(seen.b));
  });

  it('makes keys the server accepts (8 to 64 characters), each new', () => {
    const a = newIdempotencyKey();
    expect(a.length).toBeGreaterThanOrEqual(8);
    expect(a.length).toBeLessThanOrEqual(64);
    expect(newIdempotencyKey()).not.toBe(a);
  });
});

describe('failures as stores keep them', () => {
  it('keeps an SdkError as it is and wraps anything else as internal-error with its cause', () => {
    const own = new SdkError({ code: 'not-found', statusCode: -1 });
    expect(asSdkError(own)).toBe(own);
    const bug = new TypeError('boom');
    const wrapped = asSdkError(bug);
    expect(wrapped).toBeInstanceOf(SdkError);
    expect(wrapped.code).toBe('internal-error');
    expect(wrapped.cause).toBe(bug);
  });

  it('names the prompt a refusal asks for: top-up for missing credits, verification for an unverified e-mail', () => {
    expect(promptFor('noCredit')).toBe('topUp');
    expect(promptFor('noMoney')).toBe('topUp');
    expect(promptFor('emailNotVerified')).toBe('verifyEmail');
    expect(promptFor('email-not-verified')).toBe('verifyEmail');
    expect(promptFor('notAcceptedPrice')).toBeNull();
    expect(promptFor('toString')).toBeNull();
  });

  it('ends a paged list at a page shorter than asked for', () => {
    expect(pageStatusAfter(29, 30)).toBe('ended');
    expect(pageStatusAfter(30, 30)).toBe('ready');
  });
});

describe('a paged list taking in what is new', () => {
  /** Rows newest first, as a server's offset pages give them; `failing` refuses the next request. */
  function rows(pageSize: number, ...ids: string[]) {
    const source = { ids, failing: false, asked: [] as number[] };
    const list = createPagedList<string>({
      pageSize,
      idOf: (row) => row.replace(/'+$/, ''),
      fetchPage: async ({ offset, limit }) => {
        source.asked.push(offset);
        if (source.failing) throw new SdkError({ code: 'network-error', statusCode: -1, retryable: true });
        return source.ids.slice(offset, offset + limit);
      },
    });
    return { source, list };
  }

  it('puts the first page again on top, an item it holds again in its new form, and keeps the pages below', async () => {
    const { source, list } = rows(3, 'g', 'f', 'e', 'd', 'c', 'b', 'a');
    await list.start();
    await list.nextPage();
    expect(list.items.value).toEqual(['g', 'f', 'e', 'd', 'c', 'b']);
    // A new row, and an old one changed and moved up (a merged notification counting one more).
    source.ids = ['h', "d'", 'g', 'f', 'e', 'c', 'b', 'a'];
    await list.refresh();
    expect(list.items.value).toEqual(['h', "d'", 'g', 'f', 'e', 'c', 'b']);
    expect(list.status.value).toBe('ready');
    // The next page goes on from what is shown.
    await list.nextPage();
    expect(list.items.value).toEqual(['h', "d'", 'g', 'f', 'e', 'c', 'b', 'a']);
    expect(list.status.value).toBe('ended');
  });

  it('keeps the list as it was when the first page fails again, and an ended list stays ended', async () => {
    const { source, list } = rows(2, 'b', 'a');
    await list.start();
    await list.nextPage();
    expect(list.status.value).toBe('ended');
    source.failing = true;
    await list.refresh();
    expect(list.items.value).toEqual(['b', 'a']);
    expect(list.status.value).toBe('ended');
    expect(list.error.value).toBeNull();
    source.failing = false;
    source.ids = ['c', 'b', 'a'];
    await list.refresh();
    expect(list.items.value).toEqual(['c', 'b', 'a']);
    expect(list.status.value).toBe('ended');
  });

  it('starts again from the first page when more came than a page holds, so nothing hides in a gap', async () => {
    const { source, list } = rows(2, 'b', 'a');
    await list.start();
    await list.nextPage();
    expect(list.status.value).toBe('ended');
    source.ids = ['e', 'd', 'c', 'b', 'a'];
    await list.refresh();
    expect(list.items.value).toEqual(['e', 'd']);
    expect(list.status.value).toBe('ready');
    await list.nextPage();
    await list.nextPage();
    expect(list.items.value).toEqual(['e', 'd', 'c', 'b', 'a']);
  });

  it('loads the first page when nothing is shown yet', async () => {
    const { source, list } = rows(2, 'b', 'a');
    await list.refresh();
    expect(list.items.value).toEqual(['b', 'a']);
    expect(source.asked).toEqual([0]);
  });
});

describe('the chat stream position', () => {
  it('does not move past a hole: a message ahead of a missing one waits until the hole is filled', () => {
    const position = createStreamPosition();
    position.saw(1);
    expect(position.through).toBeNull();
    position.start(3);
    position.saw(5);
    expect(position.through).toBe(3);
    position.saw(4);
    expect(position.through).toBe(5);
  });

  it('takes a mass message’s range at once, and the server’s word after a resume below what was asked', () => {
    const position = createStreamPosition();
    position.start(10);
    position.sawRange(11, 20);
    expect(position.through).toBe(20);
    position.sawRange(25, 26);
    expect(position.through).toBe(20);
    // Resumed up to 22 after 20: 21 and 22 are in, 25 and 26 still wait for 23 and 24.
    position.resumed(22, 20);
    expect(position.through).toBe(22);
    // A reset database: the stream restarts below the position asked after.
    position.resumed(4, 22);
    expect(position.through).toBe(4);
    position.reset();
    expect(position.through).toBeNull();
  });
});
