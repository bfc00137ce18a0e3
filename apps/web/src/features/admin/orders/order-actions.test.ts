import { describe, expect, it } from 'vitest';
import { availableActions, flagLabel, REFERENCE_PATTERN, TXID_PATTERN, waitingReason } from './order-actions';

type Input = Parameters<typeof availableActions>[0];

const buy = (overrides: Partial<Input> = {}): Input => ({
  type: 'buy',
  status: 'processing',
  paymentConfirmedAt: null,
  confirmations: 0,
  flag: null,
  walletAddress: 'tb1qrp33g0q5c5txsp9arysrx4k6zdkfs4nce4xj0gdcccefvpysxf3q0sl5k7',
  ...overrides,
});
const sell = (overrides: Partial<Input> = {}): Input => ({
  type: 'sell',
  status: 'processing',
  paymentConfirmedAt: null,
  confirmations: 0,
  flag: null,
  walletAddress: { address: 'tb1qdeposit', amount: 0.01 },
  ...overrides,
});
const live = { confirmationsRequired: 2, demo: false };
const demo = { confirmationsRequired: 1, demo: true };

describe('availableActions', () => {
  it('offers no payout by hand for a paid buy a payout batch holds, and says which batch pays it', () => {
    const paid = buy({ paymentConfirmedAt: '2026-11-23T01:05:00.000Z' });
    const held = {
      ...demo,
      payoutBatch: { id: 'abcdef12-0000-4000-8000-000000000000', status: 'awaiting_signature' as const },
    };
    expect(availableActions(paid, demo)).toEqual(['payout-btc', 'send-btc', 'cancel']);
    expect(availableActions(paid, held)).toEqual(['cancel']);
    expect(waitingReason(paid, held)).toBe(
      'Payout batch abcdef12 pays this buy (waiting for signature): finish or abandon it on the Payouts page.',
    );
    expect(waitingReason(paid, demo)).toBeNull();
  });

  it('offers the bitcoin return only for a sell holding a deposit we will not pay for', () => {
    const holding = { ...live, holdsDeposit: true };
    expect(availableActions(sell({ flag: 'over_limit' }), holding)).toEqual([
      'cancel',
      'refund-btc',
      'resolve-flag',
    ]);
    expect(availableActions(sell({ status: 'cancelled' }), holding)).toEqual(['refund-btc']);
    expect(availableActions(sell({ status: 'expired' }), holding)).toEqual(['cancel', 'refund-btc']);
    // No deposit left on the chain, nothing to return; a reversed deposit is gone.
    expect(availableActions(sell({ flag: 'over_limit' }), live)).toEqual(['cancel', 'resolve-flag']);
    expect(availableActions(sell({ status: 'completed', flag: 'deposit_reversed' }), holding)).toEqual([
      'resolve-flag',
    ]);
    // Coins due to be paid for, and buys, never offer it.
    expect(availableActions(sell(), holding)).toEqual(['cancel']);
    expect(availableActions(buy({ flag: 'duplicate_reference' }), holding)).toEqual([
      'cancel',
      'resolve-flag',
    ]);
  });

  it('a processing buy whose payment is not confirmed: mark it received, or cancel', () => {
    expect(availableActions(buy(), live)).toEqual(['mark-paid', 'cancel']);
  });

  it('a processing buy whose payment is confirmed: record the payout; in demo also send it', () => {
    const paid = buy({ paymentConfirmedAt: '2026-01-01T00:00:00.000Z' });
    expect(availableActions(paid, live)).toEqual(['payout-btc', 'cancel']);
    expect(availableActions(paid, demo)).toEqual(['payout-btc', 'send-btc', 'cancel']);
    expect(availableActions({ ...paid, walletAddress: null }, demo)).toEqual(['payout-btc', 'cancel']);
  });

  it('a pending or expired buy can only be cancelled', () => {
    expect(availableActions(buy({ status: 'pending' }), demo)).toEqual(['cancel']);
    expect(availableActions(buy({ status: 'expired' }), demo)).toEqual(['cancel']);
  });

  it('a sell is paid out only once its deposit has the confirmations required', () => {
    expect(availableActions(sell({ confirmations: 1 }), live)).toEqual(['cancel']);
    expect(availableActions(sell({ confirmations: 2 }), live)).toEqual(['payout-usd', 'cancel']);
    expect(availableActions(sell({ confirmations: 5 }), live)).toEqual(['payout-usd', 'cancel']);
    expect(availableActions(sell({ status: 'pending' }), live)).toEqual(['cancel']);
  });

  it('a sell never offers bitcoin actions, a buy never the dollar payout', () => {
    const sellActions = availableActions(sell({ paymentConfirmedAt: 'x', confirmations: 9 }), demo);
    expect(sellActions).not.toContain('mark-paid');
    expect(sellActions).not.toContain('payout-btc');
    expect(sellActions).not.toContain('send-btc');
    // What each does offer in that state, so the refusals above are not just an empty list.
    expect(sellActions).toEqual(['payout-usd', 'cancel']);
    const buyActions = availableActions(buy({ confirmations: 9 }), demo);
    expect(buyActions).not.toContain('payout-usd');
    expect(buyActions).toEqual(['mark-paid', 'cancel']);
  });

  it('completed and cancelled orders offer nothing, unless flagged', () => {
    for (const status of ['completed', 'cancelled'] as const) {
      expect(availableActions(buy({ status, paymentConfirmedAt: 'x' }), demo)).toEqual([]);
      expect(availableActions(sell({ status, confirmations: 3 }), demo)).toEqual([]);
      expect(availableActions(sell({ status, flag: 'overpaid' }), demo)).toEqual(['resolve-flag']);
    }
  });

  it('a flag can be resolved from any state, after the state’s own actions; a flagged order is not paid out', () => {
    expect(availableActions(sell({ flag: 'late_deposit', confirmations: 1 }), demo)).toEqual([
      'cancel',
      'resolve-flag',
    ]);
    expect(waitingReason(sell({ flag: 'late_deposit', confirmations: 1 }), demo)).toBe(
      'Resolve the flag first: a flagged order is not paid out.',
    );
    const paid = buy({ paymentConfirmedAt: '2026-01-01T00:00:00.000Z', flag: 'duplicate_reference' });
    expect(availableActions(paid, demo)).toEqual(['cancel', 'resolve-flag']);
    // Nor is a flagged buy marked paid: the server answers "Resolve the flag first." (409).
    const unpaid = buy({ flag: 'duplicate_reference' });
    expect(availableActions(unpaid, demo)).toEqual(['cancel', 'resolve-flag']);
    expect(waitingReason(unpaid, demo)).toBe('Resolve the flag first: a flagged buy is not marked paid.');
    expect(availableActions(buy({ status: 'pending', flag: 'capture_mismatch' }), demo)).toEqual([
      'cancel',
      'resolve-flag',
    ]);
  });
});

describe('waitingReason', () => {
  it('explains a sell waiting for its deposit or for confirmations', () => {
    expect(waitingReason(sell({ status: 'pending' }), live)).toMatch(/deposit/);
    expect(waitingReason(sell({ confirmations: 1 }), live)).toBe(
      'Waiting for confirmations: 1 of 2. The dollar payout unlocks after that.',
    );
    expect(waitingReason(sell({ confirmations: 2 }), live)).toBeNull();
  });

  it('explains a buy waiting for payment; nothing once there is something to do', () => {
    expect(waitingReason(buy({ status: 'pending' }), live)).toMatch(/pay/);
    expect(waitingReason(buy(), live)).toBeNull();
    expect(waitingReason(buy({ status: 'completed' }), live)).toBeNull();
  });
});

describe('labels and patterns', () => {
  it('names the known flags and tidies unknown ones', () => {
    expect(flagLabel('vanished_tx')).toBe('Vanished transaction');
    expect(flagLabel('something_new')).toBe('Something new');
  });

  it('accepts a 64-hex txid and a reference as the server does', () => {
    expect(TXID_PATTERN.test('a'.repeat(64))).toBe(true);
    expect(TXID_PATTERN.test('g'.repeat(64))).toBe(false);
    expect(TXID_PATTERN.test('a'.repeat(63))).toBe(false);
    expect(REFERENCE_PATTERN.test('ZL-2026/11#42')).toBe(true);
    expect(REFERENCE_PATTERN.test('abc')).toBe(false);
    expect(REFERENCE_PATTERN.test('bad<ref>')).toBe(false);
  });
});
