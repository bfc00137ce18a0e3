import type { SignedInUser } from '../../auth/sessions';
import type { ChainApi } from '../../chain/chain-api';
import type { BitcoinNetworkName } from '../../chain/raw-transaction';
import type { Database, Transaction } from '../../db/database';
import { AppError } from '../../http/errors';
import type { OrderNotifier } from '../../orders/order-notifications';
import type { PayoutWallet } from './payout-wallet';

/**
 * Sanctions screening of a payout address when a batch is built (docs/design.md): answers a reason to
 * hold the payout, or null when it may be paid. It reads through the batch's own transaction.
 */
export type ScreenPayoutDestination = (db: Database | Transaction, address: string) => Promise<string | null>;

export interface PayoutBatchDeps {
  db: Database;
  chain: ChainApi;
  /** The bitcoin network the server runs on (payout addresses must be of it). */
  network: BitcoinNetworkName;
  /** The watch-only payout wallet; null when none is configured (no batches then). */
  wallet: PayoutWallet | null;
  /** A batch's fee may be at most this percent of what it pays customers. */
  feeCapPercent: number;
  notify: OrderNotifier;
  /** Sanctions screening of each payout address when a batch is built. */
  screenDestination: ScreenPayoutDestination;
}

export function requireWallet(deps: PayoutBatchDeps): PayoutWallet {
  if (!deps.wallet) {
    throw new AppError(
      'CONFLICT',
      'No payout wallet is configured: set PAYOUT_WALLET_XPUB to build payout batches, or pay buys one by one.',
    );
  }
  return deps.wallet;
}

/** Outputs below this many satoshis cost more to spend than they are worth: no change output then. */
export const MIN_CHANGE_SATS = 1_000n;

/** How an admin appears in an order's timeline and on a batch (the order desk's form). */
export const adminActor = (staff: SignedInUser) => `admin:${staff.user.id}`;
