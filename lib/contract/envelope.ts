import { Type, type Static, type TSchema } from 'typebox';

/**
 * Every answer of the API is wrapped in this envelope (SPEC §7):
 *  1  ok, no body
 *  2  ok, with body
 * -1  failure, `statusText` holds a message key of the error catalogue
 * -2  verification needed (a seller-only field was sent by a non-seller)
 * Other negative codes are call-specific (signup answers -5 for a taken username).
 */
export const StatusCode = {
  ok: 1,
  okWithBody: 2,
  failure: -1,
  verificationNeeded: -2,
} as const;

export const ErrorEnvelope = Type.Object(
  {
    statusCode: Type.Integer({ maximum: -1 }),
    statusText: Type.String({ description: 'A message key of the error catalogue (SPEC §8).' }),
    body: Type.Optional(Type.Unknown()),
  },
  { $id: 'ErrorEnvelope' },
);
export type ErrorEnvelope = Static<typeof ErrorEnvelope>;

export const OkEnvelope = Type.Object({ statusCode: Type.Literal(1) });
export type OkEnvelope = Static<typeof OkEnvelope>;

/** The success envelope around a body of the given schema. */
export function BodyEnvelope<T extends TSchema>(body: T) {
  return Type.Object({ statusCode: Type.Literal(2), body });
}

export interface Envelope<T = unknown> {
  statusCode: number;
  statusText?: string;
  body?: T;
}
