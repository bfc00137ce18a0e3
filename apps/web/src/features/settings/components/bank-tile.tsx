import { useState } from 'react';
import { Button } from '../../../components/ui/button';
import { CardIcon } from '../../../components/ui/icons';
import { useUserSettings } from '../../../domain/user-settings';
import { deferredComponent } from '../../../lib/deferred-component';
import { maskAccountNumber } from '../mask-account-number';
import { StatusTile } from '../../../components/ui/status-tile';

// The bank form (and the form library it brings) loads once the page is interactive, not with the
// dashboard's first paint: the tile shows before anyone can open it.
const BankAccountModal = deferredComponent(
  async () => (await import('./bank-account-modal')).BankAccountModal,
  null,
);

/** Bank: 'Added' when an account is on file, else Add Bank opening the bank form. */
export function BankTile() {
  const settings = useUserSettings();
  const [open, setOpen] = useState(false);
  const bankAccount = settings.data?.bankAccount ?? null;

  return (
    <>
      <StatusTile
        testId="status-bank"
        title="Bank"
        icon={CardIcon}
        done={bankAccount !== null}
        detail={
          bankAccount
            ? `${maskAccountNumber(bankAccount.account_number)} · ${bankAccount.bank_name}`
            : settings.isError
              ? 'Bank details not available right now.'
              : 'For payouts when you sell.'
        }
        status="Added"
        action={
          settings.isPending ? (
            <span className="inline-block h-6 w-28 animate-pulse rounded bg-slate-200" aria-hidden="true" />
          ) : settings.isError ? (
            <Button size="sm" variant="outline" onClick={() => void settings.refetch()}>
              Try again
            </Button>
          ) : bankAccount ? undefined : (
            <Button size="sm" onClick={() => setOpen(true)}>
              Add Bank
            </Button>
          )
        }
      />
      <BankAccountModal open={open} onClose={() => setOpen(false)} bankAccount={bankAccount} />
    </>
  );
}
