import { describe, expect, it } from 'vitest';
import {
  CHAT_TIME_GAP_MS,
  chatDraftProblem,
  chatFailureOf,
  chatPriceBadge,
  chatReactionOf,
  chatReactions,
  chatRecipientProblem,
  deliveryState,
  needsTimeGap,
  offersMessagePriceSetting,
  withTimeGaps,
  type ChatPerson,
} from '../../lib/sdk';

const min = 60_000;
const t0 = Date.UTC(2024, 2, 7, 12, 0, 0);

describe('chat time-gap markers', () => {
  it('are 15 minutes apart, as SPEC §9 says', () => {
    expect(CHAT_TIME_GAP_MS).toBe(15 * min);
  });

  it('date the first message shown', () => {
    expect(needsTimeGap(null, t0)).toBe(true);
  });

  it('separate messages 15 minutes or more apart, and not closer ones', () => {
    expect(needsTimeGap(t0, t0 + 14 * min + 59_999)).toBe(false);
    expect(needsTimeGap(t0, t0 + 15 * min)).toBe(true);
    expect(needsTimeGap(t0, t0 + 3 * 60 * min)).toBe(true);
  });

  it('do not appear when a clock ran behind', () => {
    expect(needsTimeGap(t0, t0 - 20 * min)).toBe(false);
  });

  it('go before the first message and before each message after a long pause', () => {
    const messages = [
      { id: 'a', sendDt: t0 },
      { id: 'b', sendDt: t0 + 2 * min },
      { id: 'c', sendDt: t0 + 20 * min },
      { id: 'd', sendDt: t0 + 21 * min },
    ];
    const rows = withTimeGaps(messages, (m) => m.id);
    expect(rows.map((row) => (row.kind === 'gap' ? `gap@${row.at - t0}` : row.message.id))).toEqual(['gap@0', 'a', 'b', `gap@${20 * min}`, 'c', 'd']);
  });

  it('keep their keys when older messages are loaded above them', () => {
    const newer = [
      { id: 'c', sendDt: t0 + 20 * min },
      { id: 'd', sendDt: t0 + 60 * min },
    ];
    const before = withTimeGaps(newer, (m) => m.id).map((row) => row.key);
    const after = withTimeGaps([{ id: 'a', sendDt: t0 }, ...newer], (m) => m.id).map((row) => row.key);
    expect(after.slice(-before.length)).toEqual(before);
  });

  it('measure a pause from the latest time seen, so an out-of-order stamp does not invent a gap', () => {
    const rows = withTimeGaps(
      [
        { id: 'a', sendDt: t0 + 30 * min },
        { id: 'b', sendDt: t0 + 10 * min },
        { id: 'c', sendDt: t0 + 31 * min },
      ],
      (m) => m.id,
    );
    expect(rows.filter((row) => row.kind === 'gap')).toHaveLength(1);
  });
});

describe('the read state of a sent message', () => {
  it('is a clock until the server stored it', () => {
    expect(deliveryState({ sendDt: t0, stored: false }, null)).toBe('sending');
  });

  it('is one check once stored, two when the partner read up to its time', () => {
    expect(deliveryState({ sendDt: t0, stored: true }, null)).toBe('sent');
    expect(deliveryState({ sendDt: t0, stored: true }, t0 - 1)).toBe('sent');
    expect(deliveryState({ sendDt: t0, stored: true }, t0)).toBe('read');
    expect(deliveryState({ sendDt: t0, stored: true }, t0 + 5 * min)).toBe('read');
  });

  it('is failed for a refused draft, whatever was read', () => {
    expect(deliveryState({ sendDt: t0, stored: false, failed: true }, t0 + min)).toBe('failed');
  });
});

describe('refused chat messages', () => {
  it('map to the failed draft states of SPEC §4', () => {
    expect(chatFailureOf('notAcceptedPrice')).toBe('not_delivered');
    expect(chatFailureOf('noCredit')).toBe('no_credit');
    expect(chatFailureOf('emailNotVerified')).toBe('waiting_for_email');
    expect(chatFailureOf('error')).toBe('not_delivered-general');
  });
});

describe('the chat price badge', () => {
  const fan: ChatPerson = { level: 1, isPartner: false, isSeller: false, badgeVerifiedState: 0 };
  const seller: ChatPerson = { ...fan, isSeller: true };
  const partner: ChatPerson = { ...fan, isPartner: true };
  const verified: ChatPerson = { ...fan, badgeVerifiedState: 3 };
  const support: ChatPerson = { ...fan, level: 100 };

  it('shows a fan the price of a partner, a seller or a verified creator', () => {
    expect(chatPriceBadge(fan, seller, false)).toBe('price');
    expect(chatPriceBadge(fan, partner, false)).toBe('price');
    expect(chatPriceBadge(fan, verified, false)).toBe('price');
  });

  it('lets a seller set the price of the conversation', () => {
    expect(chatPriceBadge(seller, fan, false)).toBe('seller');
  });

  it('shows nothing between two fans', () => {
    expect(chatPriceBadge(fan, fan, false)).toBeNull();
  });

  it('never shows in a support chat', () => {
    expect(chatPriceBadge(fan, seller, true)).toBeNull();
    expect(chatPriceBadge(fan, support, false)).toBeNull();
    expect(chatPriceBadge({ ...seller, level: 100 }, fan, false)).toBeNull();
  });

  it('is offered as a message price setting in the aside to gender 2 profiles only', () => {
    expect(offersMessagePriceSetting({ gender: 2 })).toBe(true);
    expect(offersMessagePriceSetting({ gender: 1 })).toBe(false);
    expect(offersMessagePriceSetting(null)).toBe(false);
  });
});

describe('chat validation', () => {
  it('refuses a chat with oneself and a receiver id that is not above 0', () => {
    expect(chatRecipientProblem(7, 7)).toBe('self');
    expect(chatRecipientProblem(7, 0)).toBe('no-recipient');
    expect(chatRecipientProblem(7, -3)).toBe('no-recipient');
    expect(chatRecipientProblem(7, 8)).toBeNull();
    expect(chatRecipientProblem(null, 8)).toBeNull();
  });

  it('needs text, a media or a gift, and text within the limit', () => {
    expect(chatDraftProblem({ text: '   ' })).toBe('empty');
    expect(chatDraftProblem({})).toBe('empty');
    expect(chatDraftProblem({ text: 'hi' })).toBeNull();
    expect(chatDraftProblem({ mediaId: 4 })).toBeNull();
    expect(chatDraftProblem({ giftId: 2 })).toBeNull();
    expect(chatDraftProblem({ text: 'x'.repeat(2000) })).toBeNull();
    expect(chatDraftProblem({ text: 'x'.repeat(2001) })).toBe('too-long');
  });
});

describe('chat reactions', () => {
  it('have distinct ids and names, and are found by id', () => {
    expect(new Set(chatReactions.map((r) => r.id)).size).toBe(chatReactions.length);
    expect(new Set(chatReactions.map((r) => r.name)).size).toBe(chatReactions.length);
    expect(chatReactionOf(1)?.name).toBe('love');
    expect(chatReactionOf(null)).toBeNull();
    expect(chatReactionOf(999)).toBeNull();
  });
});
