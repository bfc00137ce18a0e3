import type { BankProvider } from '../../bank/bank-provider';
import type { BitcoinNetwork } from '@offzero/shared/bitcoin/address';
import type { Database } from '../../db/database';
import type { PayoutAddressService } from '../../payout-addresses/payout-address.service';
import type { PriceBook } from '../../prices/price-book';
import type { LightningNode } from '../../rails/lightning/lightning-node';
import type { OrderNotifier } from '../order-notifications';

/** What the order use-cases work with; each takes only the parts it needs. */
export interface OrderDeps {
  db: Database;
  prices: PriceBook;
  network: BitcoinNetwork;
  /** The operator's BIP84 account key that sell deposit addresses are derived from. */
  depositXpub: string;
  notify: OrderNotifier;
  /** The customer's payout address book: a buy's address becomes (or is) one of its entries. */
  payoutAddresses: Pick<PayoutAddressService, 'ensureEntryForAddress' | 'findOwn'>;
  /** The operator's Lightning node, when there is one (a sell's invoice, a buy's Lightning payout). */
  lightning: LightningNode | null;
  now: () => Date;
  /** The bank with an API: which networks reach a customer's bank (instant payouts). */
  bank: Pick<BankProvider, 'lookUpRoutingNumber'>;
}
