/**
 * The calls' network settings: the STUN and credential-free TURN servers published to browsers
 * (ICE_SERVERS), and the TURN relay whose credentials the server mints (TURN_URLS, TURN_SECRET,
 * TURN_TTL).
 */
import { ConfigError, integer, nonEmpty, type Env } from './env';

export interface TurnSettings {
  /** `turn:` and `turns:` addresses of the relay. */
  urls: string[];
  /** coturn's `static-auth-secret`: the key of the credentials' HMAC. */
  secret: string;
  /** Seconds a minted credential is good for. */
  ttlSeconds: number;
}

/** One STUN or TURN server, as `RTCPeerConnection` takes it. */
export interface IceServer {
  urls: string | string[];
  username?: string;
  credential?: string;
}

export function turnSettings(env: Env): TurnSettings | undefined {
  const rawUrls = nonEmpty(env.TURN_URLS);
  const secret = nonEmpty(env.TURN_SECRET);
  if (rawUrls === undefined && secret === undefined) {
    if (nonEmpty(env.TURN_TTL) !== undefined) throw new ConfigError('TURN_TTL is set but TURN_URLS and TURN_SECRET are not: set all of them, or none.');
    return undefined;
  }
  if (rawUrls === undefined || secret === undefined) {
    throw new ConfigError('TURN_URLS and TURN_SECRET must be set together (the TURN server\'s addresses and its static-auth-secret).');
  }
  const urls = rawUrls
    .split(',')
    .map((url) => url.trim())
    .filter(Boolean);
  for (const url of urls) {
    if (!/^turns?:\S+$/.test(url)) throw new ConfigError(`TURN_URLS must list turn: or turns: addresses, comma-separated (got "${url}").`);
  }
  // The secret signs every credential: one short enough to guess opens the relay to anyone.
  if (secret.length < 16) throw new ConfigError('TURN_SECRET must be 16 characters or more (the same value as coturn\'s static-auth-secret).');
  return { urls, secret, ttlSeconds: integer(env, 'TURN_TTL', 3600, 60, 86_400) };
}

export function iceServers(env: Env): IceServer[] {
  const raw = nonEmpty(env.ICE_SERVERS);
  if (raw === undefined) return [];
  const problem = `ICE_SERVERS must be a JSON array of {"urls": "stun:…" or "turn:…" (or a list of them)}`;
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw);
  } catch {
    throw new ConfigError(`${problem} (it is not JSON).`);
  }
  if (!Array.isArray(parsed)) throw new ConfigError(`${problem} (it is not an array).`);
  return parsed.map((entry: unknown, index) => {
    const server = entry as Record<string, unknown> | null;
    if (typeof server !== 'object' || server === null || Array.isArray(server)) throw new ConfigError(`${problem} (entry ${index} is not an object).`);
    const urls = server.urls;
    const list = typeof urls === 'string' ? [urls] : Array.isArray(urls) ? urls : [];
    if (list.length === 0 || !list.every((url) => typeof url === 'string' && /^(stuns?|turns?):\S+$/.test(url))) {
      throw new ConfigError(`${problem} (entry ${index} has no stun:, stuns:, turn: or turns: address in urls).`);
    }
    // ICE_SERVERS is published to anyone in /papi/settings: a credential there lets strangers
    // relay their traffic through the operator's TURN server.
    if (server.username !== undefined || server.credential !== undefined) {
      throw new ConfigError(
        `ICE_SERVERS entry ${index} has a username or credential, which would be public in /papi/settings. ` +
          'Give the TURN server to TURN_URLS and its static-auth-secret to TURN_SECRET instead: the server then mints short-lived credentials for the two people of each call (docs/calls.md).',
      );
    }
    const unknown = Object.keys(server).filter((key) => key !== 'urls');
    if (unknown.length > 0) throw new ConfigError(`${problem} (entry ${index} has unknown fields: ${unknown.join(', ')}).`);
    return { urls: urls as string | string[] };
  });
}
