import { formatBtc } from '@offzero/shared/money/money';

/** What customers read about Lightning (docs/design.md, "Lightning"). */
export const LIGHTNING_MESSAGES = {
  off: 'Lightning is not available right now. Send bitcoin on chain instead.',
  nodeDown: 'Our Lightning node did not answer. Try again in a minute, or send bitcoin on chain instead.',
  overOrderCap: (maxSats: bigint) =>
    `Lightning takes up to ${formatBtc(maxSats)} BTC per order. Sell a smaller amount, or send bitcoin on chain instead.`,
} as const;
