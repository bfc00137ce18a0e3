import { W9_REQUIRED_MESSAGE } from '@offzero/shared/api/tax';
import type { Database } from '../../db/database';
import type { UserRow } from '../../db/schema';
import { AppError } from '../../http/errors';
import { findTaxIdentity } from '../../tax/tax.repository';

/**
 * A sale is reported to the IRS on Form 1099-DA, which needs the seller's certified TIN: no sell is
 * saved before the customer filed a W-9 (docs/design.md). Checked after the customer checks.
 */
export async function assertW9OnFile(db: Database, user: UserRow): Promise<void> {
  if (!(await findTaxIdentity(db, user.id))) throw new AppError('W9_REQUIRED', W9_REQUIRED_MESSAGE);
}
