import type { FastifyBaseLogger } from 'fastify';
import { ConfigError, PROVIDER_VARIABLES, type AppConfig } from '../config/config';
import type { Database } from '../db/database';
import { createGoogleIdTokenVerifier, type GoogleIdentity } from '../auth/google-id-token';
import type { ChainApi } from '../chain/chain-api';
import { createEsploraChain } from '../chain/esplora-chain';
import { createSimulatedChain, type SimulatedChain } from '../chain/simulated-chain';
import { assertUsableAccountKey, DEMO_ACCOUNT_VPUB, DepositKeyError } from '../rails/onchain/deposit-address';
import type { KycProvider } from '../kyc/kyc-provider';
import { createLocalKycProvider } from '../kyc/local-kyc-provider';
import { createSumsubKycProvider } from '../kyc/sumsub-kyc-provider';
import type { MessageChannel } from '../notifications/notification-sender';
import { createOutboxChannel } from '../notifications/outbox-channel';
import { createSmtpEmailChannel } from '../notifications/smtp-email-channel';
import { createTwilioSmsChannel } from '../notifications/twilio-sms-channel';
import { createDemoPayPalGateway, type DemoPayPalGateway } from '../rails/paypal/demo-paypal-gateway';
import type { PayPalGateway } from '../rails/paypal/paypal-gateway';
import type { BankProvider } from '../bank/bank-provider';
import { createDemoBank, type DemoBank } from '../bank/demo-bank';
import { createIncreaseBank } from '../bank/increase-bank';
import { createPayPalRestGateway } from '../rails/paypal/paypal-rest-gateway';
import { createDemoLightningNode } from '../rails/lightning/demo-lightning-node';
import type { LightningNode } from '../rails/lightning/lightning-node';
import { createPhoenixdNode } from '../rails/lightning/phoenixd-node';
import { createCoinbasePriceSource } from '../prices/coinbase-price-source';
import { createDemoPriceSource } from '../prices/demo-price-source';
import { createKrakenPriceSource } from '../prices/kraken-price-source';
import type { PriceSource } from '../prices/price-source';
import { DEMO_PAYOUT_WALLET_XPUB } from '../payouts/batches/demo-payout-wallet';
import { parsePayoutWallet, type PayoutWallet } from '../payouts/batches/payout-wallet';

/**
 * The one place where every outside provider is chosen (docs/design.md), from `APP_MODE` alone:
 * - demo gets every stand-in, always. Real providers' variables in the environment are ignored, with one
 *   warning naming them, so a demo can never move real money under its "no real money" banner;
 * - production gets every real adapter, and refuses to start while any of their variables is missing.
 * Tests that need another adapter pass it to `buildApp({ providers })`, never through the environment.
 */
export interface Providers {
  /** Card / PayPal payments: PayPal Orders v2, or the demo sandbox with its own approve button. */
  paypal: PayPalGateway;
  /** The bank with an API (account numbers, transfers, inbound payments): Increase, or the demo bank. */
  bank: BankProvider;
  /** Identity verification: Sumsub, or the local form decided by an admin. */
  kyc: KycProvider;
  /** BTC-USD feeds, the first preferred: Coinbase then Kraken, or the demo's random walk. */
  priceSources: PriceSource[];
  /** Deposits, confirmations and fee estimates: an Esplora server, or the simulated chain. */
  chain: ChainApi;
  /** The BIP84 account public key sell-order deposit addresses derive from (watch-only). */
  depositAccountKey: string;
  /** The watch-only wallet payout batches spend from; null in production without PAYOUT_WALLET_XPUB. */
  payoutWallet: PayoutWallet | null;
  /** E-mail: SMTP, or the demo outbox. */
  email: MessageChannel;
  /** SMS: Twilio, or the demo outbox. */
  sms: MessageChannel;
  /** The operator's Lightning node: phoenixd, or the demo node; null in production without PHOENIXD_*. */
  lightning: LightningNode | null;
  /** "Sign in with Google", in either mode when GOOGLE_CLIENT_ID is set (it has no stand-in); else off. */
  googleSignIn: GoogleSignIn | null;
}

export interface GoogleSignIn {
  /** The public client id the browser's Google button uses; also the audience tokens must carry. */
  clientId: string;
  verifyIdToken: (credential: string) => Promise<GoogleIdentity>;
}

export function createProviders(config: AppConfig, db: Database, log: FastifyBaseLogger): Providers {
  return config.mode === 'demo' ? demoProviders(config, db, log) : productionProviders(config);
}

function demoProviders(config: AppConfig, db: Database, log: FastifyBaseLogger): Providers {
  if (config.providerVariablesSet.length > 0) {
    const names = config.providerVariablesSet.join(', ');
    log.warn(
      { ignoredVariables: config.providerVariablesSet },
      `demo mode uses its stand-ins for every provider and ignores these variables: ${names}`,
    );
  }
  return {
    paypal: createDemoPayPalGateway(db),
    bank: createDemoBank(db),
    kyc: createLocalKycProvider(db),
    priceSources: [createDemoPriceSource()],
    chain: createSimulatedChain(db, config.bitcoinNetwork),
    depositAccountKey: demoDepositKey(config),
    // The demo wallet's private side signs through /api/dev/payouts/batches/:id/sign only.
    payoutWallet: parsePayoutWallet(DEMO_PAYOUT_WALLET_XPUB, config.bitcoinNetwork),
    email: createOutboxChannel(db, 'email', log),
    sms: createOutboxChannel(db, 'sms', log),
    lightning: createDemoLightningNode(db, config.bitcoinNetwork, 'operator'),
    googleSignIn: googleSignInFor(config),
  };
}

/** Builds every real adapter, collecting every missing or unusable setting into one ConfigError. */
function productionProviders(config: AppConfig): Providers {
  const problems: string[] = [];
  const { mail, twilio, sumsub, paypal, increase, esploraUrl, depositXpub } = config;

  /** Names the group's variables that are not set (all of them for a config built by hand). */
  const missing = (group: keyof typeof PROVIDER_VARIABLES): null => {
    const names: readonly string[] = PROVIDER_VARIABLES[group];
    const unset = names.filter((name) => !config.providerVariablesSet.includes(name));
    for (const name of unset.length > 0 ? unset : names) {
      problems.push(`${name} is required in production mode`);
    }
    return null;
  };
  /** A value the adapter refuses (a malformed URL…) is reported like a missing one. */
  const attempt = <T>(variable: string, build: () => T): T | null => {
    try {
      return build();
    } catch (error) {
      problems.push(`${variable}: ${error instanceof Error ? error.message : String(error)}`);
      return null;
    }
  };

  const email = mail ? createSmtpEmailChannel(mail) : missing('email');
  const sms = twilio ? createTwilioSmsChannel(twilio) : missing('sms');
  const kyc = sumsub ? createSumsubKycProvider(sumsub) : missing('kyc');
  const paypalGateway = paypal ? createPayPalRestGateway(paypal) : missing('paypal');
  const bank = increase
    ? createIncreaseBank({ ...increase, companyName: config.companyName })
    : missing('bank');
  const chain = esploraUrl
    ? attempt('ESPLORA_URL', () => createEsploraChain({ baseUrl: esploraUrl }))
    : missing('chain');
  const depositAccountKey = depositXpub
    ? attempt('DEPOSIT_XPUB', () => {
        assertUsableAccountKey(depositXpub, config.bitcoinNetwork);
        return depositXpub;
      })
    : missing('depositAccountKey');
  const { payoutWalletXpub } = config;
  const payoutWallet = payoutWalletXpub
    ? attempt('PAYOUT_WALLET_XPUB', () => parsePayoutWallet(payoutWalletXpub, config.bitcoinNetwork))
    : null;

  const { phoenixd } = config;
  const lightning = phoenixd ? attempt('PHOENIXD_URL', () => createPhoenixdNode(phoenixd)) : null;

  if (
    problems.length > 0 ||
    !email ||
    !sms ||
    !kyc ||
    !paypalGateway ||
    !bank ||
    !chain ||
    !depositAccountKey
  ) {
    throw new ConfigError(problems);
  }
  return {
    paypal: paypalGateway,
    bank,
    kyc,
    priceSources: [
      createCoinbasePriceSource({ baseUrl: config.priceSources.coinbaseUrl }),
      createKrakenPriceSource({ baseUrl: config.priceSources.krakenUrl }),
    ],
    chain,
    depositAccountKey,
    payoutWallet,
    email,
    sms,
    lightning,
    googleSignIn: googleSignInFor(config),
  };
}

/** The demo's testnet key; a network it cannot serve is a configuration error, not a crash. */
function demoDepositKey(config: AppConfig): string {
  try {
    assertUsableAccountKey(DEMO_ACCOUNT_VPUB, config.bitcoinNetwork);
  } catch (error) {
    if (error instanceof DepositKeyError) throw new ConfigError([`BITCOIN_NETWORK: ${error.message}`]);
    throw error;
  }
  return DEMO_ACCOUNT_VPUB;
}

function googleSignInFor(config: AppConfig): GoogleSignIn | null {
  const clientId = config.googleClientId;
  if (!clientId) return null;
  return {
    clientId,
    verifyIdToken: createGoogleIdTokenVerifier({ clientId, jwksUrl: config.googleJwksUrl }),
  };
}

/** The demo PayPal sandbox, whose approve and cancel buttons stand in for PayPal's window. */
export function isDemoPayPalSandbox(gateway: PayPalGateway): gateway is DemoPayPalGateway {
  return gateway.kind === 'demo' && 'approve' in gateway;
}

/** The demo stand-in bank, which `/api/dev/bank/*` drives. */
export function isDemoBank(bank: BankProvider): bank is DemoBank {
  return bank.kind === 'demo' && 'sendInbound' in bank;
}

/** The demo chain kept in the database, which `/api/dev/chain/*` and the admin tools drive. */
export function isSimulatedChain(chain: ChainApi): chain is SimulatedChain {
  return chain.kind === 'simulated' && 'mine' in chain;
}
