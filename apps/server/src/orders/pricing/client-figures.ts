import type { SaveOrderRequest } from '@offzero/shared/api/orders';
import { btcNumberToSats, MoneyParseError, usdNumberToCents } from '@offzero/shared/money/money';
import { AppError } from '../../http/errors';
import { lightningDestinationKind } from '@offzero/shared/bitcoin/payout-destination';
import { ENTER_AMOUNT, type Figures } from './priced-order';

/**
 * The bitcoin address a buy pays out to as typed; null when it names an address-book entry and no
 * address, or when its destination is a Lightning one (checked by the Lightning rail instead,
 * docs/design.md, "Lightning").
 */
export function buyWalletAddress(body: SaveOrderRequest): string | null {
  const typed = body.walletAddress?.trim() ?? '';
  if (lightningDestinationKind(typed) !== null) return null;
  // With an address-book entry named, the entry decides the address (save-buy-order checks it).
  return body.payoutAddressId !== undefined && typed === '' ? null : typed;
}

/** The client's figures as integers; a sell's value may be nothing, which is checked after its amount. */
export function parseClientFigures(body: SaveOrderRequest): Figures {
  return parseMoney(() => {
    const figures = {
      amountSats: btcNumberToSats(body.amount),
      valueCents: usdNumberToCents(body.value),
      priceCents: usdNumberToCents(body.price),
      platformFeeCents: usdNumberToCents(body.platformFee),
      networkFeeCents: body.type === 'buy' ? usdNumberToCents(body.networkFee ?? 0) : 0n,
      bankFeeCents: body.type === 'sell' ? usdNumberToCents(body.bankFee ?? 0) : 0n,
    };
    const noValue = body.type === 'buy' && figures.valueCents <= 0n;
    if (figures.amountSats <= 0n || noValue || figures.priceCents <= 0n) {
      throw new AppError('BAD_REQUEST', ENTER_AMOUNT);
    }
    return figures;
  });
}

/** Reads an amount the client sent; one the money rules refuse is a 400 with their message. */
export function parseMoney<T>(read: () => T): T {
  try {
    return read();
  } catch (error) {
    if (error instanceof MoneyParseError) throw new AppError('BAD_REQUEST', error.message);
    throw error;
  }
}
