import type { Database } from '../db/database';
import type { KycRecordRow, KycStatus } from '../db/schema';
import { AppError } from '../http/errors';
import type { KycService } from '../kyc/kyc.service';
import { findOutboxMessages, userExists, type OutboxMessageRow } from './dev.repository';

/** The demo's shortcuts: decide a customer's KYC at once, read the e-mail and SMS the demo "sent". */
export function createDevService(deps: { db: Database; kyc: KycService }) {
  return {
    async decideKyc(userId: string, status: KycStatus): Promise<KycRecordRow> {
      if (!(await userExists(deps.db, userId))) throw new AppError('NOT_FOUND', 'No customer has this id.');
      return deps.kyc.decide(userId, status, 'demo helper');
    },

    /** The newest messages, to `to` (any case) or to anyone. */
    outbox: (to: string | undefined): Promise<OutboxMessageRow[]> =>
      findOutboxMessages(deps.db, to?.toLowerCase()),
  };
}

export type DevService = ReturnType<typeof createDevService>;
