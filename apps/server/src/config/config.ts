import { randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import v8 from 'node:v8';
import { z } from 'zod';
import { pathToFileURL } from 'node:url';
import { defaultWebDistDir, demoSanctionsListFile } from './server-paths';
import { parseTrustProxy, type TrustProxy } from './trust-proxy';

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
  DATABASE_POOL_MAX: z.coerce.number().int().min(1).max(100).default(defaultPoolMax),
  REDIS_URL: optionalText,
  JWT_SECRET: optionalText,
  SESSION_TTL_SECONDS: z.coerce.number().int().min(300).max(2_592_000).default(604_800),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  TRUST_PROXY: z
    .string()
    .default('false')
    .transform((raw, ctx) => {
      const parsed = parseTrustProxy(raw);
      if ('value' in parsed) return parsed.value;
      ctx.addIssue({ code: 'custom', message: parsed.problem });
      return z.NEVER;
    }),
  PROCESS_ROLE: z.enum(['all', 'web', 'worker']).default('all'),
  // Demo mode has no real accounts' protection (open dev helpers, known admin): loopback only unless this.
  DEMO_PUBLIC: z
    .enum(['true', 'false', ''])
    .default('false')
    .transform((value) => value === 'true'),
  MIGRATE_ON_START: z
    .enum(['true', 'false', ''])
    .default('false')
    .transform((value) => value === 'true'),
  // Above a load balancer's idle timeout (60 s on most), so the proxy, not Node, closes idle connections.
  HTTP_KEEP_ALIVE_TIMEOUT_SECONDS: z.coerce.number().int().min(1).max(3600).default(72),
  // A socket silent this long in the middle of a request is dropped.
  HTTP_CONNECTION_TIMEOUT_SECONDS: z.coerce.number().int().min(1).max(3600).default(60),
  // The whole request (headers and body) must arrive within this; stops slow-drip clients.
  HTTP_REQUEST_TIMEOUT_SECONDS: z.coerce.number().int().min(1).max(3600).default(30),
  // After SIGTERM, how long readiness answers 503 before the server stops accepting (load balancers
  // need a few probes to notice). Default: 5 in production, 0 in demo.
  SHUTDOWN_DRAIN_SECONDS: z.coerce.number().min(0).max(300).optional(),
  // Load shedding (503 + Retry-After) before the process stalls; 0 turns a limit off.
  LOAD_SHED_MAX_EVENT_LOOP_DELAY_MS: z.coerce.number().int().min(0).default(1000),
  LOAD_SHED_MAX_HEAP_USED_MB: z.coerce.number().int().min(0).optional(),
  LOAD_SHED_MAX_RSS_MB: z.coerce.number().int().min(0).optional(),
  LOAD_SHED_RETRY_AFTER_SECONDS: z.coerce.number().int().min(1).max(3600).default(10),
  // Production serves GET /metrics only to `Authorization: Bearer <this>`; demo serves it openly.
  METRICS_TOKEN: optionalText,
  WEB_DIST_DIR: optionalText,
  SUPPORT_EMAIL: z.string().trim().default('support@offzero.com'),
  BLOG_URL: z.string().trim().default('https://blog.offzero.com'),
  POSTAL_ADDRESS: z.string().trim().default('1621 Central Ave, Cheyenne, WY 82001, USA'),
  // The legal name printed on receipts and statements.
  COMPANY_NAME: z.string().trim().min(1).default('OffZero'),
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
  MUTATIONS_PER_IP_PER_MINUTE: z.coerce.number().int().min(1).default(300),
  MUTATIONS_PER_USER_PER_MINUTE: z.coerce.number().int().min(1).default(60),
  SUMSUB_APP_TOKEN: optionalText,
  SUMSUB_SECRET_KEY: optionalText,
  SUMSUB_WEBHOOK_SECRET: optionalText,
  SUMSUB_LEVEL_NAME: z.string().trim().default('basic-kyc-level'),
  SUMSUB_API_URL: z.string().trim().default('https://api.sumsub.com'),
  // An empty `KYC_AUTO_APPROVE_SECONDS=` means off, not "approve at once".
  KYC_AUTO_APPROVE_SECONDS: optionalText.pipe(z.coerce.number<string | undefined>().int().min(0).optional()),
  PAYPAL_CLIENT_ID: optionalText,
  PAYPAL_CLIENT_SECRET: optionalText,
  PAYPAL_WEBHOOK_ID: optionalText,
  PAYPAL_API_URL: z.string().trim().default('https://api-m.paypal.com'),
  COINBASE_API_URL: z.string().trim().default('https://api.coinbase.com'),
  KRAKEN_API_URL: z.string().trim().default('https://api.kraken.com'),
  ESPLORA_URL: optionalText,
  DEPOSIT_XPUB: optionalText,
  DEPOSIT_CONFIRMATIONS: z.coerce.number().int().min(1).max(100).optional(),
  CHAIN_POLL_SECONDS: z.coerce.number().min(0.5).max(600).optional(),
  PAYOUT_ADDRESS_COOLDOWN_HOURS: z.coerce.number().min(0).max(720).optional(),
  PAYOUT_WALLET_XPUB: optionalText,
  PAYOUT_FEE_CAP_PERCENT: z.coerce.number().min(0.01).max(50).default(2),
  PRICE_REFRESH_SECONDS: z.coerce.number().int().min(5).max(3600).default(60),
  GOOGLE_CLIENT_ID: optionalText,
  GOOGLE_JWKS_URL: z.string().trim().default('https://www.googleapis.com/oauth2/v3/certs'),
  // OFAC's SDN list in its advanced XML format (http(s) or file: URL); demo: the list shipped in the repo.
  SANCTIONS_LIST_URL: optionalText,
  // ISO 3166-1 alpha-2 codes of the countries OffZero may not serve (comma-separated).
  BLOCKED_COUNTRIES: z
    .string()
    .default('CU,IR,KP,SY')
    .transform((raw, ctx) => {
      const codes = raw
        .split(',')
        .map((code) => code.trim().toUpperCase())
        .filter((code) => code !== '');
      const wrong = codes.filter((code) => !/^[A-Z]{2}$/.test(code));
      if (wrong.length > 0) {
        ctx.addIssue({
          code: 'custom',
          message: `not two-letter country codes: ${wrong.join(', ')} (use for example CU,IR,KP,SY)`,
        });
        return z.NEVER;
      }
      return [...new Set(codes)];
    }),
  // 32 random bytes in base64 (`openssl rand -base64 32`): encrypts taxpayer numbers at rest.
  DATA_ENCRYPTION_KEY: optionalText,
  // Keys retired by a rotation, comma-separated, still accepted for decryption (docs/runbook.md: Rotating secrets).
  DATA_ENCRYPTION_PREVIOUS_KEYS: optionalText,
});

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
} as const satisfies Record<string, readonly (keyof z.input<typeof envSchema>)[]>;

/** Provider variables with a default (API bases, the Sumsub level): optional, but real-provider only. */
const PROVIDER_TUNING_VARIABLES = [
  'TWILIO_API_URL',
  'SUMSUB_LEVEL_NAME',
  'SUMSUB_API_URL',
  'PAYPAL_API_URL',
  'COINBASE_API_URL',
  'KRAKEN_API_URL',
] as const satisfies readonly (keyof z.input<typeof envSchema>)[];

const ALL_PROVIDER_VARIABLES = [...Object.values(PROVIDER_VARIABLES).flat(), ...PROVIDER_TUNING_VARIABLES];

/** What production cannot run without; demo has a local stand-in for each provider. */
const requiredInProduction: readonly (keyof z.input<typeof envSchema>)[] = [
  'DATABASE_URL',
  'JWT_SECRET',
  'PUBLIC_URL',
  'ADMIN_EMAILS',
  'EXPLORER_URL',
  'DATA_ENCRYPTION_KEY',
  ...Object.values(PROVIDER_VARIABLES).flat(),
];

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
  /** Connections each process keeps to PostgreSQL at most (DATABASE_POOL_MAX, or defaultPoolMax). */
  databasePoolMax: number;
  redisUrl: string | undefined;
  jwtSecret: Uint8Array;
  sessionTtlSeconds: number;
  logLevel: string;
  /** Fastify's `trustProxy`: false, a hop count or proxy addresses, never "trust everyone". */
  trustProxy: TrustProxy;
  /**
   * `all` serves HTTP and runs the background jobs; `web` only serves HTTP and WebSocket; `worker` only
   * runs the jobs and answers health checks on its port.
   */
  processRole: 'all' | 'web' | 'worker';
  /** Apply pending migrations at start: always in demo; in production only with MIGRATE_ON_START=true. */
  migrateOnStart: boolean;
  /** Fastify's connection, keep-alive and request timeouts, in milliseconds, tuned for a proxy in front. */
  httpTimeouts: { connectionMs: number; keepAliveMs: number; requestMs: number };
  /** After SIGTERM: readiness answers 503 for this long before the server stops accepting requests. */
  shutdownDrainMs: number;
  /**
   * When requests are refused with 503 and Retry-After instead of piling up (http/load-shedding.ts);
   * a limit of 0 is off.
   */
  loadShedding: {
    maxEventLoopDelayMs: number;
    maxHeapUsedBytes: number;
    maxRssBytes: number;
    retryAfterSeconds: number;
  };
  /** Production: the bearer token GET /metrics requires (unset: /metrics answers 404). Demo: unused. */
  metricsToken: string | undefined;
  webDistDir: string;
  supportEmail: string;
  blogUrl: string;
  postalAddress: string;
  /** The operator's legal name, on receipts and statements. */
  companyName: string;
  adminEmails: string[];
  bitcoinNetwork: 'mainnet' | 'testnet' | 'regtest';
  explorerUrl: string;
  /**
   * Names (never values) of the outside providers' variables set in the environment. Demo mode ignores
   * them and the provider registry says so once.
   */
  providerVariablesSet: string[];
  /** The real providers' settings: always set in production, never in demo (its stand-ins need none). */
  mail: { smtpUrl: string; from: string } | undefined;
  twilio: { accountSid: string; authToken: string; fromNumber: string; apiUrl: string } | undefined;
  googleClientId: string | undefined;
  googleJwksUrl: string;
  /** How many one-time codes one client IP may request per 15 minutes. */
  otpSendsPerIp: number;
  /** How many code checks one client IP may make per 15 minutes. */
  otpVerifiesPerIp: number;
  /** State-changing API calls (POST, PUT, PATCH, DELETE) one client IP / one signed-in user may make per minute. */
  mutationLimits: { perIpPerMinute: number; perUserPerMinute: number };
  sumsub:
    | { appToken: string; secretKey: string; webhookSecret: string; levelName: string; apiUrl: string }
    | undefined;
  /** Demo only: local KYC submissions are approved automatically after this many seconds. */
  kycAutoApproveSeconds: number | undefined;
  paypal: { clientId: string; clientSecret: string; webhookId: string; apiUrl: string } | undefined;
  priceSources: { coinbaseUrl: string; krakenUrl: string };
  priceRefreshSeconds: number;
  /** Esplora HTTP API (deposits, confirmations, fee estimates); demo uses its simulated chain. */
  esploraUrl: string | undefined;
  /** The operator's BIP84 account extended public key; demo uses a well-known testnet key instead. */
  depositXpub: string | undefined;
  /** Confirmations before a sell deposit counts as received for payout. */
  depositConfirmations: number;
  /** How often the deposit watcher looks at the chain. */
  chainPollSeconds: number;
  /** Where the sanctions list (SDN advanced XML) is read from: an http(s) or file: URL. */
  sanctionsListUrl: string;
  /** ISO country codes whose clients get 451 on registration, login, quotes, orders and payouts. */
  blockedCountries: string[];
  /**
   * AES-256 keys for data encrypted at rest (taxpayer numbers): `current` encrypts, every key decrypts
   * (retired ones from DATA_ENCRYPTION_PREVIOUS_KEYS). Demo keeps a random key in DATA_DIR.
   */
  dataEncryption: { current: Buffer; previous: Buffer[] };
  /**
   * Hours between the confirmation of a new payout address and its first use, so a stolen session
   * cannot redirect a payout before the customer reads the e-mail about it.
   */
  payoutAddressCooldownHours: number;
  /**
   * The payout wallet's BIP84 account public key (optionally with its key origin) that payout batches
   * spend from; unset in production means no batches (the manual payout stays). Demo uses its own.
   */
  payoutWalletXpub: string | undefined;
  /** A payout batch's network fee may be at most this percent of what it pays customers. */
  payoutFeeCapPercent: number;
}

/** OFAC's SDN list in its advanced XML format: production's default sanctions list. */
export const OFAC_SDN_ADVANCED_URL =
  'https://sanctionslistservice.ofac.treas.gov/api/PublicationPreview/exports/SDN_ADVANCED.XML';

/** Demo mode's operator account (seeded by admin/seed-demo-admin.ts). */
export const DEMO_ADMIN_EMAIL = 'admin@offzero.local';
/** Demo mode's second operator, so four-eyes actions can be tried (docs/design.md). */
export const DEMO_APPROVER_EMAIL = 'approver@offzero.local';

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
  if (isDemo && e.BITCOIN_NETWORK === 'mainnet') {
    // The demo's simulated chain and deposit key are testnet ones: no real coin may reach them.
    problems.push('BITCOIN_NETWORK: demo mode runs on testnet or regtest, never mainnet');
  }
  if (isDemo && !isLoopbackHost(e.HOST) && !e.DEMO_PUBLIC) {
    problems.push(
      `HOST: demo mode listens on loopback only (localhost, 127.0.0.1 or ::1), not "${e.HOST}": ` +
        'its dev helpers let anyone approve identities and pay orders. Set DEMO_PUBLIC=true to expose it anyway',
    );
  }
  if (e.JWT_SECRET && Buffer.byteLength(e.JWT_SECRET) < 32) {
    problems.push('JWT_SECRET must be at least 32 characters (256 bits) of random text');
  }
  if (e.METRICS_TOKEN && Buffer.byteLength(e.METRICS_TOKEN) < 16) {
    problems.push('METRICS_TOKEN must be at least 16 characters of random text');
  }
  const encryptionKeys = [e.DATA_ENCRYPTION_KEY, ...(e.DATA_ENCRYPTION_PREVIOUS_KEYS ?? '').split(',')]
    .map((key) => key?.trim() ?? '')
    .filter((key) => key !== '');
  if (encryptionKeys.some((key) => !isAes256Key(key))) {
    problems.push(
      'DATA_ENCRYPTION_KEY and DATA_ENCRYPTION_PREVIOUS_KEYS must each be 32 random bytes in base64 (openssl rand -base64 32)',
    );
  }
  if (problems.length > 0) throw new ConfigError(problems);

  const dataDir = path.resolve(e.DATA_DIR);
  const bitcoinNetwork = e.BITCOIN_NETWORK ?? (isDemo ? 'testnet' : 'mainnet');
  const adminEmails = e.ADMIN_EMAILS.split(',')
    .map((email) => email.trim().toLowerCase())
    .filter((email) => email !== '');
  for (const demoAdmin of [DEMO_ADMIN_EMAIL, DEMO_APPROVER_EMAIL]) {
    if (isDemo && !adminEmails.includes(demoAdmin)) adminEmails.push(demoAdmin);
  }
  // Demo runs on stand-ins only, so the real providers' settings are never even read into the config.
  const real = isDemo ? undefined : e;

  return {
    mode: e.APP_MODE,
    isDemo,
    host: e.HOST,
    port: e.PORT,
    publicUrl: (e.PUBLIC_URL ?? `http://localhost:${e.PORT}`).replace(/\/+$/, ''),
    dataDir,
    databaseUrl: e.DATABASE_URL,
    databasePoolMax: e.DATABASE_POOL_MAX,
    redisUrl: e.REDIS_URL,
    jwtSecret: new TextEncoder().encode(e.JWT_SECRET ?? demoJwtSecret(dataDir)),
    sessionTtlSeconds: e.SESSION_TTL_SECONDS,
    logLevel: e.LOG_LEVEL,
    trustProxy: e.TRUST_PROXY,
    processRole: e.PROCESS_ROLE,
    migrateOnStart: isDemo || e.MIGRATE_ON_START,
    httpTimeouts: {
      connectionMs: e.HTTP_CONNECTION_TIMEOUT_SECONDS * 1000,
      keepAliveMs: e.HTTP_KEEP_ALIVE_TIMEOUT_SECONDS * 1000,
      requestMs: e.HTTP_REQUEST_TIMEOUT_SECONDS * 1000,
    },
    shutdownDrainMs: Math.round((e.SHUTDOWN_DRAIN_SECONDS ?? (isDemo ? 0 : 5)) * 1000),
    loadShedding: {
      maxEventLoopDelayMs: e.LOAD_SHED_MAX_EVENT_LOOP_DELAY_MS,
      maxHeapUsedBytes:
        e.LOAD_SHED_MAX_HEAP_USED_MB === undefined
          ? defaultMaxHeapUsedBytes()
          : e.LOAD_SHED_MAX_HEAP_USED_MB * MB,
      maxRssBytes: e.LOAD_SHED_MAX_RSS_MB === undefined ? defaultMaxRssBytes() : e.LOAD_SHED_MAX_RSS_MB * MB,
      retryAfterSeconds: e.LOAD_SHED_RETRY_AFTER_SECONDS,
    },
    metricsToken: e.METRICS_TOKEN,
    webDistDir: path.resolve(e.WEB_DIST_DIR ?? defaultWebDistDir),
    supportEmail: e.SUPPORT_EMAIL,
    blogUrl: e.BLOG_URL,
    postalAddress: e.POSTAL_ADDRESS,
    companyName: e.COMPANY_NAME,
    adminEmails,
    bitcoinNetwork,
    explorerUrl: (
      e.EXPLORER_URL ??
      (bitcoinNetwork === 'mainnet' ? 'https://mempool.space' : 'https://mempool.space/testnet')
    ).replace(/\/+$/, ''),
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
    googleClientId: e.GOOGLE_CLIENT_ID,
    googleJwksUrl: e.GOOGLE_JWKS_URL,
    otpSendsPerIp: e.OTP_SENDS_PER_IP,
    otpVerifiesPerIp: e.OTP_VERIFIES_PER_IP,
    mutationLimits: {
      perIpPerMinute: e.MUTATIONS_PER_IP_PER_MINUTE,
      perUserPerMinute: e.MUTATIONS_PER_USER_PER_MINUTE,
    },
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
    kycAutoApproveSeconds: isDemo ? e.KYC_AUTO_APPROVE_SECONDS : undefined,
    paypal:
      real?.PAYPAL_CLIENT_ID && real.PAYPAL_CLIENT_SECRET && real.PAYPAL_WEBHOOK_ID
        ? {
            clientId: real.PAYPAL_CLIENT_ID,
            clientSecret: real.PAYPAL_CLIENT_SECRET,
            webhookId: real.PAYPAL_WEBHOOK_ID,
            apiUrl: real.PAYPAL_API_URL.replace(/\/+$/, ''),
          }
        : undefined,
    priceSources: {
      coinbaseUrl: e.COINBASE_API_URL.replace(/\/+$/, ''),
      krakenUrl: e.KRAKEN_API_URL.replace(/\/+$/, ''),
    },
    priceRefreshSeconds: e.PRICE_REFRESH_SECONDS,
    esploraUrl: real?.ESPLORA_URL?.replace(/\/+$/, ''),
    depositXpub: real?.DEPOSIT_XPUB,
    depositConfirmations: e.DEPOSIT_CONFIRMATIONS ?? (isDemo ? 1 : 2),
    chainPollSeconds: e.CHAIN_POLL_SECONDS ?? (isDemo ? 2 : 30),
    sanctionsListUrl:
      e.SANCTIONS_LIST_URL ?? (isDemo ? pathToFileURL(demoSanctionsListFile).href : OFAC_SDN_ADVANCED_URL),
    blockedCountries: e.BLOCKED_COUNTRIES,
    dataEncryption: {
      current: Buffer.from(e.DATA_ENCRYPTION_KEY ?? demoDataEncryptionKey(dataDir), 'base64'),
      previous: (e.DATA_ENCRYPTION_PREVIOUS_KEYS ?? '')
        .split(',')
        .map((key) => key.trim())
        .filter((key) => key !== '')
        .map((key) => Buffer.from(key, 'base64')),
    },
    payoutAddressCooldownHours: e.PAYOUT_ADDRESS_COOLDOWN_HOURS ?? (isDemo ? 0 : 24),
    payoutWalletXpub: real?.PAYOUT_WALLET_XPUB,
    payoutFeeCapPercent: e.PAYOUT_FEE_CAP_PERCENT,
  };
}

function isAes256Key(base64: string): boolean {
  return /^[A-Za-z0-9+/]{43}=?$/.test(base64) && Buffer.from(base64, 'base64').length === 32;
}

/** Demo mode keeps a random data encryption key in the data folder so stored W-9s survive a restart. */
function demoDataEncryptionKey(dataDir: string): string {
  const file = path.join(dataDir, 'data-encryption-key');
  try {
    return readFileSync(file, 'utf8').trim();
  } catch {
    mkdirSync(dataDir, { recursive: true });
    const key = randomBytes(32).toString('base64');
    writeFileSync(file, key, { mode: 0o600 });
    return key;
  }
}

/**
 * Only where the database is, for `npm run db:migrate`: it must run before a release starts, without
 * the providers' secrets the server itself needs.
 */
export function loadDatabaseConfig(env: Record<string, string | undefined>): {
  databaseUrl: string | undefined;
  dataDir: string;
  poolMax: number;
} {
  const parsed = envSchema
    .pick({ DATABASE_URL: true, DATA_DIR: true, DATABASE_POOL_MAX: true })
    .safeParse(env);
  if (!parsed.success) {
    throw new ConfigError(parsed.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`));
  }
  return {
    databaseUrl: parsed.data.DATABASE_URL,
    dataDir: path.resolve(parsed.data.DATA_DIR),
    poolMax: parsed.data.DATABASE_POOL_MAX,
  };
}

/** Interfaces only this machine can reach. */
function isLoopbackHost(host: string): boolean {
  const bare = host.toLowerCase().replace(/^\[(.*)\]$/, '$1');
  return bare === 'localhost' || bare === '::1' || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(bare);
}

const MB = 1024 * 1024;

/**
 * How many PostgreSQL connections a process keeps at most, unless DATABASE_POOL_MAX says: twice the
 * machine's cores, from 4 to 10. Past a few per core, more connections only add PostgreSQL backends
 * competing for the same cores, and each one counts against the database's connection limit, which
 * every process shares. No size has proven faster in `npm run bench` (docs/performance.md): the default
 * is about holding fewer of the database's connections.
 */
export function defaultPoolMax(): number {
  return Math.min(10, Math.max(4, 2 * os.availableParallelism()));
}

/** Generous: shed only when the heap nears V8's own limit, where the process would soon crash. */
function defaultMaxHeapUsedBytes(): number {
  return Math.floor(v8.getHeapStatistics().heap_size_limit * 0.9);
}

/**
 * Generous: near the container's memory limit when there is one (its OOM killer would end the process);
 * off otherwise (Node reports an unlimited process as a huge number).
 */
function defaultMaxRssBytes(): number {
  const limit = process.constrainedMemory();
  return limit > 0 && limit < os.totalmem() ? Math.floor(limit * 0.9) : 0;
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
