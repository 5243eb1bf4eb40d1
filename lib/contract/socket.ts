import { Type, type Static, type TSchema } from 'typebox';
import { Int, Int32 } from './bounds';
import { MassGroups } from './constants';
import type { ClientMessage } from './realtime';
import { ClientEvents } from './realtime';
import { CALL_ID_PATTERN, ServerOnlyCallTypes } from './rules/calls';

/**
 * The websocket's client messages as TypeBox schemas (docs/realtime.md "Messages"), beside the
 * HTTP ones: the server compiles them once and checks every client message against the schema
 * of its `type` before any feature sees it (server/src/realtime/checks.ts); a message that fails
 * is answered `invalid-request` and reaches no handler. The plain types the browser sends with
 * are `ClientMessage` in lib/contract/realtime.ts; the checks at the end of this file keep the
 * two in step (whatever the type lets a client send, its schema accepts).
 *
 * Fields a message may leave out may also be `null`, as clients have always sent them. Unknown
 * fields are let through and ignored. What needs more than a shape stays with the feature: a
 * chat text's length in characters (`message-too-long`), a message with neither text, media
 * nor gift, a call message to oneself (`cannot-target-self`), the billing call types a client
 * may not send (`forbidden`).
 */

const Id = Int({ minimum: 1 });
const Optional = <T extends TSchema>(schema: T) => Type.Optional(Type.Union([schema, Type.Null()]));

/** A draft's id, chosen by the client: 1–64 letters, digits, `_`, `-`, `.` or `:` (a UUID fits). */
export const MSG_ID_PATTERN = '^[A-Za-z0-9_.:-]{1,64}$';
const MsgId = Type.String({ pattern: MSG_ID_PATTERN });
/** The id of a spend request the fan confirmed (docs/spending.md). */
export const CONFIRMATION_PATTERN = '^[A-Za-z0-9_-]{16,32}$';
const Confirmation = Type.String({ pattern: CONFIRMATION_PATTERN });
/** The highest reaction number: reactions are the client's own small catalogue. */
export const MAX_REACTION_ID = 1_000;

export const PingIn = Type.Object({ type: Type.Literal('ping'), ts: Type.Optional(Type.Number()) });
export const PongIn = Type.Object({ type: Type.Literal('pong'), ts: Type.Optional(Type.Number()) });
export const EventMessageIn = Type.Object({ type: Type.Literal('eventMessage'), event: Type.Enum(ClientEvents), userId: Id });
export const NotificationsReadIn = Type.Object({ type: Type.Literal('notificationsRead') });

export const ChatMessageIn = Type.Object({
  type: Type.Literal('chatMessage'),
  msgId: MsgId,
  receiverId: Id,
  text: Optional(Type.String()),
  mediaId: Optional(Id),
  giftId: Optional(Id),
  /** The conversation price (cents) the sender saw and accepts. */
  price: Optional(Int({ minimum: 0 })),
  confirmation: Optional(Confirmation),
});
export const MassChatMessageIn = Type.Object({
  type: Type.Literal('massChatMessage'),
  msgId: MsgId,
  /** The sender's own id, when sent (any other is `forbidden`). */
  senderId: Optional(Int()),
  recGroup: Type.Enum(MassGroups),
  text: Optional(Type.String()),
  mediaId: Optional(Id),
});
export const ChatReactionIn = Type.Object({
  type: Type.Literal('chatReaction'),
  messageId: Id,
  /** A reaction number, or null (or left out) to take one's reaction back. */
  reactionId: Optional(Int({ minimum: 1, maximum: MAX_REACTION_ID })),
});
export const ChatConvReadIn = Type.Object({ type: Type.Literal('chatConvRead'), userId: Id });
/** A position in the user's chat stream (int4 in the database); 0 asks from the start. */
export const ResumeIn = Type.Object({ type: Type.Literal('resume'), after: Type.Integer({ minimum: 0, maximum: Int32.max }) });
export const ProfileVisitIn = Type.Object({
  type: Type.Literal('profileVisit'),
  profileUserId: Id,
  /** Ignored: the visitor is the socket's user. */
  userId: Optional(Int()),
});
export const NewPostIn = Type.Object({ type: Type.Literal('newPost'), postId: Id });

/** The bodies a client's call messages carry, by `callMessageType` (`CallMessageBodies` in lib/contract/calls.ts is both directions). */
export const ClientCallBodies = {
  /** The server builds the offer's, the stop's and a frame's bodies itself: whatever a client put in them is dropped. */
  preOffer: Type.Object({}),
  preAnswer: Type.Object({ accept: Type.Boolean() }),
  callStop: Type.Object({}),
  /** simple-peer's signal data (an SDP offer or answer, or a candidate), relayed as it is. */
  rtcOffer: Type.Object({ signal: Type.Union([Type.String(), Type.Object({}), Type.Array(Type.Unknown())]) }),
  iceCandidate: Type.Object({ signal: Type.Union([Type.String(), Type.Object({}), Type.Array(Type.Unknown())]) }),
  chatMessage: Type.Object({ text: Type.String({ minLength: 1 }) }),
  giftMessage: Type.Object({ giftId: Id }),
  remoteStream: Type.Object({ audio: Type.Boolean(), video: Type.Boolean() }),
  viewFrame: Type.Object({}),
} as const;
export type ClientCallBody<T extends keyof typeof ClientCallBodies> = Static<(typeof ClientCallBodies)[T]>;

const callFields = {
  type: Type.Literal('callMessage'),
  callId: Type.String({ pattern: CALL_ID_PATTERN }),
  receiverId: Id,
  /** A paid `preOffer` from a partner site: the spend request the fan confirmed. */
  confirmation: Optional(Confirmation),
};
/** A body that may be left out (or null) when its type carries nothing the client must say. */
const emptyBody = new Set(['preOffer', 'callStop', 'viewFrame']);

/**
 * A client `callMessage`: one shape per call type a client may send, with the body of that type.
 * The billing types (`ServerOnlyCallTypes`) pass the shape with any body, so the calls feature
 * can answer them `forbidden` as it always has.
 */
export const CallMessageIn = Type.Union([
  ...Object.entries(ClientCallBodies).map(([callMessageType, body]) =>
    Type.Object({
      ...callFields,
      callMessageType: Type.Literal(callMessageType),
      callMessageBody: emptyBody.has(callMessageType) ? Optional(body) : body,
    }),
  ),
  Type.Object({ ...callFields, callMessageType: Type.Enum(ServerOnlyCallTypes), callMessageBody: Type.Optional(Type.Unknown()) }),
]);

/** Every client message type and its schema: the realtime layer checks each message against the one of its type. */
export const ClientMessageSchemas = {
  ping: PingIn,
  pong: PongIn,
  eventMessage: EventMessageIn,
  notificationsRead: NotificationsReadIn,
  chatMessage: ChatMessageIn,
  massChatMessage: MassChatMessageIn,
  chatReaction: ChatReactionIn,
  chatConvRead: ChatConvReadIn,
  resume: ResumeIn,
  profileVisit: ProfileVisitIn,
  newPost: NewPostIn,
  callMessage: CallMessageIn,
} as const satisfies { [T in ClientMessage['type']]: TSchema };

export type ClientMessageSchemas = typeof ClientMessageSchemas;
/** A client message of `type` as its schema passed it. */
export type CheckedClientMessage<T extends keyof ClientMessageSchemas> = Static<ClientMessageSchemas[T]>;

// Whatever `ClientMessage` lets the SDK send, its schema accepts (call messages aside: their body is typed per call type here).
type Accepts<T extends Exclude<ClientMessage['type'], 'callMessage'>> = Extract<ClientMessage, { type: T }> extends CheckedClientMessage<T> ? true : never;
const _inStep: { [T in Exclude<ClientMessage['type'], 'callMessage'>]: Accepts<T> } = {
  ping: true,
  pong: true,
  eventMessage: true,
  notificationsRead: true,
  chatMessage: true,
  massChatMessage: true,
  chatReaction: true,
  chatConvRead: true,
  resume: true,
  profileVisit: true,
  newPost: true,
};
void _inStep;
