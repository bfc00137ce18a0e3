import { describe, expect, it } from 'vitest';
import {
  BUY_CHECK_MESSAGES,
  buyConfirmationFormSchema,
  quoteFormSchema,
  sellMethodFormSchema,
  SELL_METHOD_MESSAGES,
} from './orders';
import { UNCLEAR_AMOUNT_MESSAGE } from '../money/money';

const TESTNET_ADDRESS = 'tb1qw508d6qejxtdg4y5r3zarvary0c5xw7kxpjzsx';

describe('trade widget form schemas', () => {
  it('takes amount text as the fields hold it, and nothing else', () => {
    expect(quoteFormSchema.safeParse({ source: 'usd', text: '250.5' }).success).toBe(true);
    expect(quoteFormSchema.safeParse({ source: 'btc', text: '' }).success).toBe(true);
    expect(quoteFormSchema.safeParse({ source: 'usd', text: '2e5' }).success).toBe(false);
    expect(quoteFormSchema.safeParse({ source: 'usd', text: '$25,000' }).success).toBe(true);
    expect(quoteFormSchema.safeParse({ source: 'btc', text: '1,000.5' }).success).toBe(true);
    const unclear = quoteFormSchema.safeParse({ source: 'usd', text: '1,00' });
    expect(unclear.error?.issues).toMatchObject([{ path: ['text'], message: UNCLEAR_AMOUNT_MESSAGE }]);
    expect(quoteFormSchema.safeParse({ source: 'eur', text: '1' }).success).toBe(false);
  });

  it("trims the buyer's address and refuses a bad one with the spec's message and what is wrong", () => {
    const testnet = buyConfirmationFormSchema('testnet');
    expect(testnet.parse({ walletAddress: `  ${TESTNET_ADDRESS} ` })).toEqual({
      walletAddress: TESTNET_ADDRESS,
    });
    for (const [walletAddress, problem] of [
      ['not-an-address', 'This is not a bitcoin address.'],
      ['', 'Enter a bitcoin address.'],
      ['bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t4', 'This is a mainnet address. Use a testnet address.'],
    ]) {
      const result = testnet.safeParse({ walletAddress });
      expect(result.success).toBe(false);
      expect(result.error?.issues[0]?.message).toBe(`${BUY_CHECK_MESSAGES.invalidAddress}. ${problem}`);
    }
    expect(buyConfirmationFormSchema('mainnet').safeParse({ walletAddress: TESTNET_ADDRESS }).success).toBe(
      false,
    );
  });

  it('takes a Lightning invoice or a Lightning address as the destination (the server reads it in full)', () => {
    const testnet = buyConfirmationFormSchema('testnet');
    for (const walletAddress of ['lntb10u1pjexample0qqqsp5', 'LIGHTNING:lntb1pjexample0qq', 'ada@wallet.example']) {
      expect(testnet.safeParse({ walletAddress }).success, walletAddress).toBe(true);
    }
    expect(testnet.safeParse({ walletAddress: 'ada@' }).success).toBe(false);
    expect(testnet.safeParse({ walletAddress: 'x'.repeat(2001) }).success).toBe(false);
  });

  it("takes the three payout methods only, with the spec's message for anything else", () => {
    expect(sellMethodFormSchema.parse({ method: 'ach' })).toEqual({ method: 'ach' });
    const result = sellMethodFormSchema.safeParse({ method: 'paypal' });
    expect(result.error?.issues[0]?.message).toBe(SELL_METHOD_MESSAGES.invalidMethod);
  });
});
