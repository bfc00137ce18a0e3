import { SELL_METHOD_MESSAGES } from '@offzero/shared/api/orders';
import type { RailHandler } from '../rail-handler';
import { operatorPayoutSender } from '../operator-payout-sender';
import { customerBankAccount, railUnavailable, sellOnlyCharges } from '../bank-details';

/** ACH: a transfer to the company's account, or to the customer's account and routing number. */
export const achRail: RailHandler = {
  id: 'ach',
  chargesCents: (settings, direction) => sellOnlyCharges(direction, settings.achBankChargesCents),
  isActive: (settings) => settings.achActive,
  receivingDetails(settings) {
    if (!settings.achActive) throw railUnavailable('ACH is not available right now. Choose another method.');
    return {
      account_holder: settings.achAccountHolder,
      account_number: settings.achAccountNumber,
      routing_number: settings.achRoutingNumber,
      bank_address: settings.achBankAddress,
    };
  },
  sellPayout: {
    missingDetailsMessage: SELL_METHOD_MESSAGES.ach,
    details: (own) =>
      own.routingNumber ? { ...customerBankAccount(own), routing_number: own.routingNumber } : null,
  },
  detection: { kind: 'customer-reports' },
  // Staff pay a seller's dollars by hand and record the reference.
  payoutSender: operatorPayoutSender,
};
