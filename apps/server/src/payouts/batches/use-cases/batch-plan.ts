import type { BatchWithOrders } from '../payout-batch.repository';
import type { PayoutPlan } from '../payout-psbt';
import type { PayoutWallet } from '../payout-wallet';

/** The transaction a stored batch stands for: its coins, its customers' outputs and its change. */
export function planOf(wallet: PayoutWallet, { batch, orders }: BatchWithOrders): PayoutPlan {
  return {
    inputs: batch.inputs.map((input) => ({ ...input, valueSats: BigInt(input.valueSats) })),
    payouts: orders.map((row) => ({ address: row.address, amountSats: row.amountSats })),
    change:
      batch.changeIndex !== null && batch.changeSats > 0n
        ? {
            address: wallet.derive(1, batch.changeIndex).address,
            amountSats: batch.changeSats,
            index: batch.changeIndex,
          }
        : null,
  };
}
