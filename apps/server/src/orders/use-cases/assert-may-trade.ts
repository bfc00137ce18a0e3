import { BUY_CHECK_MESSAGES } from '@offzero/shared/api/orders';
import { formatCentsAsCurrency } from '@offzero/shared/currency/format-currency';
import type { Cents } from '@offzero/shared/money/money';
import type { Database } from '../../db/database';
import type { GlobalSettingsRow, KycRecordRow, UserRow } from '../../db/schema';
import { AppError } from '../../http/errors';
import { findKycVerdict } from '../../kyc/kyc.repository';
import { findCustomerSettings } from '../customer.repository';

/**
 * The customer checks of the product specification, in the spec's order, with its exact messages: e-mail, phone,
 * (for a sell) a bank account, KYC exists, KYC not rejected (with its reason), KYC approved, then the
 * order size limits. A restricted customer (docs/design.md) is refused before any of them.
 */
export async function assertMayTrade(
  db: Database,
  user: UserRow,
  settings: GlobalSettingsRow,
  valueCents: Cents,
  type: 'buy' | 'sell',
  known?: KnownVerdict,
): Promise<void> {
  await assertCustomerMayTrade(db, user, type, known);
  assertWithinLimits(settings, valueCents);
}

/** The customer's KYC verdict when the caller has read it already (null: no KYC record). */
export interface KnownVerdict {
  kyc: Pick<KycRecordRow, 'status' | 'reviewNote'> | null;
}

/** The customer checks alone, without the order size limits: a sell checks its amount in between. */
export async function assertCustomerMayTrade(
  db: Database,
  user: UserRow,
  type: 'buy' | 'sell',
  known?: KnownVerdict,
): Promise<void> {
  if (user.restrictedAt) throw new AppError('FORBIDDEN', BUY_CHECK_MESSAGES.accountRestricted);
  if (!user.emailVerified) throw new AppError('FORBIDDEN', BUY_CHECK_MESSAGES.emailNotVerified);
  if (!user.phoneVerified) throw new AppError('FORBIDDEN', BUY_CHECK_MESSAGES.phoneNotVerified);
  if (type === 'sell') {
    const own = await findCustomerSettings(db, user.id);
    if (!own?.accountNumber) throw new AppError('FORBIDDEN', BUY_CHECK_MESSAGES.noBankAccount);
  }
  const kyc = known ? known.kyc : await findKycVerdict(db, user.id);
  if (!kyc) throw new AppError('FORBIDDEN', BUY_CHECK_MESSAGES.noKyc);
  // A rejected customer reads why, so they can submit again; "under review" is for YELLOW only.
  if (kyc.status === 'RED') throw new AppError('FORBIDDEN', BUY_CHECK_MESSAGES.kycRejected(kyc.reviewNote));
  if (kyc.status !== 'GREEN') throw new AppError('FORBIDDEN', BUY_CHECK_MESSAGES.kycNotApproved);
}

/** `min_order_size` … `max_order_size`, checked on the client's value and again on the server's own. */
export function assertWithinLimits(settings: GlobalSettingsRow, valueCents: Cents): void {
  if (valueCents > settings.maxOrderCents) {
    throw new AppError(
      'BAD_REQUEST',
      BUY_CHECK_MESSAGES.maximum(formatCentsAsCurrency(settings.maxOrderCents)),
    );
  }
  if (valueCents < settings.minOrderCents) {
    throw new AppError('BAD_REQUEST', `Minimum order is ${formatCentsAsCurrency(settings.minOrderCents)}`);
  }
}
