import { sandboxesRun, type Config } from '../../../config';
import type { AppContext } from '../../../context';
import { createSandboxIdentityProvider, SANDBOX_IDENTITY } from './sandbox';
import type { IdentityProvider } from './types';

/**
 * The names of the identity providers a server of this configuration sends people to, as
 * `createIdentityProviders` builds them; the start-up checks read it (production-checks.ts).
 * A real provider adds its name here when its settings are set (docs/identity.md).
 */
export function identityProviderNames(config: Pick<Config, 'nodeEnv' | 'staging'>): string[] {
  return sandboxesRun(config) ? [SANDBOX_IDENTITY] : [];
}

/**
 * The identity providers by name, and the one new checks go to. The sandbox passes any
 * document but its test numbers, so it runs only where that is allowed (sandboxesRun), and its
 * page exists only then.
 */
export function createIdentityProviders(ctx: AppContext) {
  const names = identityProviderNames(ctx.config);
  const sandbox = names.includes(SANDBOX_IDENTITY) ? createSandboxIdentityProvider({ publicUrl: () => ctx.config.publicUrl, jwtSecret: ctx.config.jwtSecret }) : null;
  const providers = new Map<string, IdentityProvider>(sandbox === null ? [] : [[sandbox.name, sandbox]]);
  return { providers, sandbox, defaultProvider: providers.values().next().value };
}
