import { centsToUsdNumber } from '@offzero/shared/money/money';
import { z } from 'zod';
import type { BankCreditRow } from './bank-credits.repository';

export const bankCreditSchema = z.object({
  id: z.string(),
  traceNumber: z.string(),
  rail: z.enum(['ach', 'wire', 'instant']),
  amount: z.number(),
  originatorName: z.string(),
  customerEmail: z.string().nullable(),
  userId: z.string().nullable(),
  status: z.enum(['matched', 'unmatched', 'returned']),
  reason: z.string().nullable(),
  orderId: z.string().nullable(),
  resolvedBy: z.string().nullable(),
  receivedAt: z.string(),
  resolvedAt: z.string().nullable(),
});

export function toBankCreditView(
  credit: BankCreditRow & { email: string | null },
): z.infer<typeof bankCreditSchema> {
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
