/**
 * The server's configuration: the `Config` every part reads, and `loadConfig`, which reads and
 * checks it from environment variables in one place, in one order. The readers of each area's
 * settings are in `config/`: database, media, calls, push, the site, how this node serves, and
 * the environment readers they share.
 */
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { iceServers, turnSettings, type IceServer, type TurnSettings } from './config/calls';
import { detectPooling } from './config/database';
import { ConfigError, flag, integer, nonEmpty, text, type Env } from './config/env';
import { s3Settings, type S3Settings } from './config/media';
import { pushSettings, type PushSettings } from './config/push';
import { defaultHashingLimits, trustProxy } from './config/server';
import { oauthProviders, supportEmail } from './config/site';

export { defaultPushServiceHosts, type PushSettings } from './config/push';
export type { IceServer, TurnSettings } from './config/calls';
export type { S3Settings } from './config/media';
export { ConfigError } from './config/env';
export { detectPooling } from './config/database';
export { defaultHashingLimits } from './config/server';

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
