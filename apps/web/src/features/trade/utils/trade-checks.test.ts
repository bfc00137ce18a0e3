import { describe, expect, it } from 'vitest';
import { minimumOrderMessage, sellMethodFailure, tradeCheckFailure, type TradeAccount } from './trade-checks';

const ready: TradeAccount = {
  user: { email_verified: true, phone_verified: true },
  kyc: { status: 'GREEN' },
  settings: {
    bankAccount: {
      bank_name: 'First Bank',
      account_name: 'Ada Lovelace',
      account_number: '000123456789',
      address: '1 Main St',
      routing_number: '021000021',
      swift: '',
    },
  },
};
const MAX = 1_000_000n; // $10,000.00

/** Breaks the account one requirement at a time, in reverse, so each earlier check must win. */
const broken: [string, TradeAccount][] = [
  [
    'Verify your email',
    { ...ready, user: { email_verified: false, phone_verified: false }, kyc: null, settings: null },
  ],
  [
    'Verify your phone number',
    { ...ready, user: { email_verified: true, phone_verified: false }, kyc: null, settings: null },
  ],
  ['Upload your KYC', { ...ready, kyc: null }],
  ['Your KYC is under review', { ...ready, kyc: { status: 'YELLOW' } }],
];

describe('buy checks', () => {
  it('run in the spec order with its exact messages', () => {
    for (const [message, account] of broken) {
      expect(tradeCheckFailure('buy', account, 5_000_000n, MAX)).toBe(message);
    }
    expect(tradeCheckFailure('buy', { ...ready, kyc: { status: 'RED' } }, 0n, MAX)).toBe(
      'Your identity verification was not approved.',
    );
    expect(
      tradeCheckFailure(
        'buy',
        { ...ready, kyc: { status: 'RED', reason: 'The photo is blurred.' } },
        0n,
        MAX,
      ),
    ).toBe('Your identity verification was not approved: The photo is blurred.');
    expect(tradeCheckFailure('buy', ready, 1_000_001n, MAX)).toBe('Maximum limit is $10,000.00');
    expect(tradeCheckFailure('buy', ready, 1_000_000n, MAX)).toBeNull();
  });

  it('do not ask a buyer for a bank account', () => {
    expect(tradeCheckFailure('buy', { ...ready, settings: null }, 25_000n, MAX)).toBeNull();
  });
});

describe('sell checks', () => {
  it('ask for a bank account right after the phone', () => {
    const noBank = { ...ready, settings: { bankAccount: null }, kyc: null };
    expect(tradeCheckFailure('sell', noBank, 25_000n, MAX)).toBe('Add a bank account');
    expect(
      tradeCheckFailure(
        'sell',
        { ...noBank, user: { email_verified: true, phone_verified: false } },
        0n,
        MAX,
      ),
    ).toBe('Verify your phone number');
    expect(tradeCheckFailure('sell', { ...ready, kyc: null }, 25_000n, MAX)).toBe('Upload your KYC');
    expect(tradeCheckFailure('sell', ready, 1_000_001n, MAX)).toBe('Maximum limit is $10,000.00');
    expect(tradeCheckFailure('sell', ready, 25_000n, MAX)).toBeNull();
  });

  it('check the payout method against the settings', () => {
    const settings = {
      ...ready.settings!,
      walletAddress: null,
      zelleEmail: null,
      referralCode: null,
      receiveEmail: true,
      receiveSMS: true,
    };
    expect(sellMethodFailure('zelle', null)).toBe('Settings are not available.');
    expect(sellMethodFailure('zelle', settings)).toBe('Add Zelle payment email in settings.');
    expect(sellMethodFailure('zelle', { ...settings, zelleEmail: 'ada@example.com' })).toBeNull();
    expect(sellMethodFailure('ach', settings)).toBeNull();
    expect(sellMethodFailure('ach', { ...settings, bankAccount: null })).toBe(
      'Add ACH transfer details in settings.',
    );
    expect(sellMethodFailure('wire', settings)).toBe('Add Wire transfer details in settings.');
    expect(
      sellMethodFailure('wire', {
        ...settings,
        bankAccount: { ...settings.bankAccount!, swift: 'CHASUS33' },
      }),
    ).toBeNull();
    expect(sellMethodFailure('paypal', settings)).toBe('Invalid payment method.');
  });
});

it('words the minimum like the server', () => {
  expect(minimumOrderMessage(2_000n)).toBe('Minimum order is $20.00');
});
