import { Settings } from '../../../../lib/contract/settings';
import { BodyEnvelope } from '../../../../lib/contract/envelope';
import type { App } from '../../context';
import { withBody } from '../../http/envelope';
import { vapidKeys } from '../push/service';
import { buildSettings } from './domain';
import type { FeatureOptions } from '../feature';

export async function settingsFeature(app: App, { ctx, services }: FeatureOptions): Promise<void> {
  const oauthProviders = services.oauthProviders.list();
  // Settings only change with the configuration, so the answer is built once — on the first
  // request, when the listening address (and so the default media address) is known.
  let answer: ReturnType<typeof withBody<Settings>> | undefined;
  app.get(
    '/papi/settings',
    {
      schema: {
        tags: ['settings'],
        summary: 'Platform settings: languages, media address, price multiplier, validation expressions, the STUN servers of calls (never a TURN credential), the operator the legal pages name, whether visitors must log in, whether this is a test installation (testMode)',
        response: { 200: BodyEnvelope(Settings) },
      },
    },
    async (_request, reply) => {
      reply.header('Cache-Control', 'public, max-age=300');
      answer ??= withBody({
        ...buildSettings({
          publicUrl: ctx.config.publicUrl,
          salt: ctx.config.priceSalt,
          iceServers: ctx.config.iceServers,
          modelProgram: ctx.config.modelProgram,
          operator: { name: ctx.config.operatorName, address: ctx.config.operatorAddress, email: ctx.config.supportEmail },
          forceLogin: ctx.config.forceLogin,
          // A test installation (FANSTAGE_STAGING): the site shows its test-mode ribbon.
          testMode: ctx.config.staging,
          // The key browsers subscribe to web push with (features/push).
          pushPubKey: (await vapidKeys(ctx)).publicKey,
        }),
        // The external sign-in providers the login and sign-up forms offer (OAUTH_PROVIDERS).
        oauthProviders,
      });
      return answer;
    },
  );
}
