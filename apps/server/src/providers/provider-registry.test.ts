import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Fastify, { type FastifyBaseLogger } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig, type AppConfig } from '../config/config';
import type { DatabaseHandle } from '../db/database';
import { DEMO_ACCOUNT_VPUB } from '../rails/onchain/deposit-address';
import { createTestApp, createTestDatabase } from '../test/test-app';
import { createProviders, isDemoPayPalSandbox, isSimulatedChain, type Providers } from './provider-registry';

const tmp = () => mkdtempSync(path.join(os.tmpdir(), 'offzero-providers-'));

/** BIP84's own mainnet account key (m/84'/0'/0' of the 'abandon … about' mnemonic). */
const MAINNET_ZPUB =
  'zpub6rFR7y4Q2AijBEqTUquhVz398htDFrtymD9xYYfG1m4wAcvPhXNfE3EfH1r1ADqtfSdVCToUG868RvUUkgDKf31mGDtKsAYz2oz2AGutZYs';

/** Every real provider's variables, with values that must never appear in a log or an error. */
const PROVIDER_ENV = {
  SMTP_URL: 'smtps://mailer:smtp-password-1@smtp.example.com:465',
  MAIL_FROM: 'OffZero <no-reply@offzero.example>',
  TWILIO_ACCOUNT_SID: 'AC-twilio-sid-2',
  TWILIO_AUTH_TOKEN: 'twilio-token-3',
  TWILIO_FROM_NUMBER: '+15005550006',
  SUMSUB_APP_TOKEN: 'sbx:sumsub-app-4',
  SUMSUB_SECRET_KEY: 'sumsub-secret-5',
  SUMSUB_WEBHOOK_SECRET: 'sumsub-webhook-6',
  PAYPAL_CLIENT_ID: 'paypal-client-7',
  PAYPAL_CLIENT_SECRET: 'paypal-secret-8',
  PAYPAL_WEBHOOK_ID: 'WH0PAYPAL0WEBHOOK10',
  INCREASE_API_KEY: 'increase-key-11',
  INCREASE_ACCOUNT_ID: 'account_in71c4amph0vgo2qllky',
  INCREASE_SOURCE_ACCOUNT_NUMBER_ID: 'account_number_v18nkfqm6afpsrvy82b2',
  INCREASE_WEBHOOK_SECRET: 'whsec_increase12',
  ESPLORA_URL: 'http://127.0.0.1:1/esplora-9',
  DEPOSIT_XPUB: MAINNET_ZPUB,
};
const PROVIDER_VARIABLE_NAMES = Object.keys(PROVIDER_ENV);

const PRODUCTION_BASE = {
  APP_MODE: 'production',
  DATABASE_URL: 'postgres://db/offzero',
  JWT_SECRET: 'x'.repeat(40),
  PUBLIC_URL: 'https://offzero.example',
  ADMIN_EMAILS: 'ops@offzero.example',
  EXPLORER_URL: 'https://mempool.space',
  DATA_ENCRYPTION_KEY: 'AAECAwQFBgcICQoLDA0ODxAREhMUFRYXGBkaGxwdHh8=',
  // Never reached: nothing here fetches a price.
  COINBASE_API_URL: 'http://127.0.0.1:1/coinbase',
  KRAKEN_API_URL: 'http://127.0.0.1:1/kraken',
};

/** A real Fastify logger whose lines the test reads back. */
function capturingLog(): { log: FastifyBaseLogger; lines: { level: number; msg: string }[] } {
  const lines: { level: number; msg: string }[] = [];
  const app = Fastify({
    logger: { level: 'info', stream: { write: (line: string) => lines.push(JSON.parse(line)) } },
  });
  return { log: app.log, lines };
}

const WARN = 40;

/** The kind or name of each adapter, so a test reads which one it got at a glance. */
function kindsOf(providers: Providers) {
  return {
    paypal: providers.paypal.kind,
    bank: providers.bank.kind,
    kyc: providers.kyc.kind,
    priceSources: providers.priceSources.map((source) => source.name),
    chain: providers.chain.kind,
    email: providers.email.kind,
    sms: providers.sms.kind,
  };
}

function errorOf(action: () => unknown): ConfigError {
  try {
    action();
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError);
    return error as ConfigError;
  }
  throw new Error('expected a ConfigError');
}

describe('provider registry', () => {
  let database: DatabaseHandle;
  let drop: () => Promise<void>;
  beforeAll(async () => {
    ({ handle: database, drop } = await createTestDatabase());
  });
  afterAll(async () => {
    await database.close();
    await drop();
  });

  describe('demo mode', () => {
    it('gets every stand-in even with every real provider configured, and warns once naming the variables', () => {
      const config = loadConfig({ DATA_DIR: tmp(), ...PROVIDER_ENV, PAYPAL_API_URL: 'http://127.0.0.1:1' });
      const { log, lines } = capturingLog();
      const providers = createProviders(config, database.db, log);

      expect(kindsOf(providers)).toEqual({
        paypal: 'demo',
        bank: 'demo',
        kyc: 'local',
        priceSources: ['demo'],
        chain: 'simulated',
        email: 'outbox',
        sms: 'outbox',
      });
      expect(isDemoPayPalSandbox(providers.paypal)).toBe(true);
      expect(providers.paypal.clientId).toBeNull();
      expect(providers.kyc.isWebhookAuthentic).toBeUndefined();
      expect(isSimulatedChain(providers.chain)).toBe(true);
      expect(providers.depositAccountKey).toBe(DEMO_ACCOUNT_VPUB);
      expect(providers.googleSignIn).toBeNull();

      const warnings = lines.filter((line) => line.level === WARN);
      expect(warnings).toHaveLength(1);
      for (const name of [...PROVIDER_VARIABLE_NAMES, 'PAYPAL_API_URL']) {
        expect(warnings[0]!.msg).toContain(name);
      }
      const everything = JSON.stringify(lines);
      for (const value of Object.values(PROVIDER_ENV)) expect(everything).not.toContain(value);
    });

    it('does not even read the real settings into the demo configuration', () => {
      const config = loadConfig({ DATA_DIR: tmp(), ...PROVIDER_ENV });
      expect(config).toMatchObject({
        mail: undefined,
        twilio: undefined,
        sumsub: undefined,
        paypal: undefined,
        increase: undefined,
        esploraUrl: undefined,
        depositXpub: undefined,
      });
      expect(config.providerVariablesSet).toEqual(expect.arrayContaining(PROVIDER_VARIABLE_NAMES));
    });

    it('chooses by mode alone: a demo configuration carrying real settings still gets stand-ins', () => {
      const production = loadConfig({ ...PRODUCTION_BASE, DATA_DIR: tmp(), ...PROVIDER_ENV });
      const config: AppConfig = { ...production, mode: 'demo', isDemo: true, bitcoinNetwork: 'testnet' };
      const providers = createProviders(config, database.db, capturingLog().log);
      expect(kindsOf(providers)).toMatchObject({ paypal: 'demo', kyc: 'local', chain: 'simulated' });
      expect(providers.depositAccountKey).toBe(DEMO_ACCOUNT_VPUB);
    });

    it('stays silent when no real provider is configured', () => {
      const { log, lines } = capturingLog();
      createProviders(loadConfig({ DATA_DIR: tmp() }), database.db, log);
      expect(lines.filter((line) => line.level === WARN)).toEqual([]);
    });

    it('refuses mainnet, which its testnet chain and deposit key cannot serve', () => {
      const error = errorOf(() => loadConfig({ DATA_DIR: tmp(), BITCOIN_NETWORK: 'mainnet' }));
      expect(error.message).toContain('BITCOIN_NETWORK');
    });

    it('keeps real money out of an app started in demo with PayPal credentials set', async () => {
      const t = await createTestApp({
        PAYPAL_CLIENT_ID: PROVIDER_ENV.PAYPAL_CLIENT_ID,
        PAYPAL_CLIENT_SECRET: PROVIDER_ENV.PAYPAL_CLIENT_SECRET,
        SUMSUB_APP_TOKEN: PROVIDER_ENV.SUMSUB_APP_TOKEN,
        SUMSUB_SECRET_KEY: PROVIDER_ENV.SUMSUB_SECRET_KEY,
        SUMSUB_WEBHOOK_SECRET: PROVIDER_ENV.SUMSUB_WEBHOOK_SECRET,
      });
      try {
        expect(t.app.providers.paypal.kind).toBe('demo');
        const appConfig = (await t.app.inject({ method: 'GET', url: '/api/app-config' })).json();
        expect(appConfig).toMatchObject({ mode: 'demo', paypalClientId: null });
        const webhook = await t.app.inject({
          method: 'POST',
          url: '/api/kyc/webhook/sumsub',
          headers: { 'content-type': 'application/json' },
          payload: '{}',
        });
        expect(webhook.statusCode).toBe(404);
      } finally {
        await t.close();
      }
    });
  });

  describe('production mode', () => {
    it('gets every real adapter', () => {
      const config = loadConfig({ ...PRODUCTION_BASE, DATA_DIR: tmp(), ...PROVIDER_ENV });
      const { log, lines } = capturingLog();
      const providers = createProviders(config, database.db, log);

      expect(kindsOf(providers)).toEqual({
        paypal: 'paypal',
        bank: 'increase',
        kyc: 'sumsub',
        priceSources: ['coinbase', 'kraken'],
        chain: 'esplora',
        email: 'smtp',
        sms: 'twilio',
      });
      expect(isDemoPayPalSandbox(providers.paypal)).toBe(false);
      expect(providers.paypal.clientId).toBe(PROVIDER_ENV.PAYPAL_CLIENT_ID);
      expect(providers.kyc.isWebhookAuthentic).toBeTypeOf('function');
      expect(isSimulatedChain(providers.chain)).toBe(false);
      expect(providers.depositAccountKey).toBe(MAINNET_ZPUB);
      expect(lines.filter((line) => line.level === WARN)).toEqual([]);
    });

    it('offers Google sign-in, in either mode, only when GOOGLE_CLIENT_ID is set', () => {
      const clientId = 'offzero.apps.googleusercontent.com';
      for (const env of [{ ...PRODUCTION_BASE, ...PROVIDER_ENV }, { APP_MODE: 'demo' }] as Record<
        string,
        string
      >[]) {
        const without = createProviders(
          loadConfig({ ...env, DATA_DIR: tmp() }),
          database.db,
          capturingLog().log,
        );
        expect(without.googleSignIn).toBeNull();
        const config = loadConfig({ ...env, DATA_DIR: tmp(), GOOGLE_CLIENT_ID: clientId });
        const withGoogle = createProviders(config, database.db, capturingLog().log);
        expect(withGoogle.googleSignIn?.clientId).toBe(clientId);
        expect(withGoogle.googleSignIn?.verifyIdToken).toBeTypeOf('function');
      }
    });

    it('refuses to start without its providers and names every missing variable at once', () => {
      const error = errorOf(() => loadConfig({ ...PRODUCTION_BASE, DATA_DIR: tmp() }));
      for (const name of PROVIDER_VARIABLE_NAMES) expect(error.message).toContain(`${name} is required`);
      expect(error.message).not.toContain('DATABASE_URL is required');

      // The registry refuses on its own too, whoever built the configuration.
      const complete = loadConfig({ ...PRODUCTION_BASE, DATA_DIR: tmp(), ...PROVIDER_ENV });
      const stripped: AppConfig = {
        ...complete,
        providerVariablesSet: [],
        mail: undefined,
        twilio: undefined,
        sumsub: undefined,
        paypal: undefined,
        increase: undefined,
        esploraUrl: undefined,
        depositXpub: undefined,
      };
      const registryError = errorOf(() => createProviders(stripped, database.db, capturingLog().log));
      expect(registryError.problems).toHaveLength(PROVIDER_VARIABLE_NAMES.length);
      for (const name of PROVIDER_VARIABLE_NAMES) {
        expect(registryError.message).toContain(`${name} is required in production mode`);
      }
    });

    it('names only the variables actually missing from a partly configured provider', () => {
      const { MAIL_FROM: _mailFrom, TWILIO_AUTH_TOKEN: _token, ...partial } = PROVIDER_ENV;
      const error = errorOf(() => loadConfig({ ...PRODUCTION_BASE, DATA_DIR: tmp(), ...partial }));
      expect(error.problems).toEqual([
        'MAIL_FROM is required in production mode',
        'TWILIO_AUTH_TOKEN is required in production mode',
      ]);
    });

    it('turns an unusable DEPOSIT_XPUB into a configuration error that names it, never a stack trace', () => {
      for (const badKey of [
        DEMO_ACCOUNT_VPUB, // a testnet key on mainnet
        'xprv9s21ZrQH143K3QTDL4LXw2F7HEK3wJUD2nW2nRk4stbPy6cq3jPPqjiChkVvvNKmPGJxWUtg6LnF5kejMRNNU3TGtRBeJgk33yuGBxrMPHi',
        'zpub-not-a-key',
      ]) {
        const config = loadConfig({
          ...PRODUCTION_BASE,
          DATA_DIR: tmp(),
          ...PROVIDER_ENV,
          DEPOSIT_XPUB: badKey,
        });
        const error = errorOf(() => createProviders(config, database.db, capturingLog().log));
        expect(error.problems).toHaveLength(1);
        expect(error.message).toContain('DEPOSIT_XPUB: ');
        expect(error.message).not.toContain(badKey);
      }
    });

    it('reports a malformed ESPLORA_URL the same way', () => {
      const config = loadConfig({
        ...PRODUCTION_BASE,
        DATA_DIR: tmp(),
        ...PROVIDER_ENV,
        ESPLORA_URL: 'not a url',
      });
      const error = errorOf(() => createProviders(config, database.db, capturingLog().log));
      expect(error.problems).toEqual([expect.stringMatching(/^ESPLORA_URL: .*http\(s\) URL/)]);
    });
  });
});
