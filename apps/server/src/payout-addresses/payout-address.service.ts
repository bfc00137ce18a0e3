import { bitcoinAddressProblem, type BitcoinNetwork } from '@offzero/shared/bitcoin/address';
import {
  PAYOUT_ADDRESS_LIMIT,
  looksLikeExtendedKey,
  type AddPayoutAddressRequest,
} from '@offzero/shared/api/payout-addresses';
import type { Database, Transaction } from '../db/database';
import type { PayoutAddressRow } from '../db/schema';
import { isUniqueViolation } from '../db/postgres-errors';
import { AppError } from '../http/errors';
import { isUuid } from '../http/ids';
import { lightningDestinationKind } from '@offzero/shared/bitcoin/payout-destination';
import type { OutboxService } from '../outbox/outbox.service';
import {
  confirmPayoutAddress,
  countPayoutAddresses,
  findPayoutAddress,
  findPayoutAddressByAddress,
  findPayoutAddressByXpub,
  insertPayoutAddress,
  listPayoutAddresses,
  lockAddressBook,
  markPayoutAddressProven,
  markPayoutAddressRemoved,
  setDefaultPayoutAddress,
} from './payout-address.repository';
import { proofAddressOf } from './payout-address.presenter';
import { PayoutKeyError, parsePayoutXpub } from './payout-xpub';
import { verifyOwnershipProof } from './ownership-proof';
import {
  createPayoutAddressNotices,
  hashConfirmToken,
  type PayoutAddressNotices,
} from './payout-address-notices';

/**
 * The sanctions screening of an address (compliance). It throws an `AppError` (400 "This address
 * cannot be used. Contact support.") for a listed address; the address book calls it for every
 * address added and for every address an xpub entry is about to be paid at. Until compliance wires
 * its list in, no address is refused here.
 */
export type ScreenAddress = (
  address: string,
  context: {
    userId: string;
    purpose: 'address-book' | 'xpub-payout';
    /** The caller's open transaction, which the screening reads through (one connection on PGlite). */
    tx?: Transaction | undefined;
  },
) => Promise<void>;

export const screenNothing: ScreenAddress = async () => undefined;

const NOT_FOUND_MESSAGE = 'We found no such payout address in your address book.';

export interface PayoutAddressDeps {
  db: Database;
  network: BitcoinNetwork;
  publicUrl: string;
  cooldownHours: number;
  outbox: Pick<OutboxService, 'deliverForUser'>;
  screenAddress?: ScreenAddress | undefined;
  /** Whether the customer has a passkey: then a new address enters the book only confirmed by it. */
  hasPasskey?: ((userId: string, tx?: Transaction) => Promise<boolean>) | undefined;
  /** The end of a hold on new destinations (after a recovery without a passkey), if one runs. */
  payoutHoldUntil?: ((userId: string, tx?: Transaction) => Promise<Date | null>) | undefined;
  now?: (() => Date) | undefined;
}

/** What the customer added: a checked address or public key (a private key never gets past here). */
type CheckedTarget = { address: string; xpub: null } | { address: null; xpub: string };

/** Checks an address or extended key against the configured network; 400 with a message otherwise. */
export function checkPayoutTarget(
  input: { address?: string | undefined; xpub?: string | undefined },
  network: BitcoinNetwork,
): CheckedTarget {
  // A key pasted into the address field is read as a key, so a private key is refused, not stored.
  const key =
    input.xpub ?? (input.address && looksLikeExtendedKey(input.address) ? input.address : undefined);
  if (key !== undefined) {
    try {
      parsePayoutXpub(key, network);
    } catch (error) {
      if (error instanceof PayoutKeyError) {
        throw new AppError('BAD_REQUEST', error.message, {
          [input.xpub ? 'xpub' : 'address']: error.message,
        });
      }
      throw error;
    }
    return { address: null, xpub: key };
  }
  const address = input.address ?? '';
  // A Lightning address (name@domain) is an entry like an on-chain address (docs/design.md, "Lightning"):
  // confirmed by e-mail, usable after the cooldown; the node pays the invoice it answers.
  if (lightningDestinationKind(address) === 'lightning-address') {
    return {
      address: address
        .trim()
        .replace(/^lightning:/i, '')
        .toLowerCase(),
      xpub: null,
    };
  }
  const message = bitcoinAddressProblem(address, network);
  if (message !== null) throw new AppError('BAD_REQUEST', message, { address: message });
  return { address, xpub: null };
}

/** What the service's parts share. */
interface PayoutAddressContext {
  db: Database;
  network: BitcoinNetwork;
  cooldownHours: number;
  now: () => Date;
  screen: ScreenAddress;
  outbox: Pick<OutboxService, 'deliverForUser'>;
  notices: PayoutAddressNotices;
  payoutHoldUntil: (userId: string, tx?: Transaction) => Promise<Date | null>;
  hasPasskey: (userId: string, tx?: Transaction) => Promise<boolean>;
  /** `tx`: inside the caller's transaction (the embedded database has one connection). */
  findOwn: (userId: string, id: string, tx?: Transaction) => Promise<PayoutAddressRow>;
}

export function createPayoutAddressService(deps: PayoutAddressDeps) {
  const { db, network } = deps;
  const now = deps.now ?? (() => new Date());

  async function findOwn(userId: string, id: string, tx?: Transaction): Promise<PayoutAddressRow> {
    const entry = isUuid(id) ? await findPayoutAddress(tx ?? db, userId, id) : undefined;
    if (!entry) throw new AppError('NOT_FOUND', NOT_FOUND_MESSAGE);
    return entry;
  }

  const context: PayoutAddressContext = {
    db,
    network,
    cooldownHours: deps.cooldownHours,
    now,
    screen: deps.screenAddress ?? screenNothing,
    outbox: deps.outbox,
    notices: createPayoutAddressNotices({
      publicUrl: deps.publicUrl,
      cooldownHours: deps.cooldownHours,
      now,
    }),
    findOwn,
    payoutHoldUntil: deps.payoutHoldUntil ?? (async () => null),
    hasPasskey: deps.hasPasskey ?? (async () => false),
  };

  return {
    now,

    list: (userId: string) => listPayoutAddresses(db, userId),

    /** Delivers at once the notices a committed change wrote (the job retries what fails). */
    deliverNotices: (userId: string) => deps.outbox.deliverForUser(userId),

    ...entryAdds(context),

    /** One of the customer's own entries (another customer's or a removed one: 404). */
    findOwn,

    ...entryChanges(context),
  };
}

/** Adding entries: from the address book itself, or for the plain address a buy or the wallet card names. */
function entryAdds({ db, network, screen, outbox, notices, hasPasskey }: PayoutAddressContext) {
  /**
   * Adds an entry in the caller's transaction (the book's lock held): the limit, duplicates, the
   * screening hook, and the e-mail with its confirmation link.
   */
  async function addInTransaction(
    tx: Transaction,
    userId: string,
    target: CheckedTarget,
    options: { label: string; isDefault: boolean },
  ): Promise<PayoutAddressRow> {
    await lockAddressBook(tx, userId);
    const duplicate = target.address
      ? await findPayoutAddressByAddress(tx, userId, target.address)
      : await findPayoutAddressByXpub(tx, userId, target.xpub!);
    if (duplicate) throw new AppError('CONFLICT', 'This address is already in your address book.');
    if ((await countPayoutAddresses(tx, userId)) >= PAYOUT_ADDRESS_LIMIT) {
      throw new AppError(
        'CONFLICT',
        `Your address book holds ${PAYOUT_ADDRESS_LIMIT} addresses, the most it keeps. Remove one you no longer use first.`,
      );
    }
    const entry = await insertPayoutAddress(tx, {
      userId,
      label: options.label,
      address: target.address,
      xpub: target.xpub,
      isDefault: false,
      confirmTokenHash: null,
      confirmTokenExpiresAt: null,
    });
    if (options.isDefault) await setDefaultPayoutAddress(tx, userId, entry.id);
    await notices.sendConfirmLink(tx, entry, 'added');
    return { ...entry, isDefault: options.isDefault };
  }

  async function screenTarget(userId: string, target: CheckedTarget, tx?: Transaction): Promise<void> {
    await screen(target.address ?? proofAddressOf(target, network), { userId, purpose: 'address-book', tx });
  }

  return {
    async add(userId: string, body: AddPayoutAddressRequest): Promise<PayoutAddressRow> {
      const target = checkPayoutTarget(body, network);
      await screenTarget(userId, target);
      try {
        const entry = await db.transaction((tx) =>
          addInTransaction(tx, userId, target, { label: body.label, isDefault: false }),
        );
        await outbox.deliverForUser(userId);
        return entry;
      } catch (error) {
        // Two adds of the same address at once: the unique index decides.
        if (isUniqueViolation(error)) {
          throw new AppError('CONFLICT', 'This address is already in your address book.');
        }
        throw error;
      }
    },

    /**
     * The entry of a plain address a buy or the Settings wallet card names, in the caller's transaction:
     * the existing entry, or a new unconfirmed one (e-mailed). Its payout waits until it is usable.
     * `screened`: the caller has just screened this very address (a buy's save does, before pricing).
     */
    async ensureEntryForAddress(
      tx: Transaction,
      userId: string,
      address: string,
      options: { label: string; makeDefault: boolean; screened?: boolean; confirmedByPasskey?: boolean },
    ): Promise<PayoutAddressRow> {
      const target = checkPayoutTarget({ address }, network);
      if (!options.screened) await screenTarget(userId, target, tx);
      const existing = await findPayoutAddressByAddress(tx, userId, address);
      if (existing) {
        if (options.makeDefault && !existing.isDefault) {
          await setDefaultPayoutAddress(tx, userId, existing.id);
          return { ...existing, isDefault: true };
        }
        return existing;
      }
      // With a passkey, a new destination is added where the passkey confirms it (docs/design.md,
      // "Passkeys"), never on the side of a buy.
      if (!options.confirmedByPasskey && (await hasPasskey(userId, tx))) {
        throw new AppError(
          'PASSKEY_STEP_UP_REQUIRED',
          'Add this address in Settings → Payout addresses first: your passkey confirms every new address.',
        );
      }
      return addInTransaction(tx, userId, target, { label: options.label, isDefault: options.makeDefault });
    },
  };
}

/** Why a confirmation link changed nothing, from the entry as it is now. */
function refuseConfirmation(current: PayoutAddressRow, tokenHash: string): never {
  if (current.confirmedAt) {
    throw new AppError('CONFLICT', 'This link was already used: the address is confirmed.');
  }
  if (current.confirmTokenHash !== tokenHash) {
    throw new AppError(
      'BAD_REQUEST',
      'This confirmation link is not valid. Open the newest link we e-mailed you, or send a new one from Settings.',
    );
  }
  throw new AppError('GONE', 'This confirmation link has expired. Send a new one from Settings.');
}

/** What the customer does to an entry of their own: confirm it, ask for a new link, remove it, prove it. */
function entryChanges(context: PayoutAddressContext) {
  const { db, network, cooldownHours, now, outbox, notices, findOwn } = context;
  return {
    async confirm(userId: string, id: string, token: string): Promise<PayoutAddressRow> {
      const entry = await findOwn(userId, id);
      const at = now();
      const tokenHash = hashConfirmToken(token);
      const confirmed = await db.transaction(async (tx) => {
        const cooledDown = new Date(at.getTime() + cooldownHours * 3_600_000);
        const held = await context.payoutHoldUntil(userId, tx);
        const row = await confirmPayoutAddress(tx, {
          userId,
          id: entry.id,
          tokenHash,
          now: at,
          usableAt: held && held > cooledDown ? held : cooledDown,
        });
        if (row) await notices.confirmed(tx, row);
        return row;
      });
      if (confirmed) {
        await outbox.deliverForUser(userId);
        return confirmed;
      }
      // Nothing changed: say why, from the entry as it is now.
      return refuseConfirmation(await findOwn(userId, id), tokenHash);
    },

    async resendLink(userId: string, id: string): Promise<PayoutAddressRow> {
      const entry = await findOwn(userId, id);
      if (entry.confirmedAt) throw new AppError('CONFLICT', 'This address is already confirmed.');
      await db.transaction((tx) => notices.sendConfirmLink(tx, entry, 'resent'));
      await outbox.deliverForUser(userId);
      return entry;
    },

    async remove(userId: string, id: string): Promise<PayoutAddressRow> {
      const entry = await findOwn(userId, id);
      const removed = await db.transaction(async (tx) => {
        await lockAddressBook(tx, userId);
        const row = await markPayoutAddressRemoved(tx, entry.id, now());
        if (!row) throw new AppError('NOT_FOUND', NOT_FOUND_MESSAGE);
        await notices.removed(tx, row);
        return row;
      });
      await outbox.deliverForUser(userId);
      return removed;
    },

    /** Checks a BIP-322 signature of the ownership message and marks the entry proven. */
    async prove(userId: string, id: string, signature: string): Promise<PayoutAddressRow> {
      const entry = await findOwn(userId, id);
      const address = proofAddressOf(entry, network);
      verifyOwnershipProof({ userId, address, signature });
      const proven = await markPayoutAddressProven(db, entry.id, now());
      if (!proven) throw new AppError('NOT_FOUND', NOT_FOUND_MESSAGE);
      return proven;
    },
  };
}

export type PayoutAddressService = ReturnType<typeof createPayoutAddressService>;
