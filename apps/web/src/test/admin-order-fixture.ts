import type { AdminOrder } from '@offzero/shared/api/admin';

/** The back office's order tests: one Zelle buy being processed. */
export const ORDER_ID = '0b7c3f5e-1a2b-4c3d-8e9f-0a1b2c3d4e5f';
export const WALLET = 'tb1qrp33g0q5c5txsp9arysrx4k6zdkfs4nce4xj0gdcccefvpysxf3q0sl5k7';

/** The order as the admin API answers it; `overrides` changes any field. */
export function adminOrder(overrides: Partial<AdminOrder> = {}): AdminOrder {
  return {
    _id: ORDER_ID,
    userId: 'customer-1',
    pair: 'BTC-USD',
    type: 'buy',
    amount: 0.0025,
    price: 98_000,
    value: 250,
    platformFee: 3.75,
    networkFee: 1.2,
    bankFee: 0,
    status: 'processing',
    createdAt: '2026-03-01T10:00:00.000Z',
    expiresAt: '2026-03-01T10:15:00.000Z',
    txn: null,
    bankTxn: 'ZL-42',
    walletAddress: WALLET,
    confirmations: 0,
    flag: null,
    payment: {
      method: 'zelle',
      status: 'SUBMITTED',
      amount: 250,
      create_time: '2026-03-01T10:01:00.000Z',
      receiving_in: { payment_address: 'payments@offzero.example' },
    },
    customerEmail: 'ada@example.com',
    flagNote: null,
    cancelReason: null,
    receivedSats: null,
    depositIndex: null,
    paymentConfirmedAt: null,
    paymentConfirmedBy: null,
    paypalOrderId: null,
    completedAt: null,
    updatedAt: '2026-03-01T10:01:00.000Z',
    ...overrides,
  };
}
