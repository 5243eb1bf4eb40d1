import { Type, type Static } from 'typebox';

export const MediaType = Type.Union([Type.Literal('image'), Type.Literal('video'), Type.Literal('voice')]);
export type MediaType = Static<typeof MediaType>;

/** What an upload is for; decides the price steps that apply (post-media or chat-media). */
export const MediaPurpose = Type.Union([Type.Literal('post'), Type.Literal('chat')]);
export type MediaPurpose = Static<typeof MediaPurpose>;

/**
 * A media as a viewer sees it (SPEC §3 Media). Locked when `mediaPrice > 0` and
 * `mediaUnlockHash` is null: then only the `blur` (and `og`) variants load, and the original
 * answers 403 without a valid unlock key. Owners and fans who unlocked it get the key.
 * A voice note (`voice`, chat only, served as AAC in M4A) has no variants: locked, only its
 * `mediaDuration` shows.
 */
export const MediaView = Type.Object(
  {
    mediaId: Type.Integer(),
    mediaHash: Type.String(),
    format: Type.String(),
    /** The `k` query of the original's address; null while locked for this viewer. */
    mediaUnlockHash: Type.Union([Type.String(), Type.Null()]),
    mediaStatus: Type.Integer(),
    mediaType: MediaType,
    /** Stored price in cents (a price step); the fan pays it × salt / 10000. */
    mediaPrice: Type.Integer({ minimum: 0 }),
    mediaIsOwner: Type.Boolean(),
    /** width / height. */
    mediaAspectRatio: Type.Number(),
    mediaDominantColor: Type.String(),
    mediaFilter: Type.Union([Type.String(), Type.Null()]),
    /** Seconds, for video and voice. */
    mediaDuration: Type.Union([Type.Number(), Type.Null()]),
    /** What the media earned its owner, in cents; 0 for everyone else. */
    earnedCents: Type.Integer({ minimum: 0 }),
    nsfw: Type.Integer(),
    /** Why processing refused it, with status 4. */
    rejectReason: Type.Optional(Type.Union([Type.Literal('wrong_media_type'), Type.Literal('format'), Type.Literal('tooLong'), Type.Literal('lowRes')])),
  },
  { $id: 'MediaView' },
);
export type MediaView = Static<typeof MediaView>;

/** Answer of `POST /api/media/binary`. */
export const UploadedBinary = Type.Object({ fileName: Type.String() });
export type UploadedBinary = Static<typeof UploadedBinary>;

/** `POST /api/media`: turn uploaded files into media (processed synchronously, status 3 or 4). */
export const CreateMediaBody = Type.Object({
  fileNames: Type.Array(Type.String({ minLength: 1, maxLength: 64 }), { minItems: 1, maxItems: 10 }),
  /** Cents; must be a step of the purpose's price list; above 0 needs a seller. */
  price: Type.Optional(Type.Integer({ minimum: 0, maximum: 1_000_000 })),
  purpose: Type.Optional(MediaPurpose),
  /** What the client believes the file is; the server trusts the bytes. */
  mediaType: Type.Optional(MediaType),
  /** The browser could not play the video, so it was not measured on the client (SPEC §4). */
  unsupported: Type.Optional(Type.Boolean()),
});
export type CreateMediaBody = Static<typeof CreateMediaBody>;

/** `PUT /api/media/{id}`: the owner changes the price or the filter. */
export const UpdateMediaBody = Type.Object({
  price: Type.Optional(Type.Integer({ minimum: 0, maximum: 1_000_000 })),
  filter: Type.Optional(Type.Union([Type.String({ maxLength: 32 }), Type.Null()])),
});
export type UpdateMediaBody = Static<typeof UpdateMediaBody>;

export const MediaIdParams = Type.Object({ id: Type.Integer({ minimum: 1, maximum: 2_147_483_647 }) });
export type MediaIdParams = Static<typeof MediaIdParams>;

export { MediaStatus, MediaVariants, UploadProblems, type MediaVariant, type UploadProblem } from './constants';
