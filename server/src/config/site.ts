/**
 * The site's people-facing settings read beyond a plain check: the support address
 * (SUPPORT_EMAIL) and the external sign-in providers offered (OAUTH_PROVIDERS).
 */
import { ConfigError, nonEmpty, type Env } from './env';

/** SUPPORT_EMAIL, or support@ the host of PUBLIC_URL. */
export function supportEmail(env: Env, publicUrl: string): string {
  const raw = nonEmpty(env.SUPPORT_EMAIL);
  if (raw === undefined) return `support@${new URL(publicUrl).hostname}`;
  if (raw.length > 254 || !/^[^@\s<>]+@[^@\s<>]+$/.test(raw)) throw new ConfigError(`SUPPORT_EMAIL must be an e-mail address such as support@fanstage.example (got "${raw}").`);
  return raw;
}

export function oauthProviders(env: Env, nodeEnv: string): string[] {
  const raw = nonEmpty(env.OAUTH_PROVIDERS) ?? (nodeEnv === 'production' ? 'none' : 'sandbox');
  const names = raw
    .split(',')
    .map((name) => name.trim())
    .filter(Boolean);
  if (names.length === 1 && names[0] === 'none') return [];
  for (const name of names) {
    if (!/^[a-z0-9-]{1,32}$/.test(name)) throw new ConfigError(`OAUTH_PROVIDERS must list provider names such as sandbox, comma-separated, or be none (got "${name}").`);
  }
  return [...new Set(names)];
}
