/**
 * How this node serves: the proxies in front it trusts to name the client (TRUST_PROXY) and
 * the password hashes it runs at once and queues (PASSWORD_HASH_CONCURRENCY, PASSWORD_HASH_QUEUE).
 */
import { availableParallelism } from 'node:os';
import { ConfigError, nonEmpty, type Env } from './env';

/** The address forms TRUST_PROXY lists: an IP, a network (`10.0.0.0/8`), or one of proxy-addr's names. */
const proxyEntry = /^(loopback|linklocal|uniquelocal|[0-9a-f]*[.:][0-9a-f.:]*(\/\d{1,3})?)$/i;

export function trustProxy(env: Env, nodeEnv: string): boolean | string {
  const raw = nonEmpty(env.TRUST_PROXY);
  // In production the balancer in front sits on the private network, where no client does.
  if (raw === undefined) return nodeEnv === 'production' ? 'loopback,linklocal,uniquelocal' : false;
  const lower = raw.toLowerCase();
  if (['0', 'false', 'off', 'no'].includes(lower)) return false;
  if (lower === 'true') return true;
  const entries = raw.split(',').map((entry) => entry.trim());
  if (!entries.every((entry) => proxyEntry.test(entry))) {
    throw new ConfigError(
      `TRUST_PROXY must be false, true, or the proxies' addresses and networks, comma-separated (10.0.0.0/8, 192.0.2.7, loopback, uniquelocal) (got "${raw}").`,
    );
  }
  return entries.join(',');
}

/** Password hashes at once (one core fewer than the machine has, at least one) and in line beyond them. */
export function defaultHashingLimits(): { concurrency: number; queue: number } {
  return { concurrency: Math.max(1, availableParallelism() - 1), queue: 64 };
}
