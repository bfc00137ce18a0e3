import type { AppConfig } from './app-config';
import type { Env, EnvVariable } from './env-schema';

/**
 * The outside providers' variables, by provider. Production needs every one of them; demo never uses
 * them (its stand-ins need none), and `providers/provider-registry.ts` warns when they are set there.
 */
export const PROVIDER_VARIABLES = {
  email: ['SMTP_URL', 'MAIL_FROM'],
  sms: ['TWILIO_ACCOUNT_SID', 'TWILIO_AUTH_TOKEN', 'TWILIO_FROM_NUMBER'],
  kyc: ['SUMSUB_APP_TOKEN', 'SUMSUB_SECRET_KEY', 'SUMSUB_WEBHOOK_SECRET'],
  paypal: ['PAYPAL_CLIENT_ID', 'PAYPAL_CLIENT_SECRET', 'PAYPAL_WEBHOOK_ID'],
  chain: ['ESPLORA_URL'],
  depositAccountKey: ['DEPOSIT_XPUB'],
  bank: [
    'INCREASE_API_KEY',
    'INCREASE_ACCOUNT_ID',
    'INCREASE_SOURCE_ACCOUNT_NUMBER_ID',
    'INCREASE_WEBHOOK_SECRET',
  ],
} as const satisfies Record<string, readonly EnvVariable[]>;

/** Provider variables with a default (API bases, the Sumsub level): optional, but real-provider only. */
const PROVIDER_TUNING_VARIABLES = [
  'TWILIO_API_URL',
  'SUMSUB_LEVEL_NAME',
  'SUMSUB_API_URL',
  'PAYPAL_API_URL',
  'INCREASE_API_URL',
  'COINBASE_API_URL',
  'KRAKEN_API_URL',
  'PHOENIXD_URL',
  'PHOENIXD_PASSWORD',
  'PHOENIXD_WEBHOOK_SECRET',
] as const satisfies readonly EnvVariable[];

const ALL_PROVIDER_VARIABLES = [...Object.values(PROVIDER_VARIABLES).flat(), ...PROVIDER_TUNING_VARIABLES];

/** The outside providers' part of the configuration. */
type ProviderConfig = Pick<
  AppConfig,
  | 'providerVariablesSet'
  | 'mail'
  | 'twilio'
  | 'sumsub'
  | 'paypal'
  | 'increase'
  | 'priceSources'
  | 'esploraUrl'
  | 'depositXpub'
  | 'payoutWalletXpub'
  | 'phoenixd'
>;

/** The real providers' settings, read in production only, and the names of those set. */
export function providerConfig(
  e: Env,
  isDemo: boolean,
  env: Record<string, string | undefined>,
): ProviderConfig {
  // Demo runs on stand-ins only, so the real providers' settings are never even read into the config.
  const real = isDemo ? undefined : e;
  return {
    providerVariablesSet: ALL_PROVIDER_VARIABLES.filter((name) => (env[name] ?? '').trim() !== ''),
    mail: real?.SMTP_URL && real.MAIL_FROM ? { smtpUrl: real.SMTP_URL, from: real.MAIL_FROM } : undefined,
    twilio:
      real?.TWILIO_ACCOUNT_SID && real.TWILIO_AUTH_TOKEN && real.TWILIO_FROM_NUMBER
        ? {
            accountSid: real.TWILIO_ACCOUNT_SID,
            authToken: real.TWILIO_AUTH_TOKEN,
            fromNumber: real.TWILIO_FROM_NUMBER,
            apiUrl: real.TWILIO_API_URL.replace(/\/+$/, ''),
          }
        : undefined,
    sumsub:
      real?.SUMSUB_APP_TOKEN && real.SUMSUB_SECRET_KEY && real.SUMSUB_WEBHOOK_SECRET
        ? {
            appToken: real.SUMSUB_APP_TOKEN,
            secretKey: real.SUMSUB_SECRET_KEY,
            webhookSecret: real.SUMSUB_WEBHOOK_SECRET,
            levelName: real.SUMSUB_LEVEL_NAME,
            apiUrl: real.SUMSUB_API_URL.replace(/\/+$/, ''),
          }
        : undefined,
    paypal:
      real?.PAYPAL_CLIENT_ID && real.PAYPAL_CLIENT_SECRET && real.PAYPAL_WEBHOOK_ID
        ? {
            clientId: real.PAYPAL_CLIENT_ID,
            clientSecret: real.PAYPAL_CLIENT_SECRET,
            webhookId: real.PAYPAL_WEBHOOK_ID,
            apiUrl: real.PAYPAL_API_URL.replace(/\/+$/, ''),
          }
        : undefined,
    increase:
      real?.INCREASE_API_KEY &&
      real.INCREASE_ACCOUNT_ID &&
      real.INCREASE_SOURCE_ACCOUNT_NUMBER_ID &&
      real.INCREASE_WEBHOOK_SECRET
        ? {
            apiKey: real.INCREASE_API_KEY,
            accountId: real.INCREASE_ACCOUNT_ID,
            sourceAccountNumberId: real.INCREASE_SOURCE_ACCOUNT_NUMBER_ID,
            webhookSecret: real.INCREASE_WEBHOOK_SECRET,
            apiUrl: real.INCREASE_API_URL.replace(/\/+$/, ''),
          }
        : undefined,
    priceSources: {
      coinbaseUrl: e.COINBASE_API_URL.replace(/\/+$/, ''),
      krakenUrl: e.KRAKEN_API_URL.replace(/\/+$/, ''),
    },
    esploraUrl: real?.ESPLORA_URL?.replace(/\/+$/, ''),
    depositXpub: real?.DEPOSIT_XPUB,
    payoutWalletXpub: real?.PAYOUT_WALLET_XPUB,
    phoenixd:
      real?.PHOENIXD_URL && real.PHOENIXD_PASSWORD && real.PHOENIXD_WEBHOOK_SECRET
        ? {
            url: real.PHOENIXD_URL.replace(/\/+$/, ''),
            password: real.PHOENIXD_PASSWORD,
            webhookSecret: real.PHOENIXD_WEBHOOK_SECRET,
          }
        : undefined,
  };
}
