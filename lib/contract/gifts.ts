import { Type, type Static } from 'typebox';

export const Gift = Type.Object(
  {
    id: Type.Integer(),
    name: Type.String(),
    /** File name of the gift's picture under `${mediaCDN}/gifts/`. */
    imageName: Type.String(),
    /** Credits the sender pays. */
    gValue: Type.Integer({ minimum: 0 }),
    /** Cents the receiver earns. */
    cValue: Type.Integer({ minimum: 0 }),
  },
  { $id: 'Gift' },
);
export type Gift = Static<typeof Gift>;

export const GiftList = Type.Array(Gift);
export type GiftList = Static<typeof GiftList>;
