import { formatBtc } from '@offzero/shared/money/money';
import { AppError } from '../../../http/errors';

/** A chain estimate in sat/vB (decimals allowed) as whole sat/kvB, never below the 1 sat/vB relay floor. */
export function feeRateToKvb(satPerVb: number): number {
  if (!Number.isFinite(satPerVb) || satPerVb <= 0)
    throw new AppError('UNAVAILABLE', 'The chain gave no usable fee estimate. Try again in a minute.');
  return Math.max(1000, Math.ceil(satPerVb * 1000));
}

/** Refuses a fee above `capPercent` of what the batch pays customers (PAYOUT_FEE_CAP_PERCENT). */
export function feeWithinCap(feeSats: bigint, payoutSats: bigint, capPercent: number): void {
  const capBasisPoints = BigInt(Math.round(capPercent * 100));
  if (feeSats * 10_000n > payoutSats * capBasisPoints) {
    throw new AppError(
      'BAD_REQUEST',
      `The network fee of ${formatBtc(feeSats, 8)} BTC is over the ${capPercent}% cap of the ${formatBtc(payoutSats, 8)} BTC ` +
        'this batch pays. Choose a cheaper fee tier, or wait for more buys to batch together.',
    );
  }
}
