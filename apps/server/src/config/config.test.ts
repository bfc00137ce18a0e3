import { describe, expect, it } from 'vitest';
import { mkdtempSync, readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ConfigError, loadConfig, loadDatabaseConfig } from './config';
import { toFastifyTrustProxy } from './trust-proxy';

const tmp = () => mkdtempSync(path.join(os.tmpdir(), 'offzero-config-'));

describe('loadConfig', () => {
  it('runs demo mode with no variables at all, on port 3000 and testnet', () => {
    const config = loadConfig({ DATA_DIR: tmp() });
    expect(config).toMatchObject({
      mode: 'demo',
      port: 3000,
      bitcoinNetwork: 'testnet',
      databaseUrl: undefined,
    });
    expect(config.adminEmails).toContain('admin@offzero.local');
  });

  it('keeps the demo signing secret in the data folder so sessions survive a restart', () => {
    const dataDir = tmp();
    const first = loadConfig({ DATA_DIR: dataDir });
    const second = loadConfig({ DATA_DIR: dataDir });
    expect(Buffer.from(first.jwtSecret).toString()).toBe(Buffer.from(second.jwtSecret).toString());
    expect(readFileSync(path.join(dataDir, 'jwt-secret'), 'utf8').length).toBeGreaterThanOrEqual(43);
  });

  it('refuses to start production and names every missing variable', () => {
    try {
      loadConfig({ APP_MODE: 'production', DATABASE_URL: 'postgres://db/offzero' });
      expect.unreachable();
    } catch (error) {
      expect(error).toBeInstanceOf(ConfigError);
      const message = (error as ConfigError).message;
      for (const name of [
        'JWT_SECRET',
        'DATA_ENCRYPTION_KEY',
        'PUBLIC_URL',
        'SMTP_URL',
        'MAIL_FROM',
        'TWILIO_ACCOUNT_SID',
        'TWILIO_AUTH_TOKEN',
        'TWILIO_FROM_NUMBER',
        'ADMIN_EMAILS',
        'EXPLORER_URL',
        'SUMSUB_APP_TOKEN',
        'SUMSUB_SECRET_KEY',
        'SUMSUB_WEBHOOK_SECRET',
        'PAYPAL_CLIENT_ID',
        'PAYPAL_CLIENT_SECRET',
        'PAYPAL_WEBHOOK_ID',
        'INCREASE_API_KEY',
        'INCREASE_ACCOUNT_ID',
        'INCREASE_SOURCE_ACCOUNT_NUMBER_ID',
        'INCREASE_WEBHOOK_SECRET',
        'ESPLORA_URL',
        'DEPOSIT_XPUB',
      ]) {
        expect(message).toContain(name);
      }
      expect(message).not.toContain('DATABASE_URL is required');
    }
  });

  it('refuses a short JWT secret and a bad port', () => {
    expect(() => loadConfig({ DATA_DIR: tmp(), JWT_SECRET: 'short' })).toThrow(/at least 32 characters/);
    expect(() => loadConfig({ DATA_DIR: tmp(), PORT: 'eighty' })).toThrow(ConfigError);
  });

  it('does not make the demo admin an admin in production', () => {
    const config = loadConfig({ ...productionEnv, ADMIN_EMAILS: 'Ops@OffZero.com' });
    expect(config.adminEmails).toEqual(['ops@offzero.com']);
    expect(config.bitcoinNetwork).toBe('mainnet');
  });
});

/** Every variable production requires, with harmless values, so a test can vary one thing. */
const productionEnv = {
  APP_MODE: 'production',
  DATABASE_URL: 'postgres://db/offzero',
  JWT_SECRET: 'x'.repeat(40),
  DATA_ENCRYPTION_KEY: Buffer.alloc(32, 3).toString('base64'),
  PUBLIC_URL: 'https://offzero.com',
  ADMIN_EMAILS: 'ops@offzero.com',
  SMTP_URL: 'smtp://mail',
  MAIL_FROM: 'OffZero <no-reply@offzero.com>',
  TWILIO_ACCOUNT_SID: 'AC1',
  TWILIO_AUTH_TOKEN: 't',
  TWILIO_FROM_NUMBER: '+15005550006',
  EXPLORER_URL: 'https://mempool.space',
  SUMSUB_APP_TOKEN: 'sbx:app',
  SUMSUB_SECRET_KEY: 'secret',
  SUMSUB_WEBHOOK_SECRET: 'webhook-secret',
  PAYPAL_CLIENT_ID: 'paypal-client',
  PAYPAL_CLIENT_SECRET: 'paypal-secret',
  PAYPAL_WEBHOOK_ID: 'WH0PAYPAL0TEST',
  INCREASE_API_KEY: 'increase-key',
  INCREASE_ACCOUNT_ID: 'account_in71c4amph0vgo2qllky',
  INCREASE_SOURCE_ACCOUNT_NUMBER_ID: 'account_number_v18nkfqm6afpsrvy82b2',
  INCREASE_WEBHOOK_SECRET: 'whsec_test',
  ESPLORA_URL: 'http://127.0.0.1:1/api',
  DEPOSIT_XPUB:
    'zpub6rFR7y4Q2AijBEqTUquhVz398htDFrtymD9xYYfG1m4wAcvPhXNfE3EfH1r1ADqtfSdVCToUG868RvUUkgDKf31mGDtKsAYz2oz2AGutZYs',
};

describe('TRUST_PROXY', () => {
  const trustProxy = (value: string) => loadConfig({ DATA_DIR: tmp(), TRUST_PROXY: value }).trustProxy;

  it('trusts no proxy by default, or when empty, false or 0', () => {
    expect(loadConfig({ DATA_DIR: tmp() }).trustProxy).toBe(false);
    for (const value of ['', 'false', '0']) expect(trustProxy(value)).toBe(false);
  });

  it('takes a hop count', () => {
    expect(trustProxy('1')).toBe(1);
    expect(trustProxy(' 2 ')).toBe(2);
    expect(() => trustProxy('1000')).toThrow(/TRUST_PROXY: 1000 proxy hops/);
  });

  it('takes a list of addresses, CIDR networks and private-range names', () => {
    expect(trustProxy('10.0.0.0/8, 127.0.0.1,::1,fd00::/8,loopback,uniquelocal')).toEqual([
      '10.0.0.0/8',
      '127.0.0.1',
      '::1',
      'fd00::/8',
      'loopback',
      'uniquelocal',
    ]);
  });

  it('refuses "true" with a message that says what to set instead', () => {
    for (const value of ['true', 'TRUE']) {
      try {
        trustProxy(value);
        expect.unreachable();
      } catch (error) {
        expect(error).toBeInstanceOf(ConfigError);
        expect((error as ConfigError).message).toMatch(
          /TRUST_PROXY: true would trust any client-supplied X-Forwarded-For; set the number of proxies/,
        );
      }
    }
  });

  it('refuses networks that mean everyone, and entries that are not addresses', () => {
    expect(() => trustProxy('0.0.0.0/0')).toThrow(/"0\.0\.0\.0\/0"/);
    expect(() => trustProxy('::/0')).toThrow(/a \/0 network would trust everyone/);
    expect(() => trustProxy('10.0.0.0/33')).toThrow(/"10\.0\.0\.0\/33"/);
    expect(() => trustProxy('10.0.0.1,proxy.internal')).toThrow(/"proxy\.internal"/);
    expect(() => trustProxy('yes')).toThrow(ConfigError);
  });

  it('turns a hop count into a trust function: the nearest hops are proxies, the next is the client', () => {
    const trust = toFastifyTrustProxy(1);
    if (typeof trust !== 'function') throw new Error('expected a function');
    expect(trust('10.0.0.5', 0)).toBe(true);
    expect(trust('203.0.113.9', 1)).toBe(false);
    expect(toFastifyTrustProxy(['10.0.0.0/8'])).toEqual(['10.0.0.0/8']);
    expect(toFastifyTrustProxy(false)).toBe(false);
  });
});

describe('process role, migrations at start and HTTP timeouts', () => {
  it('runs every role in one process by default, and refuses an unknown role', () => {
    expect(loadConfig({ DATA_DIR: tmp() }).processRole).toBe('all');
    expect(loadConfig({ DATA_DIR: tmp(), PROCESS_ROLE: 'worker' }).processRole).toBe('worker');
    expect(loadConfig({ DATA_DIR: tmp(), PROCESS_ROLE: 'web' }).processRole).toBe('web');
    expect(() => loadConfig({ DATA_DIR: tmp(), PROCESS_ROLE: 'jobs' })).toThrow(/PROCESS_ROLE/);
  });

  it('migrates at start in demo always, in production only with MIGRATE_ON_START=true', () => {
    expect(loadConfig({ DATA_DIR: tmp() }).migrateOnStart).toBe(true);
    expect(loadConfig({ DATA_DIR: tmp(), MIGRATE_ON_START: 'false' }).migrateOnStart).toBe(true);
    expect(loadConfig({ ...productionEnv, DATA_DIR: tmp() }).migrateOnStart).toBe(false);
    expect(loadConfig({ ...productionEnv, DATA_DIR: tmp(), MIGRATE_ON_START: 'true' }).migrateOnStart).toBe(
      true,
    );
    expect(() => loadConfig({ ...productionEnv, DATA_DIR: tmp(), MIGRATE_ON_START: 'yes' })).toThrow(
      /MIGRATE_ON_START/,
    );
  });

  it('keeps idle connections open longer than a load balancer does, and bounds slow requests', () => {
    expect(loadConfig({ DATA_DIR: tmp() }).httpTimeouts).toEqual({
      connectionMs: 60_000,
      keepAliveMs: 72_000,
      requestMs: 30_000,
    });
    expect(
      loadConfig({ DATA_DIR: tmp(), HTTP_KEEP_ALIVE_TIMEOUT_SECONDS: '650' }).httpTimeouts.keepAliveMs,
    ).toBe(650_000);
  });
});

describe('shutdown, load shedding and metrics', () => {
  it('drains 5 s before stopping in production and not at all in demo, unless told', () => {
    expect(loadConfig({ DATA_DIR: tmp() }).shutdownDrainMs).toBe(0);
    expect(loadConfig({ ...productionEnv, DATA_DIR: tmp() }).shutdownDrainMs).toBe(5_000);
    expect(
      loadConfig({ ...productionEnv, DATA_DIR: tmp(), SHUTDOWN_DRAIN_SECONDS: '2.5' }).shutdownDrainMs,
    ).toBe(2_500);
    expect(loadConfig({ DATA_DIR: tmp(), SHUTDOWN_DRAIN_SECONDS: '0' }).shutdownDrainMs).toBe(0);
    expect(() => loadConfig({ DATA_DIR: tmp(), SHUTDOWN_DRAIN_SECONDS: '-1' })).toThrow(
      /SHUTDOWN_DRAIN_SECONDS/,
    );
  });

  it('sheds load at a 1 s event loop delay and near the heap limit by default; each limit can change or be off', () => {
    const defaults = loadConfig({ DATA_DIR: tmp() }).loadShedding;
    expect(defaults.maxEventLoopDelayMs).toBe(1_000);
    expect(defaults.retryAfterSeconds).toBe(10);
    // Generous: well above what a healthy process uses.
    expect(defaults.maxHeapUsedBytes).toBeGreaterThan(256 * 1024 * 1024);
    expect(defaults.maxRssBytes === 0 || defaults.maxRssBytes > 256 * 1024 * 1024).toBe(true);

    expect(
      loadConfig({
        DATA_DIR: tmp(),
        LOAD_SHED_MAX_EVENT_LOOP_DELAY_MS: '0',
        LOAD_SHED_MAX_HEAP_USED_MB: '512',
        LOAD_SHED_MAX_RSS_MB: '0',
        LOAD_SHED_RETRY_AFTER_SECONDS: '30',
      }).loadShedding,
    ).toEqual({
      maxEventLoopDelayMs: 0,
      maxHeapUsedBytes: 512 * 1024 * 1024,
      maxRssBytes: 0,
      retryAfterSeconds: 30,
    });
    expect(() => loadConfig({ DATA_DIR: tmp(), LOAD_SHED_MAX_HEAP_USED_MB: 'lots' })).toThrow(
      /LOAD_SHED_MAX_HEAP_USED_MB/,
    );
  });

  it('keeps twice the cores in PostgreSQL connections per process (4 to 10) unless DATABASE_POOL_MAX says', () => {
    const cores = os.availableParallelism();
    expect(loadConfig({ DATA_DIR: tmp() }).databasePoolMax).toBe(Math.min(10, Math.max(4, 2 * cores)));
    expect(loadConfig({ DATA_DIR: tmp(), DATABASE_POOL_MAX: '25' }).databasePoolMax).toBe(25);
    for (const bad of ['0', '-3', '101', '2.5', 'lots']) {
      expect(() => loadConfig({ DATA_DIR: tmp(), DATABASE_POOL_MAX: bad }), bad).toThrow(/DATABASE_POOL_MAX/);
    }
  });

  it('takes a metrics token of at least 16 characters', () => {
    expect(loadConfig({ ...productionEnv, DATA_DIR: tmp() }).metricsToken).toBeUndefined();
    expect(
      loadConfig({ ...productionEnv, DATA_DIR: tmp(), METRICS_TOKEN: 'a-long-enough-metrics-token' })
        .metricsToken,
    ).toBe('a-long-enough-metrics-token');
    expect(() => loadConfig({ ...productionEnv, DATA_DIR: tmp(), METRICS_TOKEN: 'short' })).toThrow(
      /METRICS_TOKEN must be at least 16 characters/,
    );
  });
});

describe('loadDatabaseConfig', () => {
  it('reads only where the database is, so migrating needs none of the providers’ secrets', () => {
    const dataDir = tmp();
    expect(loadDatabaseConfig({ APP_MODE: 'production', DATA_DIR: dataDir })).toEqual({
      databaseUrl: undefined,
      dataDir,
      poolMax: loadConfig({ DATA_DIR: dataDir }).databasePoolMax,
    });
    expect(loadDatabaseConfig({ DATABASE_URL: 'postgres://db/offzero' }).databaseUrl).toBe(
      'postgres://db/offzero',
    );
    expect(loadDatabaseConfig({ DATABASE_POOL_MAX: '3' }).poolMax).toBe(3);
    expect(() => loadDatabaseConfig({ DATABASE_POOL_MAX: 'many' })).toThrow(/DATABASE_POOL_MAX/);
  });
});

describe('demo safety', () => {
  it('keeps demo mode on loopback unless DEMO_PUBLIC=true', () => {
    for (const host of ['localhost', '127.0.0.1', '::1', '[::1]']) {
      expect(loadConfig({ DATA_DIR: tmp(), HOST: host }).host).toBe(host);
    }
    for (const host of ['0.0.0.0', '::', '10.0.1.11']) {
      expect(() => loadConfig({ DATA_DIR: tmp(), HOST: host })).toThrow(ConfigError);
      expect(() => loadConfig({ DATA_DIR: tmp(), HOST: host })).toThrow(/HOST.*DEMO_PUBLIC=true/s);
    }
    expect(loadConfig({ DATA_DIR: tmp(), HOST: '0.0.0.0', DEMO_PUBLIC: 'true' }).host).toBe('0.0.0.0');
    expect(() => loadConfig({ DATA_DIR: tmp(), HOST: '0.0.0.0', DEMO_PUBLIC: '' })).toThrow(/DEMO_PUBLIC/);
  });

  it('lets production listen on any interface', () => {
    expect(loadConfig({ ...productionEnv, DATA_DIR: tmp(), HOST: '0.0.0.0' }).host).toBe('0.0.0.0');
  });

  it('reads an empty KYC_AUTO_APPROVE_SECONDS as off, not as zero', () => {
    expect(
      loadConfig({ DATA_DIR: tmp(), KYC_AUTO_APPROVE_SECONDS: '' }).kycAutoApproveSeconds,
    ).toBeUndefined();
    expect(
      loadConfig({ DATA_DIR: tmp(), KYC_AUTO_APPROVE_SECONDS: ' ' }).kycAutoApproveSeconds,
    ).toBeUndefined();
    expect(loadConfig({ DATA_DIR: tmp(), KYC_AUTO_APPROVE_SECONDS: '0' }).kycAutoApproveSeconds).toBe(0);
    expect(loadConfig({ DATA_DIR: tmp(), KYC_AUTO_APPROVE_SECONDS: '30' }).kycAutoApproveSeconds).toBe(30);
    expect(() => loadConfig({ DATA_DIR: tmp(), KYC_AUTO_APPROVE_SECONDS: 'soon' })).toThrow(
      /KYC_AUTO_APPROVE_SECONDS/,
    );
  });
});

describe('data encryption key', () => {
  it('keeps a random key in the data folder in demo, and refuses a key that is not 32 bytes', () => {
    const dataDir = mkdtempSync(path.join(os.tmpdir(), 'offzero-key-'));
    const first = loadConfig({ DATA_DIR: dataDir });
    expect(first.dataEncryption.current).toHaveLength(32);
    expect(
      loadConfig({ DATA_DIR: dataDir }).dataEncryption.current.equals(first.dataEncryption.current),
    ).toBe(true);
    expect(() => loadConfig({ DATA_DIR: dataDir, DATA_ENCRYPTION_KEY: 'short' })).toThrow(/32 random bytes/);
    expect(() =>
      loadConfig({
        DATA_DIR: dataDir,
        DATA_ENCRYPTION_PREVIOUS_KEYS: `${Buffer.alloc(32).toString('base64')},nope`,
      }),
    ).toThrow(/32 random bytes/);
  });
});
