import { SELL_METHOD_MESSAGES } from '@offzero/shared/api/orders';
import type { RailHandler } from '../rail-handler';
import { operatorPayoutSender } from '../operator-payout-sender';
import { customerBankAccount, railUnavailable, sellOnlyCharges } from '../bank-details';

/** Wire: a transfer to the company's account, or to the customer's account by SWIFT code. */
export const wireRail: RailHandler = {
  id: 'wire',
  chargesCents: (settings, direction) => sellOnlyCharges(direction, settings.wireBankChargesCents),
  isActive: (settings) => settings.wireActive,
  receivingDetails(settings) {
    if (!settings.wireActive)
      throw railUnavailable('Wire transfer is not available right now. Choose another method.');
    return {
      account_holder: settings.wireAccountHolder,
      account_number: settings.wireAccountNumber,
      swift: settings.wireSwiftCode,
      bank_address: settings.wireBankAddress,
    };
  },
  sellPayout: {
    missingDetailsMessage: SELL_METHOD_MESSAGES.wire,
    details: (own) => (own.swift ? { ...customerBankAccount(own), swift: own.swift } : null),
  },
  detection: { kind: 'customer-reports' },
  // Staff pay a seller's dollars by hand and record the reference.
  payoutSender: operatorPayoutSender,
};
