import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { defaultWebDistDir, demoSanctionsListFile } from './server-paths';
import type { AppConfig } from './app-config';
import { ConfigError, envSchema, issuesOf, type Env, type EnvVariable } from './env-schema';
import { PROVIDER_VARIABLES, providerConfig } from './provider-config';
import { dataEncryptionKeys, jwtSecret, secretProblems } from './security-config';
import { defaultMaxHeapUsedBytes, defaultMaxRssBytes, MB } from './resource-limits';

/**
 * All configuration, read once from the environment at start-up. Nothing else in the server reads
 * `process.env`: everything receives this object. By concern: the variables (env-schema.ts), the
 * outside providers (provider-config.ts), secrets (security-config.ts), the database
 * (database-config.ts), machine-sized defaults (resource-limits.ts).
 */
export type { AppConfig } from './app-config';
export { ConfigError } from './env-schema';
export { PROVIDER_VARIABLES } from './provider-config';
export { loadDatabaseConfig } from './database-config';
export { defaultPoolMax } from './resource-limits';

/** What production cannot run without; demo has a local stand-in for each provider. */
const requiredInProduction: readonly EnvVariable[] = [
  'DATABASE_URL',
  'JWT_SECRET',
  'PUBLIC_URL',
  'ADMIN_EMAILS',
  'EXPLORER_URL',
  'DATA_ENCRYPTION_KEY',
  ...Object.values(PROVIDER_VARIABLES).flat(),
];

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
  if (!parsed.success) throw new ConfigError(issuesOf(parsed.error));
  const e = parsed.data;
  const isDemo = e.APP_MODE === 'demo';
  const problems = [...modeProblems(e, isDemo), ...secretProblems(e)];
  if (problems.length > 0) throw new ConfigError(problems);

  const dataDir = path.resolve(e.DATA_DIR);
  const bitcoinNetwork = e.BITCOIN_NETWORK ?? (isDemo ? 'testnet' : 'mainnet');
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
    jwtSecret: jwtSecret(e, dataDir),
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
    loadShedding: loadSheddingLimits(e),
    metricsToken: e.METRICS_TOKEN,
    webDistDir: path.resolve(e.WEB_DIST_DIR ?? defaultWebDistDir),
    supportEmail: e.SUPPORT_EMAIL,
    blogUrl: e.BLOG_URL,
    postalAddress: e.POSTAL_ADDRESS,
    companyName: e.COMPANY_NAME,
    adminEmails: adminEmails(e, isDemo),
    bitcoinNetwork,
    explorerUrl: (
      e.EXPLORER_URL ??
      (bitcoinNetwork === 'mainnet' ? 'https://mempool.space' : 'https://mempool.space/testnet')
    ).replace(/\/+$/, ''),
    ...providerConfig(e, isDemo, env),
    googleClientId: e.GOOGLE_CLIENT_ID,
    googleJwksUrl: e.GOOGLE_JWKS_URL,
    otpSendsPerIp: e.OTP_SENDS_PER_IP,
    otpVerifiesPerIp: e.OTP_VERIFIES_PER_IP,
    mutationLimits: {
      perIpPerMinute: e.MUTATIONS_PER_IP_PER_MINUTE,
      perUserPerMinute: e.MUTATIONS_PER_USER_PER_MINUTE,
    },
    kycAutoApproveSeconds: isDemo ? e.KYC_AUTO_APPROVE_SECONDS : undefined,
    priceRefreshSeconds: e.PRICE_REFRESH_SECONDS,
    depositConfirmations: e.DEPOSIT_CONFIRMATIONS ?? (isDemo ? 1 : 2),
    chainPollSeconds: e.CHAIN_POLL_SECONDS ?? (isDemo ? 2 : 30),
    sanctionsListUrl:
      e.SANCTIONS_LIST_URL ?? (isDemo ? pathToFileURL(demoSanctionsListFile).href : OFAC_SDN_ADVANCED_URL),
    blockedCountries: e.BLOCKED_COUNTRIES,
    dataEncryption: dataEncryptionKeys(e, dataDir),
    payoutAddressCooldownHours: e.PAYOUT_ADDRESS_COOLDOWN_HOURS ?? (isDemo ? 0 : 24),
    payoutFeeCapPercent: e.PAYOUT_FEE_CAP_PERCENT,
    achOrigination: achOrigination(e, isDemo),
  };
}

/** The ACH file's originator: all four variables, or demo's made-up bank and company. */
function achOrigination(e: Env, isDemo: boolean): AppConfig['achOrigination'] {
  const demo = isDemo
    ? { routing: '021000021', bank: 'DEMO BANK', id: '1000000001', name: e.COMPANY_NAME }
    : undefined;
  const odfiRoutingNumber = e.ACH_ODFI_ROUTING_NUMBER ?? demo?.routing;
  const odfiName = e.ACH_ODFI_NAME ?? demo?.bank;
  const companyId = e.ACH_COMPANY_ID ?? demo?.id;
  const companyName = e.ACH_COMPANY_NAME ?? demo?.name;
  if (!odfiRoutingNumber || !odfiName || !companyId || !companyName) return null;
  return { odfiRoutingNumber, odfiName, companyId, companyName };
}

/** What the mode forbids: production's missing variables, demo on mainnet or beyond loopback. */
function modeProblems(e: Env, isDemo: boolean): string[] {
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
  return problems;
}

/** The operators' e-mails, lower case; demo adds its two operators. */
function adminEmails(e: Env, isDemo: boolean): string[] {
  const emails = e.ADMIN_EMAILS.split(',')
    .map((email) => email.trim().toLowerCase())
    .filter((email) => email !== '');
  for (const demoAdmin of [DEMO_ADMIN_EMAIL, DEMO_APPROVER_EMAIL]) {
    if (isDemo && !emails.includes(demoAdmin)) emails.push(demoAdmin);
  }
  return emails;
}

/** When requests are refused with 503 instead of piling up; unset limits take the generous defaults. */
function loadSheddingLimits(e: Env): AppConfig['loadShedding'] {
  return {
    maxEventLoopDelayMs: e.LOAD_SHED_MAX_EVENT_LOOP_DELAY_MS,
    maxHeapUsedBytes:
      e.LOAD_SHED_MAX_HEAP_USED_MB === undefined
        ? defaultMaxHeapUsedBytes()
        : e.LOAD_SHED_MAX_HEAP_USED_MB * MB,
    maxRssBytes: e.LOAD_SHED_MAX_RSS_MB === undefined ? defaultMaxRssBytes() : e.LOAD_SHED_MAX_RSS_MB * MB,
    retryAfterSeconds: e.LOAD_SHED_RETRY_AFTER_SECONDS,
  };
}

/** Interfaces only this machine can reach. */
function isLoopbackHost(host: string): boolean {
  const bare = host.toLowerCase().replace(/^\[(.*)\]$/, '$1');
  return bare === 'localhost' || bare === '::1' || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(bare);
}
