import { asc, eq } from 'drizzle-orm';
import type { OrderPayoutView } from '@offzero/shared/api/admin';
import type { BankProvider } from '../bank/bank-provider';
import type { Database } from '../db/database';
import { payouts } from '../db/schema';

/**
 * Every payout of an order as staff see it (docs/design.md, "Instant payouts"): a payout sent through
 * the bank's API shows the bank's own word on its transfer (status, return code, times), read back from
 * the bank, so staff never have to open the bank's dashboard to see why a payout came back.
 */
export async function listOrderPayouts(
  deps: { db: Database; bank: Pick<BankProvider, 'getTransfer'> | null },
  orderId: string,
): Promise<OrderPayoutView[]> {
  const rows = await deps.db
    .select()
    .from(payouts)
    .where(eq(payouts.orderId, orderId))
    .orderBy(asc(payouts.createdAt));
  return Promise.all(
    rows.map(async (row) => {
      const base = {
        id: row.id,
        purpose: row.purpose,
        rail: row.rail,
        sender: row.sender,
        state: row.state,
        reference: row.reference,
        txid: row.txid,
        createdBy: row.createdBy,
        createdAt: row.createdAt.toISOString(),
        sentAt: row.sentAt?.toISOString() ?? null,
        bankTransfer: null,
        bankUnavailable: false,
      };
      if (row.sender !== 'bank-api' || !row.reference || !deps.bank) return base;
      try {
        const transfer = await deps.bank.getTransfer(row.reference);
        return {
          ...base,
          bankTransfer: {
            id: transfer.id,
            kind: transfer.kind,
            status: transfer.status,
            traceNumber: transfer.traceNumber,
            returnCode: transfer.returnCode,
            createdAt: transfer.createdAt.toISOString(),
            settledAt: transfer.settledAt?.toISOString() ?? null,
          },
        };
      } catch {
        // The page opens whatever the bank does; staff see that its word is missing.
        return { ...base, bankUnavailable: true };
      }
    }),
  );
}
