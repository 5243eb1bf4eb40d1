import { developmentToolsExist } from '../../config';
import type { AppContext } from '../../context';
import { AppError } from '../../errors';
import { createSandboxOAuthProvider, SANDBOX_OAUTH } from './sandbox';
import type { OAuthProvider } from './types';

/**
 * The sign-in providers this server offers, by name, as OAUTH_PROVIDERS lists them (docs/oauth.md).
 * A real provider is one more implementation of OAuthProvider added to `implementations`,
 * with its keys read from the configuration.
 */
export function createOAuthProviders(ctx: AppContext) {
  const sandbox = createSandboxOAuthProvider({ publicUrl: () => ctx.config.publicUrl, jwtSecret: ctx.config.jwtSecret, now: () => ctx.clock.now().getTime() });
  // The sandbox vouches for whoever types an account id: a developer's tool, never production's
  // (the start-up checks say so before this is reached; production-checks.ts).
  const implementations = new Map<string, OAuthProvider>(developmentToolsExist(ctx.config) ? [[SANDBOX_OAUTH, sandbox]] : []);
  const offered = new Map<string, OAuthProvider>();
  for (const name of ctx.config.oauthProviders) {
    const provider = implementations.get(name);
    if (provider === undefined) throw new Error(`OAUTH_PROVIDERS names "${name}", which this server has no sign-in provider of (known: ${[...implementations.keys()].join(', ') || 'none'}).`);
    offered.set(name, provider);
  }
  return {
    /** The sandbox's keys, when the sandbox is offered (its consent page needs them). */
    sandbox: offered.has(SANDBOX_OAUTH) ? sandbox : null,
    list: (): { name: string; title: string }[] => [...offered.values()].map((provider) => ({ name: provider.name, title: provider.title })),
    get(name: string | undefined): OAuthProvider {
      const provider = name === undefined ? offered.values().next().value : offered.get(name);
      if (provider === undefined) throw new AppError('not-found');
      return provider;
    },
  };
}

export type OAuthProviders = ReturnType<typeof createOAuthProviders>;
