import type { Config } from './config';
import { cardProcessorNames } from './features/payments/processors';
import { SANDBOX } from './features/payments/processors/sandbox';
import { identityProviderNames } from './features/partner/identity';
import { SANDBOX_IDENTITY } from './features/partner/identity/sandbox';
import { SANDBOX_OAUTH } from './features/oauth/sandbox';

/**
 * What a production server verifies before it serves anyone (docs/server.md, "Going to
 * production"). Each failure and each warning is one line that names the setting and what to
 * do, and every failure is found in one pass: an operator fixes them all before one restart,
 * not one per restart.
 */
export interface ProductionCheckResult {
  /** Reasons not to start; empty outside production. */
  failures: string[];
  /** Worth knowing, not worth refusing: written to the log at start. */
  warnings: string[];
}

export type ProductionCheckConfig = Pick<
  Config,
  'nodeEnv' | 'staging' | 'jwtSecret' | 'jwtSecretFromEnv' | 'publicUrl' | 'publicUrlFromEnv' | 'smtpUrl' | 'smsWebhookUrl' | 'oauthProviders' | 'demoPassword'
>;

export interface ProductionCheckProviders {
  /** The card processors this server charges through (default: what the configuration builds). */
  cardProcessors?: readonly string[];
  /** The identity-check providers it sends people to (default: what the configuration builds). */
  identityProviders?: readonly string[];
}

const stagingHint = 'or, on a test installation only, set FANSTAGE_STAGING=1';

/**
 * A PUBLIC_URL on a loopback address serves this machine alone (a benchmark, a test of the
 * production build): no one else's browser reaches it, so there is no one for https to protect
 * and no one a mailed link would work for.
 */
export function isLoopbackUrl(url: string): boolean {
  let hostname: string;
  try {
    hostname = new URL(url).hostname.toLowerCase();
  } catch {
    return false;
  }
  return hostname === 'localhost' || hostname.endsWith('.localhost') || hostname === '[::1]' || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(hostname);
}

export function productionChecks(config: ProductionCheckConfig, providers: ProductionCheckProviders = {}): ProductionCheckResult {
  if (config.nodeEnv !== 'production') return { failures: [], warnings: [] };
  const failures: string[] = [];
  const warnings: string[] = [];
  const cardProcessors = providers.cardProcessors ?? cardProcessorNames(config);
  const identityProviders = providers.identityProviders ?? identityProviderNames(config);

  // Secrets. The configuration already refuses a short JWT_SECRET; this one is for callers that
  // build the configuration themselves.
  if (!config.jwtSecretFromEnv) {
    failures.push('JWT_SECRET is not set: set it to a random string of 32 characters or more (openssl rand -base64 48), the same on every node.');
  } else if (config.jwtSecret.length < 32) {
    failures.push('JWT_SECRET is shorter than 32 characters: set a random string of 32 characters or more (openssl rand -base64 48).');
  }
  if (config.demoPassword !== undefined && !config.staging) {
    failures.push(`DEMO_PASSWORD is set: the demo accounts seeded into an empty database would open with it. Unset it, ${stagingHint}.`);
  }

  // The address people use, and mail to it.
  const loopback = config.publicUrlFromEnv && isLoopbackUrl(config.publicUrl);
  if (!config.publicUrlFromEnv) {
    failures.push('PUBLIC_URL is not set: set the https address people reach the platform at, such as https://fanstage.example (media, mailed links and payment returns are built from it).');
  } else if (!config.publicUrl.startsWith('https://') && !loopback) {
    failures.push(`PUBLIC_URL is not https (${config.publicUrl}): sessions and payments must not travel in the clear. Put TLS in front of the server and set PUBLIC_URL=https://….`);
  }
  if (config.smtpUrl === undefined && !loopback) {
    failures.push('SMTP_URL is not set: sign-up confirmations and password resets would only be written to the outbox, which production does not show. Set smtp://user:password@host:587 or smtps://….');
  }
  if (loopback) {
    warnings.push(`PUBLIC_URL is a loopback address (${config.publicUrl}): only this machine is served, so https and SMTP_URL are not asked for.`);
  }

  // Money and identities: production has real ones, or says it is a test installation.
  const realProcessors = cardProcessors.filter((name) => name !== SANDBOX);
  if (realProcessors.length === 0 && !config.staging) {
    failures.push(`No card processor is configured but the sandbox, whose test card pays for credits: configure a real one (docs/payments.md), ${stagingHint}.`);
  }
  const realIdentityProviders = identityProviders.filter((name) => name !== SANDBOX_IDENTITY);
  if (realIdentityProviders.length === 0 && !config.staging) {
    failures.push(`No identity-check provider is configured but the sandbox, which passes any document but its test numbers: configure a real one (docs/identity.md), ${stagingHint}.`);
  }
  if (config.oauthProviders.includes(SANDBOX_OAUTH)) {
    failures.push('OAUTH_PROVIDERS lists sandbox, whose consent page signs anyone in as whoever they type: it is for development only, staging included. Take it out of OAUTH_PROVIDERS.');
  }
  if (config.staging) {
    warnings.push(
      'FANSTAGE_STAGING is on: this is a test installation. The sandbox card processor (its test card pays) and identity provider (any document passes) run, and the site shows a test-mode ribbon. Never set it on the live platform.',
    );
  }

  if (config.smsWebhookUrl === undefined) {
    warnings.push('SMS_WEBHOOK_URL is not set: phone verification codes go only to the outbox, which production does not show, so nobody can verify a phone number.');
  }
  return { failures, warnings };
}
