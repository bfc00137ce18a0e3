import type { Transaction } from '../db/database';
import { writeOutbox } from '../outbox/outbox.repository';

/**
 * Security e-mails about a user's passkeys, written into the outbox in the transaction of the change
 * (whatever the notification toggles say).
 */
export async function writePasskeyNotice(
  tx: Transaction,
  user: { id: string; email: string },
  eventKey: string,
  message: { subject: string; text: string },
): Promise<void> {
  await writeOutbox(tx, [
    {
      eventKey: `passkey:${eventKey}`,
      channel: 'email',
      recipient: user.email,
      userId: user.id,
      payload: message,
    },
  ]);
}
