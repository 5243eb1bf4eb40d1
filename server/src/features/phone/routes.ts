import { Type } from 'typebox';
import { BodyEnvelope, OkEnvelope } from '../../../../lib/contract/envelope';
import { SendPhoneCodeQuery, VerifyPhoneBody } from '../../../../lib/contract/account';
import type { App } from '../../context';
import { ok, withBody } from '../../http/envelope';
import { viewerOf } from '../auth/guard';
import { sendPhoneCode, verifyPhone } from './service';
import type { FeatureOptions } from '../feature';
import { viewerScope } from '../auth/access';

const PhoneCodeSent = Type.Object({ phone: Type.String(), expiresInSeconds: Type.Integer() });

/** Proving a phone number by an SMS code (SPEC §7): the signed-in person's own number only. */
export async function phoneFeature(app: App, { ctx }: FeatureOptions): Promise<void> {
  const { api } = await viewerScope(app);
  api.get(
    '/api/sms/send-verification-code',
    {
      schema: {
        tags: ['account'],
        summary: 'Send a verification code by SMS to `phone` (E.164; spaces and dashes are dropped): invalid-phone, too-many-requests over 5 an hour per account or number',
        querystring: SendPhoneCodeQuery,
        response: { 200: BodyEnvelope(PhoneCodeSent) },
      },
    },
    async (request) => withBody(await sendPhoneCode(ctx, viewerOf(request).id, request.query.phone)),
  );

  api.post(
    '/api/users/verify-phone',
    {
      schema: {
        tags: ['account'],
        summary: 'Prove the number with the newest SMS code: 1 and phoneVerified; phone-code-wrong, phone-code-expired, or phone-code-attempts after 5 wrong codes',
        body: VerifyPhoneBody,
        response: { 200: OkEnvelope },
      },
    },
    async (request) => {
      await verifyPhone(ctx, viewerOf(request).id, request.body.code);
      return ok;
    },
  );
}
