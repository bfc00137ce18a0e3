import { SELL_METHOD_MESSAGES } from '@offzero/shared/api/orders';
import type { Cents } from '@offzero/shared/money/money';
import type { Database } from '../../db/database';
import type { GlobalSettingsRow, PaymentMethod, UserRow } from '../../db/schema';
import { AppError } from '../../http/errors';
import { findCustomerSettings } from '../customer.repository';

export interface SellPayout {
  method: Exclude<PaymentMethod, 'paypal'>;
  /** What the method costs; it comes off what the customer is paid. */
  bankChargesCents: Cents;
  /** A copy of the customer's own details to pay into, kept with the order. */
  details: Record<string, string>;
}

/** the product specification's payout-method checks, in order, and the customer's details to pay into. */
export async function chooseSellPayout(
  db: Database,
  user: UserRow,
  settings: GlobalSettingsRow,
  method: string | undefined,
): Promise<SellPayout> {
  const own = await findCustomerSettings(db, user.id);
  if (!own) throw new AppError('BAD_REQUEST', SELL_METHOD_MESSAGES.noSettings);
  const bank = {
    account_holder: own.accountName ?? '',
    account_number: own.accountNumber ?? '',
    bank_name: own.bankName ?? '',
    bank_address: own.bankAddress ?? '',
  };
  if (method === 'zelle' && settings.zelleActive) {
    if (!own.zelleEmail) throw new AppError('BAD_REQUEST', SELL_METHOD_MESSAGES.zelle);
    return {
      method,
      bankChargesCents: settings.zelleBankChargesCents,
      details: { payment_address: own.zelleEmail },
    };
  }
  if (method === 'ach' && settings.achActive) {
    if (!own.routingNumber) throw new AppError('BAD_REQUEST', SELL_METHOD_MESSAGES.ach);
    return {
      method,
      bankChargesCents: settings.achBankChargesCents,
      details: { ...bank, routing_number: own.routingNumber },
    };
  }
  if (method === 'wire' && settings.wireActive) {
    if (!own.swift) throw new AppError('BAD_REQUEST', SELL_METHOD_MESSAGES.wire);
    return {
      method,
      bankChargesCents: settings.wireBankChargesCents,
      details: { ...bank, swift: own.swift },
    };
  }
  throw new AppError('BAD_REQUEST', SELL_METHOD_MESSAGES.invalidMethod);
}
