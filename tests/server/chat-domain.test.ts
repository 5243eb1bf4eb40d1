import { describe, expect, it } from 'vitest';
import { ChatLimits } from '../../lib/contract/constants';
import {
  acceptsPrice,
  conversationPrice,
  customPriceProblem,
  isMsgId,
  isStaff,
  isSuspected,
  looksOffPlatform,
  normaliseChatText,
  parseChatMessage,
  parseMassMessage,
  parseReaction,
  parseResume,
  parseUserField,
  suspectedStateAt,
  suspectedUntil,
} from '../../server/src/features/chat/domain';

const fan = { level: 0, isSeller: false, messagePrice: 0 };
const seller = { level: 0, isSeller: true, messagePrice: 48 };
const support = { level: 100, isSeller: false, messagePrice: 0 };
const admin = { level: 500, isSeller: true, messagePrice: 95 };

describe('the price of a message', () => {
  it('is the receiving seller’s custom price for the sender, else their message price', () => {
    expect(conversationPrice(fan, seller, null)).toBe(48);
    expect(conversationPrice(fan, seller, 13)).toBe(13);
    expect(conversationPrice(fan, seller, 0)).toBe(0);
    expect(conversationPrice(seller, { ...seller, messagePrice: 32 }, null)).toBe(32);
  });

  it('is free to a non-seller (a seller writing to a fan) and whenever staff is on either side', () => {
    expect(conversationPrice(seller, fan, null)).toBe(0);
    expect(conversationPrice(fan, fan, 64)).toBe(0);
    expect(conversationPrice(support, seller, 64)).toBe(0);
    expect(conversationPrice(seller, admin, null)).toBe(0);
    expect(isStaff(100)).toBe(true);
    expect(isStaff(3)).toBe(false);
  });

  it('is accepted when the sender accepted at least as much; no price accepts only free', () => {
    expect(acceptsPrice(0, undefined)).toBe(true);
    expect(acceptsPrice(16, undefined)).toBe(false);
    expect(acceptsPrice(16, 16)).toBe(true);
    expect(acceptsPrice(64, 16)).toBe(false);
    expect(acceptsPrice(13, 128)).toBe(true);
  });

  it('a custom price needs a seller and a chat-message step, or null', () => {
    expect(customPriceProblem(false, 13)).toBe('verify-required');
    expect(customPriceProblem(false, null)).toBe('verify-required');
    expect(customPriceProblem(true, 14)).toBe('invalid-price');
    expect(customPriceProblem(true, 32)).toBeNull();
    expect(customPriceProblem(true, 0)).toBeNull();
    expect(customPriceProblem(true, null)).toBeNull();
  });
});

describe('the suspected rule', () => {
  it('finds e-mail addresses, phone numbers and links', () => {
    for (const text of ['mail me: anna.b+x@mail.example.cz', 'call +420 777 123 456', 'my number 777-123-456', '(602) 123 4567', 'https://example.org/me', 'www.example.com', 'find me on onlyme.com']) {
      expect(looksOffPlatform(text), text).toBe(true);
    }
    for (const text of ['call me on 777123456', 'whatsapp +4917612345678', '+1 (555) 010-4477']) {
      expect(looksOffPlatform(text), text).toBe(true);
    }
    // Long numbers that are not phone numbers: amounts, counts, order and card numbers.
    for (const text of [
      'see you at 8:30',
      'I paid 1 500 credits',
      'lol.',
      'e.g. tomorrow',
      '12 34 56',
      'version 2.0',
      'my video got 1000000 views',
      '1 000 000 fans one day!',
      'that is 2.500.000 Kč',
      'order 12345678901234567890',
      'ticket 4821937',
      'card 4242 4242 4242 4242 was declined',
    ]) {
      expect(looksOffPlatform(text), text).toBe(false);
    }
  });

  it('applies where a seller is involved and no staff', () => {
    expect(isSuspected('me@example.com', fan, seller)).toBe(true);
    expect(isSuspected('me@example.com', seller, fan)).toBe(true);
    expect(isSuspected('me@example.com', fan, fan)).toBe(false);
    expect(isSuspected('me@example.com', support, seller)).toBe(false);
    expect(isSuspected('hello', fan, seller)).toBe(false);
  });

  it('lasts 24 hours from the message', () => {
    const sent = Date.UTC(2026, 0, 1);
    expect(suspectedUntil(sent)).toBe(sent + ChatLimits.suspectedMs);
    const until = new Date(suspectedUntil(sent));
    expect(suspectedStateAt(until, sent + 1_000)).toBe(1);
    expect(suspectedStateAt(until, until.getTime())).toBe(0);
    expect(suspectedStateAt(null, sent)).toBe(0);
  });
});

describe('client messages', () => {
  it('a msgId is a short token without a slash', () => {
    expect(isMsgId('0b8f2c8e-93a1-4f57-8a3e-2f7c1d2e9a10')).toBe(true);
    expect(isMsgId('a1b2c3')).toBe(true);
    expect(isMsgId('')).toBe(false);
    expect(isMsgId('a/b')).toBe(false);
    expect(isMsgId('x'.repeat(65))).toBe(false);
    expect(isMsgId(12)).toBe(false);
  });

  it('a chatMessage needs a msgId, a receiver and something to send', () => {
    expect(parseChatMessage({ msgId: 'm1', receiverId: 5, text: ' hi\r\n ' })).toEqual({
      value: { msgId: 'm1', receiverId: 5, text: 'hi', mediaId: null, giftId: null, price: undefined, confirmation: null },
    });
    expect(parseChatMessage({ msgId: 'm1', receiverId: 5, mediaId: 9, price: 16 })).toEqual({ value: { msgId: 'm1', receiverId: 5, text: '', mediaId: 9, giftId: null, price: 16, confirmation: null } });
    // A widget's paid message sent again with the spend request the fan confirmed (docs/spending.md).
    expect(parseChatMessage({ msgId: 'm1', receiverId: 5, text: 'x', price: 16, confirmation: 'pS3kq2Lr8vXw1YbN0aZc7Q' })).toMatchObject({ value: { confirmation: 'pS3kq2Lr8vXw1YbN0aZc7Q' } });
    expect(parseChatMessage({ msgId: 'm1', receiverId: 5, text: 'x', confirmation: 'not one/of ours' })).toEqual({ problem: 'invalid-request', field: 'confirmation' });
    expect(parseChatMessage({ msgId: 'm1', receiverId: 5, giftId: 2, text: null })).toMatchObject({ value: { giftId: 2, text: '' } });
    expect(parseChatMessage({ msgId: 'm1', receiverId: 5 })).toEqual({ problem: 'invalid-request', field: 'text' });
    expect(parseChatMessage({ msgId: 'm1', receiverId: 0, text: 'x' })).toEqual({ problem: 'invalid-request', field: 'receiverId' });
    expect(parseChatMessage({ receiverId: 5, text: 'x' })).toEqual({ problem: 'invalid-request', field: 'msgId' });
    expect(parseChatMessage({ msgId: 'm1', receiverId: 5, text: 'x', price: 1.5 })).toEqual({ problem: 'invalid-request', field: 'price' });
    expect(parseChatMessage({ msgId: 'm1', receiverId: 5, text: 'x', mediaId: '3' })).toEqual({ problem: 'invalid-request', field: 'mediaId' });
    expect(parseChatMessage({ msgId: 'm1', receiverId: 5, text: 'é'.repeat(ChatLimits.maxTextLength) })).toHaveProperty('value');
    expect(parseChatMessage({ msgId: 'm1', receiverId: 5, text: 'é'.repeat(ChatLimits.maxTextLength + 1) })).toEqual({ problem: 'message-too-long', field: 'text' });
  });

  it('a massChatMessage names a known group and, if anyone, its own sender', () => {
    expect(parseMassMessage({ msgId: 'm', recGroup: 'followers', text: 'hi all' }, 7)).toEqual({ value: { msgId: 'm', recGroup: 'followers', text: 'hi all', mediaId: null } });
    expect(parseMassMessage({ msgId: 'm', senderId: 7, recGroup: 'expired-subscribers', mediaId: 3 }, 7)).toMatchObject({ value: { recGroup: 'expired-subscribers', mediaId: 3 } });
    expect(parseMassMessage({ msgId: 'm', senderId: 8, recGroup: 'followers', text: 'x' }, 7)).toEqual({ problem: 'forbidden', field: 'senderId' });
    expect(parseMassMessage({ msgId: 'm', recGroup: 'everyone', text: 'x' }, 7)).toEqual({ problem: 'invalid-request', field: 'recGroup' });
    expect(parseMassMessage({ msgId: 'm', recGroup: 'followers', text: '' }, 7)).toEqual({ problem: 'invalid-request', field: 'text' });
  });

  it('reactions, reads and resumes', () => {
    expect(parseReaction({ messageId: 4, reactionId: 2 })).toEqual({ value: { messageId: 4, reactionId: 2 } });
    expect(parseReaction({ messageId: 4, reactionId: null })).toEqual({ value: { messageId: 4, reactionId: null } });
    expect(parseReaction({ messageId: 4, reactionId: 0 })).toEqual({ problem: 'invalid-request', field: 'reactionId' });
    expect(parseReaction({ messageId: -1, reactionId: 1 })).toEqual({ problem: 'invalid-request', field: 'messageId' });
    expect(parseUserField({ userId: 3 }, 'userId')).toEqual({ value: 3 });
    expect(parseUserField({ userId: '3' }, 'userId')).toEqual({ problem: 'invalid-request', field: 'userId' });
    expect(parseResume({ after: 0 })).toEqual({ value: 0 });
    expect(parseResume({ after: 120 })).toEqual({ value: 120 });
    expect(parseResume({ after: -1 })).toEqual({ problem: 'invalid-request', field: 'after' });
    expect(parseResume({ after: 2 ** 31 })).toEqual({ problem: 'invalid-request', field: 'after' });
    // The older protocol's cursor (a message id) is not a position: refused, not read as 0.
    expect(parseResume({})).toEqual({ problem: 'invalid-request', field: 'after' });
    expect(parseResume({ afterId: 120 })).toEqual({ problem: 'invalid-request', field: 'after' });
  });

  it('text is stored trimmed with one kind of line end', () => {
    expect(normaliseChatText('  a\r\nb\rc  ')).toBe('a\nb\nc');
  });
});
