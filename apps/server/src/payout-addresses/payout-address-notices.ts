import { createHash, randomBytes } from 'node:crypto';
import type { Transaction } from '../db/database';
import type { PayoutAddressRow } from '../db/schema';
import { writeOutbox } from '../outbox/outbox.repository';
import { findCustomerEmail, setConfirmToken } from './payout-address.repository';

/**
 * The e-mails about a customer's address book (added with its confirmation link, confirmed, removed),
 * written into the outbox in the transaction of the change (docs/design.md, "Deposits and the payout
 * address book").
 */

/** How long an e-mailed confirmation link works. */
export const CONFIRM_LINK_HOURS = 48;

export function hashConfirmToken(token: string): string {
  return createHash('sha256').update(token, 'utf8').digest('hex');
}

export interface PayoutAddressNoticeDeps {
  publicUrl: string;
  cooldownHours: number;
  now: () => Date;
}

export interface PayoutAddressNotices {
  /** A fresh single-use link for an unconfirmed entry, stored as a hash, and the e-mail carrying it. */
  sendConfirmLink(tx: Transaction, entry: PayoutAddressRow, reason: 'added' | 'resent'): Promise<void>;
  confirmed(tx: Transaction, entry: PayoutAddressRow): Promise<void>;
  removed(tx: Transaction, entry: PayoutAddressRow): Promise<void>;
}

function describe(entry: PayoutAddressRow): string {
  return entry.address
    ? `"${entry.label}" (${entry.address})`
    : `"${entry.label}" (extended public key ${entry.xpub!.slice(0, 12)}…${entry.xpub!.slice(-6)})`;
}

/** Writes an e-mail about the book into the outbox, in the transaction of the change. */
async function writeNotice(
  tx: Transaction,
  entry: PayoutAddressRow,
  event: string,
  message: { subject: string; text: string },
): Promise<void> {
  const email = await findCustomerEmail(tx, entry.userId);
  if (!email) return;
  // Security notices go whatever the customer's notification toggles say.
  await writeOutbox(tx, [
    {
      eventKey: `payout-address:${entry.id}:${event}`,
      channel: 'email',
      recipient: email,
      userId: entry.userId,
      payload: message,
    },
  ]);
}

export function createPayoutAddressNotices(deps: PayoutAddressNoticeDeps): PayoutAddressNotices {
  function confirmLink(id: string, token: string): string {
    const query = new URLSearchParams({ id, token });
    return `${deps.publicUrl}/settings/payout-addresses/confirm?${query.toString()}`;
  }

  function cooldownText(): string {
    const hours = deps.cooldownHours;
    if (hours === 0) return 'as soon as you confirm it';
    return `${hours} hour${hours === 1 ? '' : 's'} after you confirm it`;
  }

  return {
    async sendConfirmLink(tx, entry, reason) {
      const token = randomBytes(32).toString('base64url');
      const hash = hashConfirmToken(token);
      await setConfirmToken(tx, entry.id, {
        hash,
        expiresAt: new Date(deps.now().getTime() + CONFIRM_LINK_HOURS * 3_600_000),
      });
      const added =
        reason === 'added'
          ? `You added ${describe(entry)} to your OffZero payout addresses.`
          : `Here is a new confirmation link for ${describe(entry)}.`;
      await writeNotice(tx, entry, `link:${hash.slice(0, 16)}`, {
        subject: 'Confirm your new payout address',
        text:
          `${added} Confirm it within ${CONFIRM_LINK_HOURS} hours by opening this link while signed in: ` +
          `${confirmLink(entry.id, token)} — payouts can go to it ${cooldownText()}. ` +
          'If this was not you, do not open the link: remove the address in Settings and contact support.',
      });
    },

    async confirmed(tx, entry) {
      await writeNotice(tx, entry, 'confirmed', {
        subject: 'Payout address confirmed',
        text:
          `You confirmed ${describe(entry)} as an OffZero payout address. Payouts can go to it from ` +
          `${entry.usableAt!.toISOString().replace('T', ' ').slice(0, 16)} UTC. ` +
          'If this was not you, remove it in Settings and contact support.',
      });
    },

    async removed(tx, entry) {
      await writeNotice(tx, entry, 'removed', {
        subject: 'Payout address removed',
        text:
          `You removed ${describe(entry)} from your OffZero payout addresses. Buys that named it wait ` +
          'until you choose another address with support. If this was not you, contact support.',
      });
    },
  };
}
