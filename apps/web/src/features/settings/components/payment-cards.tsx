import { useState, type ReactNode } from 'react';
import type { UserSettings } from '@offzero/shared/api/user-settings';
import { SHORTEN, shortenText } from '@offzero/shared/text/shorten';
import { Badge } from '../../../components/ui/badge';
import { CopyButton } from '../../../components/ui/copy-button';
import { SettingsCard } from '../../../components/ui/settings-card';
import { BankAccountModal } from './bank-account-modal';
import { ZelleEmailModal } from './zelle-email-modal';
import { WalletAddressModal } from './wallet-address-modal';
import { maskAccountNumber } from '../mask-account-number';

/**
 * The current value of a payment card. The value shows only on wider screens; on a
 * phone the card says whether one is on file and the edit button shows it in full.
 */
function CurrentValue({ label, value, testId }: { label: string; value: ReactNode | null; testId: string }) {
  return (
    <div data-testid={testId}>
      <div className="sm:hidden">
        {value ? <Badge tone="success">Added</Badge> : <Badge tone="warning">Not added yet</Badge>}
      </div>
      <div className="hidden sm:block">
        <p className="text-sm text-slate-500">{label}</p>
        <div className="mt-1 text-sm font-medium text-ink-900">
          {value ?? <span className="font-normal text-slate-500">Not added yet</span>}
        </div>
      </div>
    </div>
  );
}

export function BankAccountCard({ bankAccount }: { bankAccount: UserSettings['bankAccount'] }) {
  const [editing, setEditing] = useState(false);
  return (
    <SettingsCard
      title="Bank account"
      description="Where we pay you by ACH or wire when you sell."
      onEdit={() => setEditing(true)}
      editLabel={bankAccount ? 'Edit bank account' : 'Add bank account'}
      testId="bank-card"
    >
      <CurrentValue
        label="Account on file"
        testId="bank-card-value"
        value={
          bankAccount && (
            <span className="flex min-w-0 flex-wrap items-center gap-x-3 gap-y-1">
              <span className="min-w-0 break-words">{bankAccount.bank_name}</span>
              <span className="font-mono whitespace-nowrap text-slate-600">
                {maskAccountNumber(bankAccount.account_number)}
              </span>
            </span>
          )
        }
      />
      <BankAccountModal open={editing} onClose={() => setEditing(false)} bankAccount={bankAccount} />
    </SettingsCard>
  );
}

export function ZelleCard({ zelleEmail }: { zelleEmail: string | null }) {
  const [editing, setEditing] = useState(false);
  return (
    <SettingsCard
      title="Zelle payment email"
      description="Where we pay you by Zelle when you sell."
      onEdit={() => setEditing(true)}
      editLabel={zelleEmail ? 'Edit Zelle payment email' : 'Add Zelle payment email'}
      testId="zelle-card"
    >
      <CurrentValue
        label="Zelle email"
        testId="zelle-card-value"
        value={zelleEmail && <span className="break-all">{zelleEmail}</span>}
      />
      <ZelleEmailModal open={editing} onClose={() => setEditing(false)} zelleEmail={zelleEmail} />
    </SettingsCard>
  );
}

export function WalletCard({ walletAddress }: { walletAddress: string | null }) {
  const [editing, setEditing] = useState(false);
  return (
    <SettingsCard
      title="Bitcoin wallet address"
      description="Your own wallet, where the bitcoin you buy is sent."
      onEdit={() => setEditing(true)}
      editLabel={walletAddress ? 'Edit bitcoin wallet address' : 'Add bitcoin wallet address'}
      testId="wallet-card"
    >
      <CurrentValue
        label="Wallet address"
        testId="wallet-card-value"
        value={
          walletAddress && (
            <span className="flex items-center gap-2">
              <span className="font-mono" title={walletAddress}>
                {shortenText(walletAddress, SHORTEN.address)}
              </span>
              <CopyButton text={walletAddress} label="Copy wallet address" size="sm" />
            </span>
          )
        }
      />
      <WalletAddressModal open={editing} onClose={() => setEditing(false)} walletAddress={walletAddress} />
    </SettingsCard>
  );
}
