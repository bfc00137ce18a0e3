import { SELL_METHOD_MESSAGES } from '@offzero/shared/api/orders';
import type { RailHandler } from '../rail-handler';
import { operatorPayoutSender } from '../operator-payout-sender';
import { railUnavailable, sellOnlyCharges } from '../bank-details';

/** Zelle: the customer sends to the company's Zelle address, or is paid to their own Zelle e-mail. */
export const zelleRail: RailHandler = {
  id: 'zelle',
  chargesCents: (settings, direction) => sellOnlyCharges(direction, settings.zelleBankChargesCents),
  isActive: (settings) => settings.zelleActive,
  receivingDetails(settings) {
    if (!settings.zelleActive)
      throw railUnavailable('Zelle is not available right now. Choose another method.');
    return { payment_address: settings.zellePaymentAddress };
  },
  sellPayout: {
    missingDetailsMessage: SELL_METHOD_MESSAGES.zelle,
    details: (own) => (own.zelleEmail ? { payment_address: own.zelleEmail } : null),
  },
  detection: { kind: 'customer-reports' },
  // Staff pay a seller's dollars by hand and record the reference.
  payoutSender: operatorPayoutSender,
};
