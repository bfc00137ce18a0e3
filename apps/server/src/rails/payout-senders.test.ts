import { describe, expect, it, vi } from 'vitest';
import type { Database } from '../db/database';
import type { OrderRow, PayoutRow } from '../db/schema';
import { batchPayoutSender } from './onchain/batch-payout-sender';
import { createDemoChainPayoutSender } from './onchain/demo-chain-payout-sender';
import { operatorPayoutSender } from './operator-payout-sender';

const deps = { db: {} as Database };
const order = { id: 'order-1' } as OrderRow;
const payout = (overrides: Partial<PayoutRow> = {}) =>
  ({
    id: 'payout-1',
    address: 'tb1qcustomer',
    amountSats: 50_000n,
    batchId: null,
    ...overrides,
  }) as PayoutRow;

describe('payout senders', () => {
  it('the demo chain sends the payout’s amount to its address once and answers the output', async () => {
    const send = vi.fn(async () => ({ txid: 'f'.repeat(64) }));
    const result = await createDemoChainPayoutSender({ send }).send(deps, payout(), order);
    expect(send).toHaveBeenCalledExactlyOnceWith('tb1qcustomer', 50_000n);
    expect(result).toEqual({ outcome: 'settled', reference: 'f'.repeat(64), txid: 'f'.repeat(64), vout: 0 });
  });

  it('the demo chain throws when the send’s outcome is unknown, and fails only when nothing can be sent', async () => {
    const lost = createDemoChainPayoutSender({ send: async () => Promise.reject(new Error('timeout')) });
    await expect(lost.send(deps, payout(), order)).rejects.toThrow('timeout');
    const send = vi.fn();
    const result = await createDemoChainPayoutSender({ send }).send(deps, payout({ address: null }), order);
    expect(result.outcome).toBe('failed');
    expect(send).not.toHaveBeenCalled();
  });

  it('staff and batches send outside the server: the payout waits for their record', async () => {
    expect(operatorPayoutSender.mode).toBe('manual');
    expect(await operatorPayoutSender.send(deps, payout(), order)).toEqual({
      outcome: 'submitted',
      reference: 'operator:payout-1',
    });
    expect(await batchPayoutSender.send(deps, payout({ batchId: 'batch-1' }), order)).toEqual({
      outcome: 'submitted',
      reference: 'batch:batch-1',
    });
  });
});
