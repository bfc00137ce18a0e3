import { centsToUsdNumber } from '@offzero/shared/money/money';
import { bankCreditSchema, type BankCredit } from '@offzero/shared/api/bank';
import type { BankCreditRow } from './bank-credits.repository';

export { bankCreditSchema };

export function toBankCreditView(credit: BankCreditRow & { email: string | null }): BankCredit {
  return {
    id: credit.id,
    traceNumber: credit.traceNumber,
    rail: credit.rail,
    amount: centsToUsdNumber(credit.amountCents),
    originatorName: credit.originatorName,
    customerEmail: credit.email,
    userId: credit.userId,
    status: credit.status,
    reason: credit.reason,
    orderId: credit.orderId,
    resolvedBy: credit.resolvedBy,
    receivedAt: credit.receivedAt.toISOString(),
    resolvedAt: credit.resolvedAt?.toISOString() ?? null,
  };
}
