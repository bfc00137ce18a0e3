import type { RailHandler } from '../rail-handler';
import { batchPayoutSender } from './batch-payout-sender';

/**
 * Bitcoin on chain: a sell's deposit, found by the deposit watcher scanning the chain for the order's
 * address, and a buy's payout. It has no switch in the settings and no bank charges (the network fee
 * of a buy is priced by the quote). The watcher and its use-cases are beside this file.
 */
export const onchainRail: RailHandler = {
  id: 'onchain',
  chargesCents: () => 0n,
  isActive: () => true,
  detection: { kind: 'chain-scan' },
  // A buy's bitcoin leaves in a signed payout batch; the demo's simulated chain stands in for the
  // operator's wallet with demo-chain-payout-sender.ts.
  payoutSender: batchPayoutSender,
};
