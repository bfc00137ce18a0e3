import type { TrustProxy } from './trust-proxy';

/** The configuration every part of the server receives (made by `loadConfig`, config.ts). */
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
  /** The operator's Lightning node (phoenixd's HTTP API); without it production offers no Lightning. */
  phoenixd: { url: string; password: string; webhookSecret: string } | undefined;
  /** The bank with an API (Increase); demo uses its stand-in bank instead. */
  increase:
    | {
        apiKey: string;
        accountId: string;
        sourceAccountNumberId: string;
        webhookSecret: string;
        apiUrl: string;
      }
    | undefined;
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
  /**
   * Who sends the day's ACH payout file and to which bank (docs/design.md, "ACH file"); null when
   * production has not set all four ACH_* variables (no file then). Demo uses a made-up originator.
   */
  achOrigination: AchOrigination | null;
}

export interface AchOrigination {
  /** The originating bank (ODFI) the file is uploaded to: its routing number and name. */
  odfiRoutingNumber: string;
  odfiName: string;
  /** The company id the bank gave the originator (often "1" and its tax id) and its name. */
  companyId: string;
  companyName: string;
}
