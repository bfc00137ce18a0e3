import type { SignedInUser } from '../auth/sessions';
import type { OrderActionDeps, OrderActionRequest } from '../admin/run-order-action';
import type { ResolveDeps } from '../payout-addresses/payout-destination';
import { payoutUsd } from './use-cases/payout-usd';
import { recordBtcPayout } from './use-cases/record-btc-payout';
import { recordUsdRefund } from './use-cases/record-usd-refund';
import { refundBtc } from './use-cases/refund-btc';
import { sendDemoBtc } from './use-cases/send-demo-btc';

export interface PayoutsDependencies extends OrderActionDeps {
  /** Where buys are paid: the address book's entries, xpub derivation through the chain. */
  payoutDestinations: ResolveDeps;
}

/**
 * Payouts (docs/design.md, "Payouts claim the order first"): every way money or coins leave for a
 * customer, on one payout record. The back office calls these through its own service, which keeps
 * four eyes; payout batches have their own service (`batches/`) for their routes.
 */
export function createPayoutsService(deps: PayoutsDependencies) {
  const { simulatedChain } = deps;
  return {
    /** Staff paid a sell's dollars and record the bank reference; the caller runs four eyes first. */
    payoutUsd: (request: OrderActionRequest & { reference: string }) => payoutUsd(deps, request),
    /** Staff sent a buy's bitcoin themselves (or settle a payout in flight) and record the output. */
    recordBtcPayout: (request: OrderActionRequest & { txid: string; vout?: number | undefined }) =>
      recordBtcPayout(deps, request),
    /** Demo only (null otherwise): pays a buy out through the simulated chain. */
    sendDemoBtc: simulatedChain
      ? (request: { staff: SignedInUser; orderId: string }) =>
          sendDemoBtc({ ...deps, chain: simulatedChain }, request)
      : null,
    /** A sell's coins went back to the customer instead of being paid for. */
    refundBtc: (request: OrderActionRequest & { address: string; txid: string }) => refundBtc(deps, request),
    /** Staff sent a cancelled buy's dollars back (the refund a scam cancel claimed) and record it. */
    recordUsdRefund: (request: OrderActionRequest & { reference: string }) => recordUsdRefund(deps, request),
  };
}

export type PayoutsService = ReturnType<typeof createPayoutsService>;
