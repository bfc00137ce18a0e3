import { describe, expect, it } from 'vitest';
import { mkdtempSync, readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ConfigError, loadConfig } from './config';

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
        'PUBLIC_URL',
        'SMTP_URL',
        'MAIL_FROM',
        'TWILIO_ACCOUNT_SID',
        'ADMIN_EMAILS',
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
    const config = loadConfig({
      APP_MODE: 'production',
      DATABASE_URL: 'postgres://db/offzero',
      JWT_SECRET: 'x'.repeat(40),
      PUBLIC_URL: 'https://offzero.com',
      ADMIN_EMAILS: 'Ops@OffZero.com',
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
      ESPLORA_URL: 'http://127.0.0.1:1/api',
      DEPOSIT_XPUB:
        'zpub6rFR7y4Q2AijBEqTUquhVz398htDFrtymD9xYYfG1m4wAcvPhXNfE3EfH1r1ADqtfSdVCToUG868RvUUkgDKf31mGDtKsAYz2oz2AGutZYs',
    });
    expect(config.adminEmails).toEqual(['ops@offzero.com']);
    expect(config.bitcoinNetwork).toBe('mainnet');
  });
});
