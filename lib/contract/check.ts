import { Type, type Static } from 'typebox';

/** POST /papi/check/username: is this username free to register? */
export const CheckUsernameBody = Type.Object({
  username: Type.String({ maxLength: 200 }),
});
export type CheckUsernameBody = Static<typeof CheckUsernameBody>;

/** POST /papi/check/email: is this e-mail free to register? */
export const CheckEmailBody = Type.Object({
  email: Type.String({ maxLength: 320 }),
});
export type CheckEmailBody = Static<typeof CheckEmailBody>;
