import type { RailHandler } from '../rail-handler';
import { lightningPayoutSender } from './lightning-payout-sender';

/** Where the operator's node posts its signed payment notifications. */
export const LIGHTNING_WEBHOOK_PATH = '/api/payments/lightning/webhook';

/**
 * Lightning (docs/design.md, "Lightning"): a sell's deposit paid to an invoice of the operator's node,
 * and a buy's payout paid from it at once. Its switch and caps are the settings group `lightning`, in
 * satoshis; it has no bank charges (routing fees are the operator's, within the payout's fee budget).
 */
export const lightningRail: RailHandler = {
  id: 'lightning',
  chargesCents: () => 0n,
  isActive: (settings) => settings.lightningActive,
  detection: { kind: 'provider-webhook', webhookPath: LIGHTNING_WEBHOOK_PATH },
  payoutSender: lightningPayoutSender,
};
