import { OkEnvelope } from '../../../../lib/contract/envelope';
import { ContactBody } from '../../../../lib/contract/contact';
import type { App } from '../../context';
import { ok } from '../../http/envelope';
import { pickLanguage } from '../../http/language';
import { platformOnly } from '../../http/origins';
import { viewerOf } from '../auth/guard';
import { sendContactMessage } from './service';
import type { FeatureOptions } from '../feature';
import { viewerScope } from '../auth/access';

/**
 * The contact form (SPEC §7 `POST /api|/papi/contact`): a message to the support address.
 * Only the platform's own pages may send it — a page elsewhere could otherwise make visitors'
 * browsers mail support on its behalf — and it is limited per sender and per address.
 */
export async function contactFeature(app: App, { ctx }: FeatureOptions): Promise<void> {
  const { api } = await viewerScope(app);
  const summary =
    'Send a message to the platform’s support address (1). {name, email?, topic, subject, message}; invalid-email without a usable answer address, invalid-request for a bad field, too-many-requests over the limits, origin-not-allowed from another site';
  const response = { 200: OkEnvelope };

  app.post('/papi/contact', { preHandler: platformOnly, schema: { tags: ['contact'], summary: `${summary} (visitors: email required)`, body: ContactBody, response } }, async (request) => {
    await sendContactMessage(ctx, { userId: null, ip: request.ip, language: pickLanguage(request.headers.language) }, request.body);
    return ok;
  });

  api.post(
    '/api/contact',
    { preHandler: platformOnly, schema: { tags: ['contact'], summary: `${summary} (signed in: the account’s address unless email is given)`, body: ContactBody, response } },
    async (request) => {
      await sendContactMessage(ctx, { userId: viewerOf(request).id, ip: request.ip, language: pickLanguage(request.headers.language) }, request.body);
      return ok;
    },
  );
}
