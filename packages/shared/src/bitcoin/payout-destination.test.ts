import { describe, expect, it } from 'vitest';
import { lightningDestinationKind, payoutDestinationKind } from './payout-destination';

const TESTNET_ADDRESS = 'tb1qw508d6qejxtdg4y5r3zarvary0c5xw7kxpjzsx';
// The first example of BOLT #11 (mainnet, no amount).
const MAINNET_INVOICE =
  'lnbc1pvjluezsp5zyg3zyg3zyg3zyg3zyg3zyg3zyg3zyg3zyg3zyg3zyg3zyg3zygspp5qqqsyqcyq5rqwzqfqqqsyqcyq5rqwzqfqqqsyqcyq5rqwzqfqypqdpl2pkx2ctnv5sxxmmwwd5kgetjypeh2ursdae8g6twvus8g6rfwvs8qun0dfjkxaq9qrsgq357wnc5r2ueh7ck6q93dj32dlqnls087fxdwk8qakdyafkq3yap9us6v52vjjsrvywa6rt52cm9r9zqt8r2t7mlcwspyetp5h2tztugp9lfyql';

describe('the kind of a buy destination, by its form', () => {
  it('tells a bitcoin address, a Lightning invoice and a Lightning address apart', () => {
    expect(payoutDestinationKind(TESTNET_ADDRESS, 'testnet')).toBe('bitcoin-address');
    expect(payoutDestinationKind(MAINNET_INVOICE, 'testnet')).toBe('invoice');
    expect(payoutDestinationKind(`lightning:${MAINNET_INVOICE.toUpperCase()}`, 'mainnet')).toBe('invoice');
    expect(payoutDestinationKind(' ada@wallet.example ', 'mainnet')).toBe('lightning-address');
  });

  it('names nothing for what is none of them, or an address of another network', () => {
    for (const text of ['', 'hello', 'ada@', '@wallet.example', 'lnbc', 'bitcoin:tb1q']) {
      expect(payoutDestinationKind(text, 'testnet'), text).toBeNull();
    }
    expect(payoutDestinationKind(TESTNET_ADDRESS, 'mainnet')).toBeNull();
    expect(lightningDestinationKind(TESTNET_ADDRESS)).toBeNull();
  });
});
