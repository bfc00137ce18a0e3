import type { Cents } from '@offzero/shared/money/money';
import type { UserSettingsRow } from '../db/schema';
import { AppError } from '../http/errors';

/**
 * What the bank rails (Zelle, ACH, wire) share: plumbing of the rails folder, not a rail of its own.
 */

/** The customer's own bank account from their settings, which an ACH or wire payout pays into. */
export function customerBankAccount(own: UserSettingsRow): Record<string, string> {
  return {
    account_holder: own.accountName ?? '',
    account_number: own.accountNumber ?? '',
    bank_name: own.bankName ?? '',
    bank_address: own.bankAddress ?? '',
  };
}

/**
 * A bank rail's charges: what the operator set comes off a sell's payout (docs/design.md, "Orders:
 * money, quotes and states"); a buy is charged none.
 */
export function sellOnlyCharges(direction: 'buy' | 'sell', sellChargesCents: Cents): Cents {
  return direction === 'sell' ? sellChargesCents : 0n;
}

/** The 400 a customer gets when they pick a bank rail the operator has switched off. */
export function railUnavailable(message: string): AppError {
  return new AppError('BAD_REQUEST', message);
}
