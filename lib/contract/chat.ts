import { Type, type Static } from 'typebox';
import { MediaView } from './media';
import { PublicProfile } from './users';
import { MassGroups } from './constants';
import { Int, Timestamp } from './bounds';
import { CallEndReasons } from './calls';

/**
 * Paid chat (SPEC §3 Conversation and Chat message, §4 failed message states and read state,
 * §7 Chat). Messages travel over the websocket (lib/contract/realtime.ts); the history, the
 * conversation list and the per-conversation settings are HTTP.
 *
 * Prices are stored cents (one credit of the price steps is one cent): a message to a seller
 * costs the fan `price × salt / 10000` (rules/price.ts `fanPriceCents`), the seller earns
 * `price`. A conversation's price is its `customPrice` when the seller set one, else the
 * seller's `messagePrice`; support conversations (level 100 on either side) are free.
 */

/** A chat media as the viewer sees it: a `MediaView` plus whether the viewer may see the original. */
export const ChatMedia = Type.Object({
  ...MediaView.properties,
  /** True for the sender, for a free media, and once the receiver unlocked it. */
  mediaUnlocked: Type.Boolean(),
});
export type ChatMedia = Static<typeof ChatMedia>;

/**
 * The states of a call that leave an entry in the pair's chat history (docs/calls.md "In the
 * chat"): a call that was live and ended, a missed one, a declined one, a cancelled one. A
 * call refused at once (busy, no credit) rang nobody and leaves none.
 */
export const ChatCallStates = ['ended', 'missed', 'declined', 'cancelled'] as const;
export type ChatCallState = (typeof ChatCallStates)[number];

/**
 * A call entry as its viewer sees it: the message is then no bubble but a line of the history
 * ("Video call · 3:02 · $4.80"). The message's sender is the caller, its receiver the callee.
 * Serialised per viewer, as `seq` is: `amount` is what the call cost the caller (credits) or
 * earned the callee (cents).
 */
export const ChatCall = Type.Object({
  callId: Type.String(),
  state: Type.Enum(ChatCallStates),
  endReason: Type.Union([Type.Enum(CallEndReasons), Type.Null()]),
  /** How long the call was live (0 when it never was). */
  seconds: Type.Integer({ minimum: 0 }),
  /** Minutes billed (for a free call, the minutes it lasted). */
  minutes: Type.Integer({ minimum: 0 }),
  /** The caller's cost in credits, or the callee's earnings in cents; 0 when free or never live. */
  amount: Type.Integer({ minimum: 0 }),
});
export type ChatCall = Static<typeof ChatCall>;

/**
 * One stored chat message (SPEC §3 Chat message). `id` is the server's order (ascending over
 * the whole platform); `msgId` is the sender's own id, unique per sender, which makes a resend
 * harmless.
 */
export const ChatMessage = Type.Object(
  {
    id: Type.Integer(),
    msgId: Type.String(),
    text: Type.String(),
    senderId: Type.Integer(),
    receiverId: Type.Integer(),
    /** Epoch ms the server stored it. */
    sendDt: Type.Integer(),
    /** Stored cents the message cost its sender (0 when free); the sender paid it with the salt. */
    price: Type.Integer({ minimum: 0 }),
    giftId: Type.Union([Type.Integer(), Type.Null()]),
    mediaId: Type.Union([Type.Integer(), Type.Null()]),
    media: Type.Union([ChatMedia, Type.Null()]),
    /** 1 while the message is marked suspected (24 h after it was sent), else 0. */
    suspectedState: Type.Integer({ minimum: 0, maximum: 1 }),
    senderReactionId: Type.Union([Type.Integer(), Type.Null()]),
    receiverReactionId: Type.Union([Type.Integer(), Type.Null()]),
    /** The mass message it was sent as, if any. */
    massId: Type.Union([Type.Integer(), Type.Null()]),
    /**
     * Its position in the viewer's chat stream (docs/realtime.md "Resume"): every message the
     * viewer sent or received has one, 1, 2, 3, … without gaps; `resume` continues after it.
     */
    seq: Type.Optional(Type.Integer({ minimum: 1 })),
    /** Set on a call entry only: the call it tells of, as the viewer sees it. Such a message is free and has no text. */
    call: Type.Optional(ChatCall),
  },
  // No $id: a conversation holds two messages (the last one and the last one reacted to), and
  // Fastify refuses a response schema in which one $id names two places.
);
export type ChatMessage = Static<typeof ChatMessage>;

/** One conversation as the viewer sees it; `sender` is the other person. */
export const Conversation = Type.Object(
  {
    /** The other person's user id: one conversation per pair, addressed by the partner. */
    id: Type.Integer(),
    sender: PublicProfile,
    /** Messages from the other person the viewer has not read. */
    unreadCount: Type.Integer({ minimum: 0 }),
    /** Cents the viewer earned from this conversation's paid messages and media. */
    sumPrice: Type.Integer({ minimum: 0 }),
    /** The message price (cents) the viewer last accepted when writing to a seller; 0 before. */
    agreedPrice: Type.Integer({ minimum: 0 }),
    /** The seller's price for this conversation only (cents), or null for their usual price. */
    customPrice: Type.Union([Type.Integer({ minimum: 0 }), Type.Null()]),
    /** What one message from the viewer costs now (cents, before the salt); 0 when free. */
    price: Type.Integer({ minimum: 0 }),
    /** A support conversation: free, no price badge. */
    isSupport: Type.Boolean(),
    lastMessage: Type.Union([ChatMessage, Type.Null()]),
    /** Epoch ms the other person last read the conversation (double check when after `sendDt`). */
    lastReadDate: Type.Union([Type.Integer(), Type.Null()]),
    /** Epoch ms of the latest suspected message, while its 24 h run. */
    lastSuspectedMessageDate: Type.Union([Type.Integer(), Type.Null()]),
    /** The latest message of the viewer's that the other person reacted to, unseen by the viewer. */
    lastReactionMessage: Type.Union([ChatMessage, Type.Null()]),
    archived: Type.Boolean(),
  },
  { $id: 'Conversation' },
);
export type Conversation = Static<typeof Conversation>;

/** `GET /api/chat/conversations?limit&offset&q` or `?senderId`: 30 a page, newest activity first. */
export const ConversationsQuery = Type.Object({
  limit: Type.Optional(Int({ minimum: 1, maximum: 50 })),
  offset: Type.Optional(Int({ minimum: 0, maximum: 100_000 })),
  /** Matches the partner's username or display name. */
  q: Type.Optional(Type.String({ maxLength: 64 })),
  /** Just the conversation with this user (a fresh, empty one when none exists yet). */
  senderId: Type.Optional(Int({ minimum: 1 })),
  /** Include archived conversations. */
  archived: Type.Optional(Type.Boolean()),
});
export type ConversationsQuery = Static<typeof ConversationsQuery>;

export const ConversationList = Type.Object({ conversations: Type.Array(Conversation) });
export type ConversationList = Static<typeof ConversationList>;

/** `GET /api/chat/conversations/{userId}?limit=30&ts`: older messages before `ts` (sendDt, exclusive). */
export const ChatHistoryParams = Type.Object({ userId: Int({ minimum: 1 }) });
export const ChatHistoryQuery = Type.Object({
  limit: Type.Optional(Int({ minimum: 1, maximum: 100 })),
  ts: Type.Optional(Timestamp()),
});
export type ChatHistoryQuery = Static<typeof ChatHistoryQuery>;

/** A page of history, oldest first; fewer than `limit` messages means the start was reached. */
export const ChatHistory = Type.Object({
  conversation: Conversation,
  messages: Type.Array(ChatMessage),
});
export type ChatHistory = Static<typeof ChatHistory>;

/** `PUT /api/chat/conversations/`: a seller prices one fan's conversation (a chat-message step, or null). */
export const ConversationPriceBody = Type.Object({
  senderId: Int({ minimum: 1 }),
  customPrice: Type.Union([Int({ minimum: 0 }), Type.Null()]),
});
export type ConversationPriceBody = Static<typeof ConversationPriceBody>;

/** `DELETE /api/chat/conversations/{id}`: archive (hidden until the next message). */
export const ConversationIdParams = Type.Object({ id: Int({ minimum: 1 }) });

/** `GET /api/chat/conversations-media/?receiverId&offset`: media exchanged with a person, 30 a page. */
export const ConversationMediaQuery = Type.Object({
  receiverId: Int({ minimum: 1 }),
  offset: Type.Optional(Int({ minimum: 0, maximum: 100_000 })),
  limit: Type.Optional(Int({ minimum: 1, maximum: 50 })),
});
export const ConversationMediaList = Type.Object({ messages: Type.Array(ChatMessage) });
export type ConversationMediaList = Static<typeof ConversationMediaList>;

export const MassGroup = Type.Enum(MassGroups);
export type MassGroup = Static<typeof MassGroup>;

/** A mass message as its sender sees it. */
export const MassMessage = Type.Object(
  {
    id: Type.Integer(),
    msgId: Type.String(),
    recGroup: MassGroup,
    text: Type.String(),
    media: Type.Union([ChatMedia, Type.Null()]),
    sendDt: Type.Integer(),
    /** How many people it was delivered to. */
    recipientsCount: Type.Integer({ minimum: 0 }),
    /** How many of them unlocked its priced media (0 without one). */
    unlocksCount: Type.Integer({ minimum: 0 }),
  },
  { $id: 'MassMessage' },
);
export type MassMessage = Static<typeof MassMessage>;

/** `GET /api/chat/mass-conversations`: one row per group with its latest mass message. */
export const MassConversation = Type.Object({
  recGroup: MassGroup,
  /** How many people the group holds now. */
  membersCount: Type.Integer({ minimum: 0 }),
  lastMessage: Type.Union([MassMessage, Type.Null()]),
});
export type MassConversation = Static<typeof MassConversation>;
export const MassConversationList = Type.Object({ groups: Type.Array(MassConversation) });
export type MassConversationList = Static<typeof MassConversationList>;

/** `GET /api/chat/mass-conversations/{id}?limit=30&ts`: the mass messages sent to group `id`, oldest first. */
export const MassConversationParams = Type.Object({ id: MassGroup });
export const MassHistory = Type.Object({ messages: Type.Array(MassMessage) });
export type MassHistory = Static<typeof MassHistory>;

export { MassGroups, SuspectedState } from './constants';
