import { formatUsd } from '@offzero/shared/money/money';
import { SELL_METHOD_MESSAGES } from '@offzero/shared/api/orders';
import type { RailHandler } from '../rail-handler';
import { customerBankAccount, sellOnlyCharges } from '../bank-details';
import { bankApiPayoutSender } from './bank-api-payout-sender';

/** The customer's words when their bank is not on an instant network (docs/design.md, "Instant payouts"). */
export const INSTANT_UNREACHABLE = 'Your bank cannot receive instant payments; choose ACH.';

/**
 * Instant bank transfer (RTP or FedNow): a sell's dollars sent through the bank's API to the customer's
 * own account, in seconds, any day and hour. Offered only when the bank's routing look-up says the
 * customer's bank is on RTP or FedNow, and up to the operator's largest instant payout.
 */
export const instantRail: RailHandler = {
  id: 'instant',
  chargesCents: (settings, direction) => sellOnlyCharges(direction, settings.instantBankChargesCents),
  isActive: (settings) => settings.instantActive,
  sellPayout: {
    missingDetailsMessage: SELL_METHOD_MESSAGES.instant,
    details: (own) =>
      own.routingNumber ? { ...customerBankAccount(own), routing_number: own.routingNumber } : null,
    async refusal({ bank, settings, details, valueCents }) {
      if (valueCents !== undefined && valueCents > settings.instantMaxPayoutCents) {
        return `Instant payouts go up to $${formatUsd(settings.instantMaxPayoutCents)}; choose ACH for this sell.`;
      }
      const routingNumber = details.routing_number ?? '';
      if (!/^\d{9}$/.test(routingNumber)) return INSTANT_UNREACHABLE;
      const reach = await bank.lookUpRoutingNumber(routingNumber);
      return reach && (reach.rtp || reach.fednow) ? null : INSTANT_UNREACHABLE;
    },
  },
  // The bank tells us when a transfer settles or is rejected (its webhook, read back from its API).
  detection: { kind: 'provider-webhook', webhookPath: '/api/bank/webhook' },
  payoutSender: bankApiPayoutSender,
};
