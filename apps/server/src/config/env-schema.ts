import { z } from 'zod';
import { parseTrustProxy } from './trust-proxy';
import { defaultPoolMax } from './resource-limits';

const optionalText = z
  .string()
  .trim()
  .transform((value) => (value === '' ? undefined : value))
  .optional();

/** Every environment variable the server reads, checked and given its default (config.ts reads it once). */
export const envSchema = z.object({
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
  PHOENIXD_URL: optionalText,
  PHOENIXD_PASSWORD: optionalText,
  PHOENIXD_WEBHOOK_SECRET: optionalText,
  // The bank with an API (Increase): customers' account numbers, transfers, inbound payments.
  INCREASE_API_KEY: optionalText,
  INCREASE_ACCOUNT_ID: optionalText,
  INCREASE_SOURCE_ACCOUNT_NUMBER_ID: optionalText,
  INCREASE_WEBHOOK_SECRET: optionalText,
  INCREASE_API_URL: z.string().trim().default('https://api.increase.com'),
  COINBASE_API_URL: z.string().trim().default('https://api.coinbase.com'),
  KRAKEN_API_URL: z.string().trim().default('https://api.kraken.com'),
  ESPLORA_URL: optionalText,
  DEPOSIT_XPUB: optionalText,
  DEPOSIT_CONFIRMATIONS: z.coerce.number().int().min(1).max(100).optional(),
  CHAIN_POLL_SECONDS: z.coerce.number().min(0.5).max(600).optional(),
  PAYOUT_ADDRESS_COOLDOWN_HOURS: z.coerce.number().min(0).max(720).optional(),
  PAYOUT_WALLET_XPUB: optionalText,
  PAYOUT_FEE_CAP_PERCENT: z.coerce.number().min(0.01).max(50).default(2),
  // The day's ACH payout file (NACHA): the originating bank and the company as the bank set them up.
  ACH_ODFI_ROUTING_NUMBER: optionalText.pipe(z.string().regex(/^\d{9}$/, 'nine digits').optional()),
  ACH_ODFI_NAME: optionalText.pipe(z.string().max(23).optional()),
  ACH_COMPANY_ID: optionalText.pipe(z.string().regex(/^[\x20-\x7E]{1,10}$/, 'up to 10 characters').optional()),
  ACH_COMPANY_NAME: optionalText.pipe(z.string().max(23).optional()),
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

/** The name of an environment variable the server reads. */
export type EnvVariable = keyof z.input<typeof envSchema>;
/** The environment once checked. */
export type Env = z.output<typeof envSchema>;

export class ConfigError extends Error {
  constructor(public readonly problems: string[]) {
    super(`OffZero cannot start; fix its configuration:\n  - ${problems.join('\n  - ')}`);
    this.name = 'ConfigError';
  }
}

/** The problems of a failed parse, one line each, named by variable. */
export function issuesOf(error: z.ZodError): string[] {
  return error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`);
}
