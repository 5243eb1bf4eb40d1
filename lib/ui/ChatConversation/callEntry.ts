import type { TFunction } from 'i18next';
import { formatDuration, type ChatCall } from '../../sdk';
import { formatMoney } from '../shared/money';

/** What a call entry looks like: its line of text and which icon goes with it. */
export interface CallEntryText {
  text: string;
  /** `missed` for a call the viewer did not answer, `ended` for one that was talked, else `other`. */
  tone: 'ended' | 'missed' | 'other';
}

/**
 * The short text of a call entry as its viewer reads it, in the conversation and as the
 * conversation list's preview (docs/calls.md "In the chat"): "Video call · 3:02 · $4.80" for the
 * fan who paid, "Video call · 3:02 · earned $3.84" for the creator, "Missed video call" for the
 * one who was called and did not answer. `outgoing`: the viewer made the call.
 */
export function callEntryText(t: TFunction, call: ChatCall, outgoing: boolean): CallEntryText {
  switch (call.state) {
    case 'ended': {
      const duration = formatDuration(call.seconds);
      if (call.amount <= 0) return { text: t('chat.call.ended', { duration }), tone: 'ended' };
      const amount = formatMoney(call.amount);
      return { text: outgoing ? t('chat.call.endedCost', { duration, amount }) : t('chat.call.endedEarned', { duration, amount }), tone: 'ended' };
    }
    case 'missed':
      return outgoing ? { text: t('chat.call.noAnswer'), tone: 'other' } : { text: t('chat.call.missed'), tone: 'missed' };
    case 'declined':
      return { text: t('chat.call.declined'), tone: 'other' };
    case 'cancelled':
      return { text: t('chat.call.cancelled'), tone: 'other' };
  }
}
