import { randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { z } from 'zod';

/**
 * All configuration, read once from the environment at start-up. Nothing else in the server reads
 * `process.env`: everything receives this object.
 */
const optionalText = z
  .string()
  .trim()
  .transform((value) => (value === '' ? undefined : value))
  .optional();

const envSchema = z.object({
  APP_MODE: z.enum(['demo', 'production']).default('demo'),
  HOST: z.string().trim().min(1).default('localhost'),
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  PUBLIC_URL: optionalText,
  DATA_DIR: z.string().trim().min(1).default('./data'),
  DATABASE_URL: optionalText,
  REDIS_URL: optionalText,
  JWT_SECRET: optionalText,
  SESSION_TTL_SECONDS: z.coerce.number().int().min(300).max(2_592_000).default(604_800),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  TRUST_PROXY: z
    .enum(['true', 'false', ''])
    .default('false')
    .transform((value) => value === 'true'),
  WEB_DIST_DIR: optionalText,
  SUPPORT_EMAIL: z.string().trim().default('support@offzero.com'),
  BLOG_URL: z.string().trim().default('https://blog.offzero.com'),
  POSTAL_ADDRESS: z.string().trim().default('1621 Central Ave, Cheyenne, WY 82001, USA'),
  ADMIN_EMAILS: z.string().default(''),
  BITCOIN_NETWORK: z.enum(['mainnet', 'testnet', 'regtest']).optional(),
  EXPLORER_URL: optionalText,
  SMTP_URL: optionalText,
  MAIL_FROM: optionalText,
  TWILIO_ACCOUNT_SID: optionalText,
  TWILIO_AUTH_TOKEN: optionalText,
  TWILIO_FROM_NUMBER: optionalText,
  TWILIO_API_URL: z.string().trim().default('https://api.twilio.com'),
  OTP_SENDS_PER_IP: z.coerce.number().int().min(1).default(20),
  OTP_VERIFIES_PER_IP: z.coerce.number().int().min(1).default(60),
  SUMSUB_APP_TOKEN: optionalText,
  SUMSUB_SECRET_KEY: optionalText,
  SUMSUB_WEBHOOK_SECRET: optionalText,
  SUMSUB_LEVEL_NAME: z.string().trim().default('basic-kyc-level'),
  SUMSUB_API_URL: z.string().trim().default('https://api.sumsub.com'),
  KYC_AUTO_APPROVE_SECONDS: z.coerce.number().int().min(0).optional(),
  PAYPAL_CLIENT_ID: optionalText,
  PAYPAL_CLIENT_SECRET: optionalText,
  PAYPAL_API_URL: z.string().trim().default('https://api-m.paypal.com'),
  COINBASE_API_URL: z.string().trim().default('https://api.coinbase.com'),
  KRAKEN_API_URL: z.string().trim().default('https://api.kraken.com'),
  ESPLORA_URL: optionalText,
  DEPOSIT_XPUB: optionalText,
  DEPOSIT_CONFIRMATIONS: z.coerce.number().int().min(1).max(100).optional(),
  CHAIN_POLL_SECONDS: z.coerce.number().min(0.5).max(600).optional(),
  PRICE_REFRESH_SECONDS: z.coerce.number().int().min(5).max(3600).default(60),
  GOOGLE_CLIENT_ID: optionalText,
  GOOGLE_JWKS_URL: z.string().trim().default('https://www.googleapis.com/oauth2/v3/certs'),
});

/** What production cannot run without; demo has a local stand-in for each. */
const requiredInProduction = [
  'DATABASE_URL',
  'JWT_SECRET',
  'PUBLIC_URL',
  'ADMIN_EMAILS',
  'SMTP_URL',
  'MAIL_FROM',
  'TWILIO_ACCOUNT_SID',
  'TWILIO_AUTH_TOKEN',
  'TWILIO_FROM_NUMBER',
  'EXPLORER_URL',
  'SUMSUB_APP_TOKEN',
  'SUMSUB_SECRET_KEY',
  'SUMSUB_WEBHOOK_SECRET',
  'PAYPAL_CLIENT_ID',
  'PAYPAL_CLIENT_SECRET',
  'ESPLORA_URL',
  'DEPOSIT_XPUB',
] as const;

export class ConfigError extends Error {
  constructor(public readonly problems: string[]) {
    super(`OffZero cannot start; fix its configuration:\n  - ${problems.join('\n  - ')}`);
    this.name = 'ConfigError';
  }
}

export interface AppConfig {
  mode: 'demo' | 'production';
  isDemo: boolean;
  host: string;
  port: number;
  publicUrl: string;
  dataDir: string;
  databaseUrl: string | undefined;
  redisUrl: string | undefined;
  jwtSecret: Uint8Array;
  sessionTtlSeconds: number;
  logLevel: string;
  trustProxy: boolean;
  webDistDir: string;
  supportEmail: string;
  blogUrl: string;
  postalAddress: string;
  adminEmails: string[];
  bitcoinNetwork: 'mainnet' | 'testnet' | 'regtest';
  explorerUrl: string;
  mail: { smtpUrl: string; from: string } | undefined;
  twilio: { accountSid: string; authToken: string; fromNumber: string; apiUrl: string } | undefined;
  googleClientId: string | undefined;
  googleJwksUrl: string;
  /** How many one-time codes one client IP may request per 15 minutes. */
  otpSendsPerIp: number;
  /** How many code checks one client IP may make per 15 minutes. */
  otpVerifiesPerIp: number;
  sumsub:
    | { appToken: string; secretKey: string; webhookSecret: string; levelName: string; apiUrl: string }
    | undefined;
  /** Demo only: local KYC submissions are approved automatically after this many seconds. */
  kycAutoApproveSeconds: number | undefined;
  paypal: { clientId: string; clientSecret: string; apiUrl: string } | undefined;
  priceSources: { coinbaseUrl: string; krakenUrl: string };
  priceRefreshSeconds: number;
  /** Esplora HTTP API (fee estimates and, later, the chain); demo uses its simulated chain instead. */
  esploraUrl: string | undefined;
  /** The operator's BIP84 account extended public key; demo uses a well-known testnet key. */
  depositXpub: string | undefined;
  /** Confirmations before a sell deposit counts as received for payout. */
  depositConfirmations: number;
  /** How often the deposit watcher looks at the chain. */
  chainPollSeconds: number;
}

/** Demo mode's operator account (seeded by admin/seed-demo-admin.ts). */
export const DEMO_ADMIN_EMAIL = 'admin@offzero.local';

/** Parses the environment; throws ConfigError naming every problem at once. */
export function loadConfig(env: Record<string, string | undefined>): AppConfig {
  const parsed = envSchema.safeParse(env);
  if (!parsed.success) {
    throw new ConfigError(parsed.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`));
  }
  const e = parsed.data;
  const isDemo = e.APP_MODE === 'demo';
  const problems: string[] = [];

  if (!isDemo) {
    for (const name of requiredInProduction) {
      if (!e[name]) problems.push(`${name} is required in production mode`);
    }
  }
  if (e.JWT_SECRET && Buffer.byteLength(e.JWT_SECRET) < 32) {
    problems.push('JWT_SECRET must be at least 32 characters (256 bits) of random text');
  }
  if (problems.length > 0) throw new ConfigError(problems);

  const dataDir = path.resolve(e.DATA_DIR);
  const bitcoinNetwork = e.BITCOIN_NETWORK ?? (isDemo ? 'testnet' : 'mainnet');
  const adminEmails = e.ADMIN_EMAILS.split(',')
    .map((email) => email.trim().toLowerCase())
    .filter((email) => email !== '');
  if (isDemo && !adminEmails.includes(DEMO_ADMIN_EMAIL)) adminEmails.push(DEMO_ADMIN_EMAIL);

  return {
    mode: e.APP_MODE,
    isDemo,
    host: e.HOST,
    port: e.PORT,
    publicUrl: (e.PUBLIC_URL ?? `http://localhost:${e.PORT}`).replace(/\/+$/, ''),
    dataDir,
    databaseUrl: e.DATABASE_URL,
    redisUrl: e.REDIS_URL,
    jwtSecret: new TextEncoder().encode(e.JWT_SECRET ?? demoJwtSecret(dataDir)),
    sessionTtlSeconds: e.SESSION_TTL_SECONDS,
    logLevel: e.LOG_LEVEL,
    trustProxy: e.TRUST_PROXY,
    webDistDir: path.resolve(e.WEB_DIST_DIR ?? path.join(import.meta.dirname, '../../../web/dist')),
    supportEmail: e.SUPPORT_EMAIL,
    blogUrl: e.BLOG_URL,
    postalAddress: e.POSTAL_ADDRESS,
    adminEmails,
    bitcoinNetwork,
    explorerUrl: (
      e.EXPLORER_URL ??
      (bitcoinNetwork === 'mainnet' ? 'https://mempool.space' : 'https://mempool.space/testnet')
    ).replace(/\/+$/, ''),
    mail: e.SMTP_URL && e.MAIL_FROM ? { smtpUrl: e.SMTP_URL, from: e.MAIL_FROM } : undefined,
    twilio:
      e.TWILIO_ACCOUNT_SID && e.TWILIO_AUTH_TOKEN && e.TWILIO_FROM_NUMBER
        ? {
            accountSid: e.TWILIO_ACCOUNT_SID,
            authToken: e.TWILIO_AUTH_TOKEN,
            fromNumber: e.TWILIO_FROM_NUMBER,
            apiUrl: e.TWILIO_API_URL.replace(/\/+$/, ''),
          }
        : undefined,
    googleClientId: e.GOOGLE_CLIENT_ID,
    googleJwksUrl: e.GOOGLE_JWKS_URL,
    otpSendsPerIp: e.OTP_SENDS_PER_IP,
    otpVerifiesPerIp: e.OTP_VERIFIES_PER_IP,
    sumsub:
      e.SUMSUB_APP_TOKEN && e.SUMSUB_SECRET_KEY && e.SUMSUB_WEBHOOK_SECRET
        ? {
            appToken: e.SUMSUB_APP_TOKEN,
            secretKey: e.SUMSUB_SECRET_KEY,
            webhookSecret: e.SUMSUB_WEBHOOK_SECRET,
            levelName: e.SUMSUB_LEVEL_NAME,
            apiUrl: e.SUMSUB_API_URL.replace(/\/+$/, ''),
          }
        : undefined,
    kycAutoApproveSeconds: isDemo ? e.KYC_AUTO_APPROVE_SECONDS : undefined,
    paypal:
      e.PAYPAL_CLIENT_ID && e.PAYPAL_CLIENT_SECRET
        ? {
            clientId: e.PAYPAL_CLIENT_ID,
            clientSecret: e.PAYPAL_CLIENT_SECRET,
            apiUrl: e.PAYPAL_API_URL.replace(/\/+$/, ''),
          }
        : undefined,
    priceSources: {
      coinbaseUrl: e.COINBASE_API_URL.replace(/\/+$/, ''),
      krakenUrl: e.KRAKEN_API_URL.replace(/\/+$/, ''),
    },
    priceRefreshSeconds: e.PRICE_REFRESH_SECONDS,
    esploraUrl: e.ESPLORA_URL?.replace(/\/+$/, ''),
    depositXpub: e.DEPOSIT_XPUB,
    depositConfirmations: e.DEPOSIT_CONFIRMATIONS ?? (isDemo ? 1 : 2),
    chainPollSeconds: e.CHAIN_POLL_SECONDS ?? (isDemo ? 2 : 30),
  };
}

/** Demo mode keeps a random signing secret in the data folder so sessions survive a restart. */
function demoJwtSecret(dataDir: string): string {
  const file = path.join(dataDir, 'jwt-secret');
  try {
    return readFileSync(file, 'utf8').trim();
  } catch {
    mkdirSync(dataDir, { recursive: true });
    const secret = randomBytes(32).toString('base64url');
    writeFileSync(file, secret, { mode: 0o600 });
    return secret;
  }
}
