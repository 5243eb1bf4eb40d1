import { randomBytes } from 'node:crypto';
import { availableParallelism } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** The repository root, found from this file so the server works from any working directory. */
export const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');

export type LogLevel = 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace' | 'silent';
const logLevels: readonly LogLevel[] = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'];

export interface Config {
  port: number;
  host: string;
  /** Absolute folder for everything the server writes: the embedded database and media. */
  dataDir: string;
  /**
   * `postgres://…` for a PostgreSQL server, `memory://` for a throw-away in-memory PGlite,
   * or `undefined` for PGlite files under `${dataDir}/db`.
   */
  databaseUrl: string | undefined;
  /**
   * How the PostgreSQL server is reached (DATABASE_POOLING, docs/server.md "A pooled
   * PostgreSQL"): `session` when each connection is the server's own (direct, or a pooler in
   * session mode), `transaction` behind a pooler that lends a server connection for one
   * transaction at a time (PgBouncer's transaction mode, Supabase's port 6543, Neon's
   * `-pooler` hosts — detected from the address when not set).
   */
  databasePooling: 'session' | 'transaction';
  /**
   * Whether statements are prepared under names PostgreSQL keeps per connection: on by default
   * with session pooling, off behind a transaction pooler, where the next transaction may run
   * on a connection that has another statement of that name or none (DATABASE_PREPARED_STATEMENTS=on
   * for PgBouncer 1.21 or later with `max_prepared_statements`, which keeps them itself).
   */
  databaseNamedStatements: boolean;
  /** DATABASE_DIRECT_URL: a connection to the server itself, not the pooler, for migrations. */
  databaseDirectUrl: string | undefined;
  redisUrl: string | undefined;
  /**
   * Password hashes run at once (PASSWORD_HASH_CONCURRENCY, default one core fewer than the
   * machine has, at least one) and wait in line beyond them (PASSWORD_HASH_QUEUE, default 64);
   * a request beyond the line is answered 503 with Retry-After (features/auth/hashing.ts).
   */
  passwordHashing: { concurrency: number; queue: number };
  /** METRICS_TOKEN: `/metrics` is served to a scraper sending it as a bearer token, and not at all without it. */
  metricsToken: string | undefined;
  /**
   * The address the public reaches this server at, without a trailing slash. When PUBLIC_URL
   * is not set it follows the port actually listened on (PORT=0 picks a free one).
   */
  publicUrl: string;
  publicUrlFromEnv: boolean;
  /** SPEC §9 price multiplier: a fan pays price × salt / 10000. */
  priceSalt: number;
  logLevel: LogLevel;
  nodeEnv: string;
  /**
   * Which proxies in front may name the client and the scheme (TRUST_PROXY): `false` none, or a
   * comma-separated list of their addresses and networks; in production by default the private
   * networks, where the load balancer is. The client's IP (`request.ip`) decides who a sign-in
   * attempt comes from, so a client must never get to choose it: from a trusted peer the
   * server takes the right-most address of X-Forwarded-For that is not itself a trusted proxy,
   * and everything the client wrote to the left of it is ignored. `true` trusts every hop,
   * and so the left-most address, which the client wrote: only for a proxy that drops the
   * client's own X-Forwarded-For.
   */
  trustProxy: boolean | string;
  /** The folder holding the built `web`, `demo` and `embed` outputs. */
  webRoot: string;
  /**
   * The HS256 key of access tokens (32 characters at the least). Required in production;
   * elsewhere a random one per start, so tokens do not outlive a development server.
   */
  jwtSecret: string;
  /**
   * Whether JWT_SECRET was set. In production an unset one is refused by the start-up checks
   * (production-checks.ts), listed with everything else missing rather than on its own.
   */
  jwtSecretFromEnv: boolean;
  /**
   * FANSTAGE_STAGING (off by default): this is a test installation. In production it lets the
   * sandbox card processor and identity provider run, which production otherwise refuses; on
   * any server it tells the site to show its test-mode ribbon (`testMode` in /papi/settings).
   */
  staging: boolean;
  /** `smtp://…` or `smtps://…`: mails are sent through it as well as written to the outbox. */
  smtpUrl: string | undefined;
  /** The sender of every mail, e.g. `Fanstage <no-reply@fanstage.example>`. */
  mailFrom: string;
  /**
   * An SMS gateway (SMS_WEBHOOK_URL, https): phone codes are POSTed to it as `{to, text}`.
   * Unset, the sandbox provider writes them to the development outbox (server/src/sms).
   */
  smsWebhookUrl?: string | undefined;
  /**
   * Origins of partner sites allowed to call the API from the browser besides the platform
   * itself and the origins creators list for their widgets (CORS_ORIGINS, comma-separated).
   */
  corsOrigins: string[];
  /** Upload limits in bytes (MEDIA_MAX_IMAGE_BYTES, MEDIA_MAX_VIDEO_BYTES). */
  mediaMaxImageBytes: number;
  mediaMaxVideoBytes: number;
  /** S3-compatible media storage when S3_BUCKET is set; local disk otherwise. */
  s3: S3Settings | undefined;
  /**
   * The password of the seeded demo accounts (DEMO_PASSWORD), so a newcomer can sign in as a
   * demo creator or fan. Defaults to `fanstage-demo` in development only; elsewhere demo
   * accounts have no password unless one is set.
   */
  demoPassword: string | undefined;
  /**
   * STUN servers (and TURN servers that need no credentials) the browsers of a call use to reach
   * each other (ICE_SERVERS, a JSON array of RTCIceServer: `[{"urls": "stun:stun.example:3478"}]`).
   * They are public (`/papi/settings`), so entries with a username or credential are refused:
   * TURN credentials are minted per call from TURN_SECRET. None by default: two browsers on one
   * network need none (docs/calls.md says how to run coturn).
   */
  iceServers: IceServer[];
  /**
   * A TURN server with coturn's `use-auth-secret` (TURN_URLS, TURN_SECRET, TURN_TTL): the server
   * mints short-lived credentials for the two people of a call (features/calls/turn.ts).
   */
  turn: TurnSettings | undefined;
  /**
   * Whether the model-program page (`/tour-partners`, SPEC §2) is offered (MODEL_PROGRAM, on by
   * default); off, the page sends visitors to `/` and the menus leave it out.
   */
  modelProgram: boolean;
  /**
   * Who runs the platform (OPERATOR_NAME, OPERATOR_ADDRESS): the legal pages and the contact
   * page name them. The address is empty unless set; production should set both.
   */
  operatorName: string;
  operatorAddress: string;
  /** Where contact messages go and the address the legal pages give (SUPPORT_EMAIL). */
  supportEmail: string;
  /**
   * FORCE_LOGIN (off by default): visitors are asked to log in on every page but the
   * information pages: terms, privacy, cookies, FAQ and contact (SPEC §6).
   */
  forceLogin: boolean;
  /** Web push: the VAPID identity and the push services subscriptions may point at (features/push). */
  push: PushSettings;
  /**
   * The external sign-in providers offered on the login and sign-up forms (OAUTH_PROVIDERS,
   * comma-separated names; `none` for none). The built-in `sandbox` (a consent page served by this
   * server, nobody really signs in anywhere) is the default outside production; production
   * offers none unless configured (docs/oauth.md).
   */
  oauthProviders: string[];
}

export interface PushSettings {
  /**
   * VAPID_PUBLIC_KEY and VAPID_PRIVATE_KEY (base64url, as `web-push generate-vapid-keys` prints
   * them), set together. Unset, the server makes a pair on first start and keeps it in the
   * database, so every node and every restart signs with the same one: a new key would orphan
   * every browser's subscription.
   */
  vapidPublicKey: string | undefined;
  vapidPrivateKey: string | undefined;
  /** VAPID_SUBJECT: how push services reach the operator, `mailto:` or `https:` (default mailto:SUPPORT_EMAIL). */
  subject: string;
  /**
   * PUSH_SERVICE_HOSTS: the host names a subscription's endpoint may name (comma-separated; `*.`
   * for a domain's subdomains). The server POSTs to that address, so anything else would let a
   * user make it call an internal one. The browsers' push services by default.
   */
  serviceHosts: string[];
}

/** The push services of Chrome, Edge, Firefox and Safari. */
export const defaultPushServiceHosts: readonly string[] = [
  'fcm.googleapis.com',
  'android.googleapis.com',
  '*.push.services.mozilla.com',
  '*.notify.windows.com',
  '*.push.apple.com',
];

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

export class ConfigError extends Error {
  override name = 'ConfigError';
}

/**
 * Whether the built-in sandboxes that stand in for outside services run: the card processor
 * whose test card pays for credits and the identity provider that passes any document. They
 * are play money and unchecked identities, so production has them only on a server declared a
 * test installation (FANSTAGE_STAGING). Their pages exist exactly when they run.
 */
export function sandboxesRun(config: Pick<Config, 'nodeEnv' | 'staging'>): boolean {
  return config.nodeEnv !== 'production' || config.staging;
}

/**
 * Whether the developer's tools exist: the mail outbox (`/dev/mail`) and the sandbox sign-in
 * provider, whose consent page signs anyone in as whoever they type. A staging server has real
 * testers on the internet, so these are never in production, staging or not.
 */
export function developmentToolsExist(config: Pick<Config, 'nodeEnv'>): boolean {
  return config.nodeEnv !== 'production';
}

type Env = Record<string, string | undefined>;

/**
 * Reads the configuration from environment variables. Every value is checked here, once,
 * so a typo fails the start with a message naming the variable instead of a confusing
 * error later.
 */
export function loadConfig(env: Env = process.env): Config {
  const port = integer(env, 'PORT', 8080, 0, 65535);
  const nodeEnv = nonEmpty(env.NODE_ENV) ?? 'development';
  const dataDir = path.resolve(nonEmpty(env.DATA_DIR) ?? './data');
  const databaseUrl = nonEmpty(env.DATABASE_URL);
  if (databaseUrl !== undefined && !/^(postgres(ql)?:\/\/|memory:\/\/$)/.test(databaseUrl)) {
    throw new ConfigError(`DATABASE_URL must start with postgres:// or postgresql://, or be memory:// (got "${databaseUrl}").`);
  }
  const databaseDirectUrl = nonEmpty(env.DATABASE_DIRECT_URL);
  if (databaseDirectUrl !== undefined && !/^postgres(ql)?:\/\//.test(databaseDirectUrl)) {
    throw new ConfigError(`DATABASE_DIRECT_URL must start with postgres:// or postgresql:// (got "${databaseDirectUrl}").`);
  }
  const poolingSetting = nonEmpty(env.DATABASE_POOLING)?.toLowerCase();
  if (poolingSetting !== undefined && poolingSetting !== 'session' && poolingSetting !== 'transaction') {
    throw new ConfigError(`DATABASE_POOLING must be session or transaction (got "${env.DATABASE_POOLING}").`);
  }
  const databasePooling = poolingSetting ?? detectPooling(databaseUrl);
  const databaseNamedStatements = flag(env, 'DATABASE_PREPARED_STATEMENTS', databasePooling === 'session');
  const redisUrl = nonEmpty(env.REDIS_URL);
  const metricsToken = nonEmpty(env.METRICS_TOKEN);
  if (metricsToken !== undefined && metricsToken.length < 16) throw new ConfigError('METRICS_TOKEN must be 16 characters or more (openssl rand -base64 24).');
  const hashingDefaults = defaultHashingLimits();
  const passwordHashing = {
    concurrency: integer(env, 'PASSWORD_HASH_CONCURRENCY', hashingDefaults.concurrency, 1, 64),
    queue: integer(env, 'PASSWORD_HASH_QUEUE', hashingDefaults.queue, 0, 100_000),
  };
  if (redisUrl !== undefined && !/^rediss?:\/\//.test(redisUrl)) {
    throw new ConfigError(`REDIS_URL must start with redis:// or rediss:// (got "${redisUrl}").`);
  }
  const publicUrl = (nonEmpty(env.PUBLIC_URL) ?? `http://localhost:${port}`).replace(/\/+$/, '');
  if (!/^https?:\/\/[^/\s]+(\/\S*)?$/.test(publicUrl)) {
    throw new ConfigError(`PUBLIC_URL must be an http(s) address such as https://fanstage.example (got "${publicUrl}").`);
  }
  const logLevel = (nonEmpty(env.LOG_LEVEL) ?? (nodeEnv === 'test' ? 'silent' : 'info')) as LogLevel;
  if (!logLevels.includes(logLevel)) {
    throw new ConfigError(`LOG_LEVEL must be one of ${logLevels.join(', ')} (got "${logLevel}").`);
  }
  // Unset in production, the start-up checks refuse to serve; the stand-in only completes the
  // configuration, and a random key can only log people out, never let anyone in.
  const jwtSecretFromEnv = nonEmpty(env.JWT_SECRET) !== undefined;
  const jwtSecret = nonEmpty(env.JWT_SECRET) ?? randomBytes(32).toString('base64url');
  if (jwtSecret.length < 32) throw new ConfigError('JWT_SECRET must be 32 characters or more.');
  const smtpUrl = nonEmpty(env.SMTP_URL);
  if (smtpUrl !== undefined && !/^smtps?:\/\//.test(smtpUrl)) {
    throw new ConfigError(`SMTP_URL must start with smtp:// or smtps:// (got "${smtpUrl}").`);
  }
  const smsWebhookUrl = nonEmpty(env.SMS_WEBHOOK_URL);
  if (smsWebhookUrl !== undefined && !/^https?:\/\//.test(smsWebhookUrl)) {
    throw new ConfigError(`SMS_WEBHOOK_URL must start with https:// or http:// (got "${smsWebhookUrl}").`);
  }
  const corsOrigins = (nonEmpty(env.CORS_ORIGINS) ?? '')
    .split(',')
    .map((origin) => origin.trim())
    .filter(Boolean);
  for (const origin of corsOrigins) {
    if (!/^https?:\/\/[^/\s]+$/.test(origin)) {
      throw new ConfigError(`CORS_ORIGINS must list origins such as https://partner.example, without paths (got "${origin}").`);
    }
  }
  return {
    port,
    host: nonEmpty(env.HOST) ?? '0.0.0.0',
    dataDir,
    databaseUrl,
    databasePooling,
    databaseNamedStatements,
    databaseDirectUrl,
    redisUrl,
    passwordHashing,
    metricsToken,
    publicUrl,
    publicUrlFromEnv: nonEmpty(env.PUBLIC_URL) !== undefined,
    priceSalt: integer(env, 'PRICE_SALT', 12500, 1, 1_000_000),
    logLevel,
    nodeEnv,
    trustProxy: trustProxy(env, nodeEnv),
    webRoot: path.resolve(nonEmpty(env.WEB_ROOT) ?? path.join(repoRoot, 'dist')),
    jwtSecret,
    jwtSecretFromEnv,
    staging: flag(env, 'FANSTAGE_STAGING', false),
    smtpUrl,
    mailFrom: nonEmpty(env.MAIL_FROM) ?? `Fanstage <no-reply@${new URL(publicUrl).hostname}>`,
    smsWebhookUrl,
    corsOrigins,
    mediaMaxImageBytes: integer(env, 'MEDIA_MAX_IMAGE_BYTES', 20 * 1024 * 1024, 1024, 1024 * 1024 * 1024),
    mediaMaxVideoBytes: integer(env, 'MEDIA_MAX_VIDEO_BYTES', 500 * 1024 * 1024, 1024, 16 * 1024 * 1024 * 1024),
    s3: s3Settings(env),
    demoPassword: nonEmpty(env.DEMO_PASSWORD) ?? (nodeEnv === 'development' ? 'fanstage-demo' : undefined),
    iceServers: iceServers(env),
    turn: turnSettings(env),
    modelProgram: flag(env, 'MODEL_PROGRAM', true),
    operatorName: text(env, 'OPERATOR_NAME', 'Fanstage', 200),
    operatorAddress: text(env, 'OPERATOR_ADDRESS', '', 300),
    supportEmail: supportEmail(env, publicUrl),
    forceLogin: flag(env, 'FORCE_LOGIN', false),
    push: pushSettings(env, supportEmail(env, publicUrl)),
    oauthProviders: oauthProviders(env, nodeEnv),
  };
}

/** The address forms TRUST_PROXY lists: an IP, a network (`10.0.0.0/8`), or one of proxy-addr's names. */
const proxyEntry = /^(loopback|linklocal|uniquelocal|[0-9a-f]*[.:][0-9a-f.:]*(\/\d{1,3})?)$/i;

function trustProxy(env: Env, nodeEnv: string): boolean | string {
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

function oauthProviders(env: Env, nodeEnv: string): string[] {
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

function pushSettings(env: Env, support: string): PushSettings {
  const vapidPublicKey = nonEmpty(env.VAPID_PUBLIC_KEY);
  const vapidPrivateKey = nonEmpty(env.VAPID_PRIVATE_KEY);
  if ((vapidPublicKey === undefined) !== (vapidPrivateKey === undefined)) {
    throw new ConfigError('VAPID_PUBLIC_KEY and VAPID_PRIVATE_KEY must be set together (or neither: the server then makes a pair and keeps it in the database).');
  }
  // An uncompressed P-256 point (65 bytes) and a scalar (32 bytes), base64url.
  if (vapidPublicKey !== undefined && !/^[A-Za-z0-9_-]{87}$/.test(vapidPublicKey)) throw new ConfigError('VAPID_PUBLIC_KEY must be a P-256 public key in base64url (87 characters).');
  if (vapidPrivateKey !== undefined && !/^[A-Za-z0-9_-]{43}$/.test(vapidPrivateKey)) throw new ConfigError('VAPID_PRIVATE_KEY must be a P-256 private key in base64url (43 characters).');
  const subject = nonEmpty(env.VAPID_SUBJECT) ?? `mailto:${support}`;
  if (!/^(mailto:[^@\s]+@[^@\s]+|https:\/\/[^/\s]+\S*)$/.test(subject)) {
    throw new ConfigError(`VAPID_SUBJECT must be a mailto: or https: address (got "${subject}").`);
  }
  const raw = nonEmpty(env.PUSH_SERVICE_HOSTS);
  const serviceHosts =
    raw === undefined
      ? [...defaultPushServiceHosts]
      : raw
          .split(',')
          .map((host) => host.trim().toLowerCase())
          .filter(Boolean);
  for (const host of serviceHosts) {
    if (!/^(\*\.)?[a-z0-9-]+(\.[a-z0-9-]+)+$/.test(host)) throw new ConfigError(`PUSH_SERVICE_HOSTS must list host names such as fcm.googleapis.com or *.push.apple.com (got "${host}").`);
  }
  return { vapidPublicKey, vapidPrivateKey, subject, serviceHosts };
}

function turnSettings(env: Env): TurnSettings | undefined {
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

function iceServers(env: Env): IceServer[] {
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

/** A line of text shown to people, such as the operator's name: one line, at most `max` characters. */
function text(env: Env, name: string, fallback: string, max: number): string {
  const raw = nonEmpty(env[name]);
  if (raw === undefined) return fallback;
  if (raw.length > max || /[\r\n<>]/.test(raw)) throw new ConfigError(`${name} must be one line of at most ${max} characters, without < or > (got "${raw}").`);
  return raw;
}

/** SUPPORT_EMAIL, or support@ the host of PUBLIC_URL. */
function supportEmail(env: Env, publicUrl: string): string {
  const raw = nonEmpty(env.SUPPORT_EMAIL);
  if (raw === undefined) return `support@${new URL(publicUrl).hostname}`;
  if (raw.length > 254 || !/^[^@\s<>]+@[^@\s<>]+$/.test(raw)) throw new ConfigError(`SUPPORT_EMAIL must be an e-mail address such as support@fanstage.example (got "${raw}").`);
  return raw;
}

/** Password hashes at once (one core fewer than the machine has, at least one) and in line beyond them. */
export function defaultHashingLimits(): { concurrency: number; queue: number } {
  return { concurrency: Math.max(1, availableParallelism() - 1), queue: 64 };
}

/**
 * The pooling a database address tells of by itself: Prisma's `pgbouncer=true`, Neon's pooled
 * hosts (`ep-…-pooler.…`), Supabase's pooler in transaction mode (port 6543). Anything else is
 * taken to be a connection of its own; DATABASE_POOLING says otherwise.
 */
export function detectPooling(databaseUrl: string | undefined): 'session' | 'transaction' {
  if (databaseUrl === undefined || !/^postgres(ql)?:\/\//.test(databaseUrl)) return 'session';
  let url: URL;
  try {
    url = new URL(databaseUrl);
  } catch {
    return 'session';
  }
  if (url.searchParams.get('pgbouncer') === 'true') return 'transaction';
  if (/-pooler\./.test(url.hostname)) return 'transaction';
  if (url.hostname.endsWith('.pooler.supabase.com') && url.port === '6543') return 'transaction';
  return 'session';
}

function nonEmpty(value: string | undefined): string | undefined {
  const trimmed = value?.trim();
  return trimmed ? trimmed : undefined;
}

/** A true/false setting: 1, true, on or yes; 0, false, off or no (any case). */
function flag(env: Env, name: string, fallback: boolean): boolean {
  const raw = nonEmpty(env[name])?.toLowerCase();
  if (raw === undefined) return fallback;
  if (['1', 'true', 'on', 'yes'].includes(raw)) return true;
  if (['0', 'false', 'off', 'no'].includes(raw)) return false;
  throw new ConfigError(`${name} must be true or false (got "${env[name]}").`);
}

function integer(env: Env, name: string, fallback: number, min: number, max: number): number {
  const raw = nonEmpty(env[name]);
  if (raw === undefined) return fallback;
  if (!/^\d+$/.test(raw)) throw new ConfigError(`${name} must be a whole number (got "${raw}").`);
  const value = Number(raw);
  if (value < min || value > max) throw new ConfigError(`${name} must be between ${min} and ${max} (got ${value}).`);
  return value;
}

export interface S3Settings {
  bucket: string;
  region: string;
  /** For services other than AWS (MinIO, R2, …): their address. */
  endpoint: string | undefined;
  /** Without them the AWS SDK's default chain (environment, instance role) is used. */
  accessKeyId: string | undefined;
  secretAccessKey: string | undefined;
  /** `bucket` in the path instead of the host name (most S3-compatible services want it). */
  forcePathStyle: boolean;
  /** Prepended to every key, so one bucket can hold several installations. */
  prefix: string;
}

function s3Settings(env: Env): S3Settings | undefined {
  const bucket = nonEmpty(env.S3_BUCKET);
  if (bucket === undefined) return undefined;
  const endpoint = nonEmpty(env.S3_ENDPOINT);
  if (endpoint !== undefined && !/^https?:\/\/[^/\s]+\/?$/.test(endpoint)) {
    throw new ConfigError(`S3_ENDPOINT must be an http(s) origin such as https://s3.example.com (got "${endpoint}").`);
  }
  const accessKeyId = nonEmpty(env.S3_ACCESS_KEY_ID);
  const secretAccessKey = nonEmpty(env.S3_SECRET_ACCESS_KEY);
  if ((accessKeyId === undefined) !== (secretAccessKey === undefined)) {
    throw new ConfigError('S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY must be set together.');
  }
  const pathStyle = (nonEmpty(env.S3_FORCE_PATH_STYLE) ?? 'false').toLowerCase();
  if (!['1', '0', 'true', 'false'].includes(pathStyle)) throw new ConfigError(`S3_FORCE_PATH_STYLE must be true or false (got "${pathStyle}").`);
  const prefix = nonEmpty(env.S3_PREFIX) ?? '';
  if (prefix !== '' && !/^[A-Za-z0-9._-]+(\/[A-Za-z0-9._-]+)*\/$/.test(prefix)) {
    throw new ConfigError(`S3_PREFIX must be a folder ending in / such as fanstage/ (got "${prefix}").`);
  }
  return {
    bucket,
    region: nonEmpty(env.S3_REGION) ?? 'us-east-1',
    endpoint,
    accessKeyId,
    secretAccessKey,
    forcePathStyle: pathStyle === '1' || pathStyle === 'true',
    prefix,
  };
}
