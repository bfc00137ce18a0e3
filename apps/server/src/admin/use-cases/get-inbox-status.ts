import type { z } from 'zod';
import type { inboxStatusSchema } from '@offzero/shared/api/admin';
import type { InboxService } from '../../inbox/inbox.service';

/** The webhook inbox's backlog for the back office: how many wait, and those parked as failed. */
export async function getInboxStatus(deps: {
  inbox: Pick<InboxService, 'counts' | 'failed'>;
}): Promise<z.infer<typeof inboxStatusSchema>> {
  const [counts, failed] = await Promise.all([deps.inbox.counts(), deps.inbox.failed()]);
  return {
    pending: counts.pending,
    failed: failed.map((row) => ({
      id: row.id,
      provider: row.provider,
      attempts: row.attempts,
      error: row.lastError ?? 'failed',
      receivedAt: row.receivedAt.toISOString(),
    })),
  };
}
