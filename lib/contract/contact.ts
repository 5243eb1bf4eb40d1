import { Type, type Static } from 'typebox';
import { Email } from './auth';

/** What a contact message is about; support sorts its outbox by it. */
export const ContactTopics = ['account', 'payments', 'content', 'creators', 'privacy', 'other'] as const;
export type ContactTopic = (typeof ContactTopics)[number];

/** Bounds of a contact message (characters). */
export const contactLimits = { name: 100, subject: 150, messageMin: 10, message: 5000 } as const;

/**
 * `POST /papi/contact` (a visitor) and `POST /api/contact` (signed in): a message to the
 * platform's support address. A visitor gives the address to answer to; a signed-in person's
 * account address is used when `email` is left out.
 */
export const ContactBody = Type.Object(
  {
    name: Type.String({ minLength: 1, maxLength: contactLimits.name }),
    email: Type.Optional(Email),
    topic: Type.Enum(ContactTopics),
    subject: Type.String({ minLength: 1, maxLength: contactLimits.subject }),
    message: Type.String({ minLength: contactLimits.messageMin, maxLength: contactLimits.message }),
  },
  { additionalProperties: false },
);
export type ContactBody = Static<typeof ContactBody>;
