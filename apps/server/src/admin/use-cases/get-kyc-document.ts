import type { Database } from '../../db/database';
import { AppError } from '../../http/errors';
import { getKycCase } from './get-kyc-case';

/** The document image a customer uploaded with the local verification form. */
export async function getKycDocument(
  deps: { db: Database },
  userId: string,
): Promise<{ bytes: Buffer; mimeType: string }> {
  const { record } = await getKycCase(deps, userId);
  if (!record.documentImage || !record.documentMimeType)
    throw new AppError('NOT_FOUND', 'No document image for this case.');
  return { bytes: Buffer.from(record.documentImage), mimeType: record.documentMimeType };
}
