import { bitcoinAddressProblem, type BitcoinNetwork } from '@offzero/shared/bitcoin/address';
import { addressRefusal } from '@offzero/shared/bitcoin/address-field';
import {
  WALLET_ADDRESS_MESSAGE,
  type BankAccount,
  type UserSettings,
} from '@offzero/shared/api/user-settings';
import type { Database } from '../db/database';
import type { PayoutAddressService } from '../payout-addresses/payout-address.service';
import type { UserSettingsRow } from '../db/schema';
import { AppError } from '../http/errors';
import { assertAddressNotSanctioned } from '../compliance/sanctions/sanctions-screening';
import { findReferralCodeHolders, lockReferralCode } from '../referrals/referral.repository';
import {
  findReferralCode,
  findUserSettings,
  saveUserSettings,
  setReferralCode,
  type UserSettingsChange,
} from './user-settings.repository';

/** A customer's payout details, wallet, notification choices and referral code. */
export function createUserSettingsService(
  db: Database,
  network: BitcoinNetwork,
  payoutAddresses: Pick<PayoutAddressService, 'ensureEntryForAddress' | 'deliverNotices'>,
) {
  const upsert = (userId: string, change: UserSettingsChange) => saveUserSettings(db, userId, change);
  const findRow = (userId: string): Promise<UserSettingsRow | null> => findUserSettings(db, userId);

  return {
    findRow,

    async get(userId: string): Promise<UserSettings> {
      const row = await findRow(userId);
      const referralCode = await findReferralCode(db, userId);
      return {
        bankAccount:
          row?.accountNumber != null
            ? {
                bank_name: row.bankName ?? '',
                account_name: row.accountName ?? '',
                account_number: row.accountNumber,
                address: row.bankAddress ?? '',
                routing_number: row.routingNumber ?? '',
                swift: row.swift ?? '',
              }
            : null,
        walletAddress: row?.walletAddress ?? null,
        zelleEmail: row?.zelleEmail ?? null,
        referralCode,
        receiveEmail: row?.receiveEmail ?? true,
        receiveSMS: row?.receiveSms ?? true,
      };
    },

    async saveBank(userId: string, bank: BankAccount): Promise<void> {
      await upsert(userId, {
        bankName: bank.bank_name,
        accountName: bank.account_name,
        accountNumber: bank.account_number,
        bankAddress: bank.address,
        routingNumber: bank.routing_number,
        swift: bank.swift,
      });
    },

    async saveZelleEmail(userId: string, zelleEmail: string): Promise<void> {
      await upsert(userId, { zelleEmail });
    },

    /** Answers whether the address still waits for its e-mailed confirmation. */
    async saveWalletAddress(userId: string, address: string): Promise<{ awaitingConfirmation: boolean }> {
      // The server checks the network itself, whatever the browser's validator accepted.
      const problem = bitcoinAddressProblem(address, network);
      if (problem !== null) {
        const message = addressRefusal(WALLET_ADDRESS_MESSAGE, problem);
        throw new AppError('BAD_REQUEST', message, { walletAddress: problem });
      }
      // docs/design.md: a sanctioned address is never kept as the customer's wallet.
      await assertAddressNotSanctioned(db, address, 'walletAddress');
      // The wallet card is the default entry of the address book: a new address there is confirmed
      // from an e-mailed link and waits out the cooldown like any other (docs/design.md).
      const entry = await db.transaction(async (tx) => {
        const saved = await payoutAddresses.ensureEntryForAddress(tx, userId, address, {
          label: 'Wallet',
          makeDefault: true,
          // The route asked for the passkey's assertion for this address (`wallet-address.save`).
          confirmedByPasskey: true,
        });
        await saveUserSettings(tx, userId, { walletAddress: address });
        return saved;
      });
      await payoutAddresses.deliverNotices(userId);
      return { awaitingConfirmation: entry.confirmedAt === null };
    },

    async saveNotifications(
      userId: string,
      change: { receiveEmail?: boolean; receiveSms?: boolean },
    ): Promise<void> {
      await upsert(userId, change);
    },

    async saveReferralCode(userId: string, code: string): Promise<void> {
      if (await findReferralCode(db, userId)) {
        throw new AppError(
          'CONFLICT',
          'You already have a referral code; it stays the same so shared links keep working.',
        );
      }
      await db.transaction(async (tx) => {
        // Taken in any case is taken: a code typed in another case must still name one customer.
        await lockReferralCode(tx, code);
        if ((await findReferralCodeHolders(tx, code)).some((holder) => holder.id !== userId)) {
          throw new AppError('CONFLICT', 'This referral code is already taken. Generate another one.');
        }
        await setReferralCode(tx, userId, code);
      });
    },
  };
}

export type UserSettingsService = ReturnType<typeof createUserSettingsService>;
