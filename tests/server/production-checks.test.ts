import { describe, expect, it } from 'vitest';
import { ConfigError, detectPooling, developmentToolsExist, loadConfig, sandboxesRun } from '../../server/src/config';
import { cardProcessorNames } from '../../server/src/features/payments/processors';
import { identityProviderNames } from '../../server/src/features/partner/identity';
import { isLoopbackUrl, productionChecks } from '../../server/src/production-checks';

/** A production server with everything it needs but real providers, which tests name themselves. */
const ready = {
  NODE_ENV: 'production',
  JWT_SECRET: 'a production secret of 32+ characters',
  PUBLIC_URL: 'https://fanstage.example',
  SMTP_URL: 'smtps://mailer:secret@smtp.example:465',
  SMS_WEBHOOK_URL: 'https://sms.example/send',
};
const realProviders = { cardProcessors: ['gopay'], identityProviders: ['veriff'] };

function checks(env: Record<string, string>, providers?: Parameters<typeof productionChecks>[1]) {
  return productionChecks(loadConfig(env), providers);
}

describe('the production checks', () => {
  it('ask nothing outside production, whatever is missing', () => {
    expect(checks({})).toEqual({ failures: [], warnings: [] });
    expect(checks({ NODE_ENV: 'test', OAUTH_PROVIDERS: 'sandbox' })).toEqual({ failures: [], warnings: [] });
  });

  it('list every failure of a bare production start at once, one line each naming its setting', () => {
    const { failures } = checks({ NODE_ENV: 'production' });
    expect(failures).toHaveLength(5);
    for (const line of failures) expect(line, line).not.toMatch(/\n/);
    expect(failures[0]).toMatch(/^JWT_SECRET is not set: /);
    expect(failures[1]).toMatch(/^PUBLIC_URL is not set: /);
    expect(failures[2]).toMatch(/^SMTP_URL is not set: /);
    expect(failures[3]).toMatch(/^No card processor is configured but the sandbox, whose test card pays for credits: .*docs\/payments\.md.*FANSTAGE_STAGING=1/);
    expect(failures[4]).toMatch(/^No identity-check provider is configured but the sandbox, .*docs\/identity\.md.*FANSTAGE_STAGING=1/);
  });

  it('refuse the sandboxes as the only card processor and identity provider, and pass real ones', () => {
    expect(checks(ready).failures).toEqual([
      expect.stringMatching(/^No card processor is configured but the sandbox/),
      expect.stringMatching(/^No identity-check provider is configured but the sandbox/),
    ]);
    expect(checks(ready, realProviders)).toEqual({ failures: [], warnings: [] });
    // A real processor next to the sandbox still counts as real; the sandbox alone does not.
    expect(checks(ready, { cardProcessors: ['sandbox', 'gopay'], identityProviders: ['sandbox'] }).failures).toEqual([expect.stringMatching(/^No identity-check provider/)]);
  });

  it('want PUBLIC_URL on https, except on a loopback address, where https and mail are not asked for', () => {
    expect(checks({ ...ready, PUBLIC_URL: 'http://fanstage.example' }, realProviders).failures).toEqual([
      'PUBLIC_URL is not https (http://fanstage.example): sessions and payments must not travel in the clear. Put TLS in front of the server and set PUBLIC_URL=https://….',
    ]);
    const local = checks({ ...ready, PUBLIC_URL: 'http://127.0.0.1:8080', SMTP_URL: '' }, realProviders);
    expect(local.failures).toEqual([]);
    expect(local.warnings).toEqual([expect.stringMatching(/^PUBLIC_URL is a loopback address \(http:\/\/127\.0\.0\.1:8080\): only this machine is served/)]);
    // Unset, PUBLIC_URL defaults to a loopback address, which is no excuse: it must be set.
    expect(checks({ ...ready, PUBLIC_URL: '', SMTP_URL: '' }, realProviders).failures).toEqual([
      expect.stringMatching(/^PUBLIC_URL is not set/),
      expect.stringMatching(/^SMTP_URL is not set/),
    ]);
  });

  it('want mail sent through SMTP', () => {
    expect(checks({ ...ready, SMTP_URL: '' }, realProviders).failures).toEqual([expect.stringMatching(/^SMTP_URL is not set: .*smtp:\/\/user:password@host:587/)]);
  });

  it('on a staging server let the sandboxes run, with a warning, and still want everything else', () => {
    const staging = checks({ ...ready, FANSTAGE_STAGING: '1' });
    expect(staging.failures).toEqual([]);
    expect(staging.warnings).toEqual([expect.stringMatching(/^FANSTAGE_STAGING is on: this is a test installation\. .*test-mode ribbon/)]);
    expect(checks({ NODE_ENV: 'production', FANSTAGE_STAGING: 'true' }).failures).toEqual([
      expect.stringMatching(/^JWT_SECRET/),
      expect.stringMatching(/^PUBLIC_URL/),
      expect.stringMatching(/^SMTP_URL/),
    ]);
  });

  it('never let production offer the sandbox sign-in, staging or not', () => {
    for (const staging of ['0', '1']) {
      expect(checks({ ...ready, FANSTAGE_STAGING: staging, OAUTH_PROVIDERS: 'sandbox' }, realProviders).failures).toEqual([
        'OAUTH_PROVIDERS lists sandbox, whose consent page signs anyone in as whoever they type: it is for development only, staging included. Take it out of OAUTH_PROVIDERS.',
      ]);
    }
  });

  it('refuse a demo password, which would open the demo accounts, unless on a staging server', () => {
    expect(checks({ ...ready, DEMO_PASSWORD: 'fanstage-demo' }, realProviders).failures).toEqual([expect.stringMatching(/^DEMO_PASSWORD is set: /)]);
    expect(checks({ ...ready, DEMO_PASSWORD: 'fanstage-demo', FANSTAGE_STAGING: '1' }, realProviders).failures).toEqual([]);
  });

  it('warn when phone codes have no gateway', () => {
    expect(checks({ ...ready, SMS_WEBHOOK_URL: '' }, realProviders)).toEqual({ failures: [], warnings: [expect.stringMatching(/^SMS_WEBHOOK_URL is not set: /)] });
  });

  it('refuse a short JWT_SECRET from a configuration made by hand', () => {
    const config = { ...loadConfig(ready), jwtSecret: 'short' };
    expect(productionChecks(config, realProviders).failures).toEqual([expect.stringMatching(/^JWT_SECRET is shorter than 32 characters/)]);
  });
});

describe('what runs where', () => {
  it('runs the sandboxes outside production and on a staging server, the development tools only outside production', () => {
    const development = loadConfig({});
    const production = loadConfig({ NODE_ENV: 'production' });
    const staging = loadConfig({ NODE_ENV: 'production', FANSTAGE_STAGING: 'yes' });
    expect([sandboxesRun(development), sandboxesRun(production), sandboxesRun(staging)]).toEqual([true, false, true]);
    expect([developmentToolsExist(development), developmentToolsExist(production), developmentToolsExist(staging)]).toEqual([true, false, false]);
    expect([cardProcessorNames(development), cardProcessorNames(production), cardProcessorNames(staging)]).toEqual([['sandbox'], [], ['sandbox']]);
    expect([identityProviderNames(development), identityProviderNames(production), identityProviderNames(staging)]).toEqual([['sandbox'], [], ['sandbox']]);
  });

  it('knows a loopback address', () => {
    for (const url of ['http://localhost:8080', 'http://127.0.0.1:9', 'http://127.1.2.3', 'http://[::1]:8080', 'http://app.localhost']) expect(isLoopbackUrl(url), url).toBe(true);
    for (const url of ['https://fanstage.example', 'http://10.0.0.5', 'http://localhost.example.com', 'http://127.0.0.1.example.com', 'not a url']) expect(isLoopbackUrl(url), url).toBe(false);
  });
});

describe('a pooled database', () => {
  it('knows a transaction pooler from its address, and is told otherwise by DATABASE_POOLING', () => {
    for (const url of [
      'postgres://app@db.internal:6432/fanstage?pgbouncer=true',
      'postgresql://app@ep-cool-river-123456-pooler.eu-central-1.aws.neon.tech/fanstage?sslmode=require',
      'postgres://postgres.abc@aws-0-eu-central-1.pooler.supabase.com:6543/postgres',
    ]) expect(detectPooling(url), url).toBe('transaction');
    for (const url of [
      undefined,
      'memory://',
      'postgres://postgres@127.0.0.1:5432/postgres',
      'postgres://postgres.abc@aws-0-eu-central-1.pooler.supabase.com:5432/postgres',
      'postgres://app@ep-cool-river-123456.eu-central-1.aws.neon.tech/fanstage',
      'postgres://app@db.internal/fanstage?pgbouncer=false',
    ]) expect(detectPooling(url), String(url)).toBe('session');

    const direct = loadConfig({ DATABASE_URL: 'postgres://postgres@127.0.0.1:5432/postgres' });
    expect([direct.databasePooling, direct.databaseNamedStatements, direct.databaseDirectUrl]).toEqual(['session', true, undefined]);
    const told = loadConfig({ DATABASE_URL: 'postgres://app@127.0.0.1:6432/fanstage', DATABASE_POOLING: 'Transaction' });
    expect([told.databasePooling, told.databaseNamedStatements]).toEqual(['transaction', false]);
    const detected = loadConfig({ DATABASE_URL: 'postgres://app@db:6432/fanstage?pgbouncer=true', DATABASE_DIRECT_URL: 'postgres://app@db:5432/fanstage' });
    expect([detected.databasePooling, detected.databaseNamedStatements, detected.databaseDirectUrl]).toEqual(['transaction', false, 'postgres://app@db:5432/fanstage']);
    // PgBouncer 1.21 and later keep prepared statements themselves (max_prepared_statements).
    const keeping = loadConfig({ DATABASE_URL: 'postgres://app@db:6432/fanstage?pgbouncer=true', DATABASE_PREPARED_STATEMENTS: 'on' });
    expect([keeping.databasePooling, keeping.databaseNamedStatements]).toEqual(['transaction', true]);
    const session = loadConfig({ DATABASE_URL: 'postgres://app@db:6432/fanstage?pgbouncer=true', DATABASE_POOLING: 'session' });
    expect([session.databasePooling, session.databaseNamedStatements]).toEqual(['session', true]);
  });

  it('refuses a pooling it does not know and a direct address that is not PostgreSQL', () => {
    expect(() => loadConfig({ DATABASE_URL: 'postgres://app@db/fanstage', DATABASE_POOLING: 'statement' })).toThrow(ConfigError);
    expect(() => loadConfig({ DATABASE_URL: 'postgres://app@db/fanstage', DATABASE_POOLING: 'statement' })).toThrow(/DATABASE_POOLING must be session or transaction/);
    expect(() => loadConfig({ DATABASE_URL: 'postgres://app@db/fanstage', DATABASE_DIRECT_URL: 'mysql://app@db/fanstage' })).toThrow(/DATABASE_DIRECT_URL must start with postgres:\/\//);
  });
});
