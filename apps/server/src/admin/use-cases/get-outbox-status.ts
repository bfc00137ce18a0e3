import type { FailedOutboxDelivery } from '@offzero/shared/api/admin';
import type { OutboxService } from '../../outbox/outbox.service';

/** The outbox's backlog for the back office: how many deliveries wait, and those parked as failed. */
export async function getOutboxStatus(deps: {
  outbox: Pick<OutboxService, 'pending' | 'failed'>;
}): Promise<{ pending: number; failed: FailedOutboxDelivery[] }> {
  const [pending, failed] = await Promise.all([deps.outbox.pending(), deps.outbox.failed()]);
  return {
    pending,
    failed: failed.map((row) => ({
      id: String(row.id),
      eventKey: row.eventKey,
      channel: row.channel,
      recipient: row.recipient,
      userId: row.userId,
      attempts: row.attempts,
      error: row.lastError ?? 'failed',
      createdAt: row.createdAt.toISOString(),
      failedAt: (row.failedAt ?? row.createdAt).toISOString(),
    })),
  };
}
