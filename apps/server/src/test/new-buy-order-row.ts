import type { NewOrder } from '../orders/order-save.repository';

/** A testnet address of the customer's own, where test buys pay out. */
export const TEST_WALLET = 'tb1qrp33g0q5c5txsp9arysrx4k6zdkfs4nce4xj0gdcccefvpysxf3q0sl5k7';

/**
 * The columns of a pending buy to TEST_WALLET as a save writes them, for code that inserts orders
 * itself (repository tests, the benchmark's bare route); `overrides` changes any of them.
 */
export function newBuyOrderRow(
  userId: string,
  valueCents: bigint,
  overrides: Partial<NewOrder> = {},
): NewOrder {
  return {
    userId,
    type: 'buy',
    amountSats: 100_000n,
    valueCents,
    priceCents: 9_000_000n,
    platformFeeCents: 150n,
    networkFeeCents: 20n,
    bankFeeCents: 0n,
    priceSnapshotId: null,
    quoteExpiresAt: new Date(Date.now() + 60_000),
    walletAddress: TEST_WALLET,
    payoutAddressId: null,
    depositIndex: null,
    paymentMethod: null,
    receivingDetails: null,
    ...overrides,
  };
}
