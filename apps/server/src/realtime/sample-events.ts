import type { Order } from '@offzero/shared/api/orders';

/** A complete order as the contract's `order-updated` event carries it, for the realtime tests. */
export function sampleOrder(id: string): Order {
  return {
    _id: id,
    userId: 'user-1',
    pair: 'BTC-USD',
    type: 'sell',
    amount: 0.015,
    price: 60_000,
    value: 900,
    platformFee: 9,
    networkFee: 0,
    bankFee: 0,
    status: 'pending',
    createdAt: '2025-01-01T00:00:00.000Z',
    expiresAt: '2025-01-01T00:15:00.000Z',
    txn: null,
    bankTxn: null,
    walletAddress: {
      address: 'tb1qrp33g0q5c5txsp9arysrx4k6zdkfs4nce4xj0gdcccefvpysxf3q0sl5k7',
      amount: 0.015,
    },
    confirmations: 0,
    flag: null,
    payment: null,
  };
}
