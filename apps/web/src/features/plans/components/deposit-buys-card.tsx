import { useState } from 'react';
import type { ScamCheck } from '@offzero/shared/places/scam-shield';
import { errorMessage } from '../../../lib/api-client';
import { toast } from '../../../lib/toast';
import { usePayoutAddresses } from '../../../domain/payout-addresses';
import { SelectField } from '../../../components/ui/select-field';
import { SettingsCard } from '../../../components/ui/settings-card';
import { Switch } from '../../../components/ui/switch';
import { useFunding } from '../../../domain/funding';
import { useDepositBuySetting, useSaveDepositBuySetting } from '../api/deposit-buys';
import { useFirstBuyQuestion } from './first-buy-question';

/**
 * Settings → "Buy bitcoin with every deposit" (docs/design.md, "Recurring buys"): money sent to the
 * customer's own account number that pays no waiting buy buys bitcoin at the price when it arrives,
 * sent to the address-book entry chosen here after the hold. A new customer answers the first-buy
 * question when turning it on, as at the checkout.
 */
export function DepositBuysCard() {
  const setting = useDepositBuySetting();
  const save = useSaveDepositBuySetting();
  const book = usePayoutAddresses();
  const funding = useFunding(true);
  const entries = (book.data ?? []).filter((entry) => entry.status !== 'unconfirmed');
  const [chosen, setChosen] = useState('');
  const enabled = setting.data?.enabled ?? false;
  const entryId = chosen || setting.data?.payoutAddressId || entries[0]?.id || '';

  function send(next: boolean, scamCheck?: ScamCheck) {
    save.mutate(
      next
        ? { enabled: true, payoutAddressId: entryId, ...(scamCheck ? { scamCheck } : {}) }
        : { enabled: false },
      {
        onSuccess: (answer) => {
          if (answer.message) toast.success(answer.message);
        },
        onError: (error) => {
          if (!question.handled(error)) toast.error(errorMessage(error));
        },
      },
    );
  }
  const question = useFirstBuyQuestion((answer) => send(true, answer));

  const account = funding.data
    ? `your account number ${funding.data.accountNumber} (routing ${funding.data.routingNumber})`
    : 'your own account number';
  return (
    <SettingsCard
      title="Paid in bitcoin"
      description="Have your paycheck or any ACH deposit turned into bitcoin, sent straight to your own wallet."
      testId="deposit-buys-card"
    >
      {question.render(
        <div className="flex flex-col gap-3">
          {setting.isError ? (
            <p className="text-sm text-slate-600">This setting is not available right now.</p>
          ) : entries.length === 0 ? (
            <p className="text-sm text-slate-600">Add and confirm a payout address first.</p>
          ) : (
            <>
              <Switch
                label="Buy bitcoin with every deposit"
                description={`An ACH deposit to ${account} that pays no open order buys bitcoin at the price when it arrives.`}
                checked={enabled}
                busy={save.isPending}
                onChange={(next) => send(next)}
                testId="deposit-buys-switch"
              />
              <SelectField
                label="Send the bitcoin to"
                value={entryId}
                disabled={save.isPending}
                onChange={(e) => {
                  setChosen(e.target.value);
                  if (enabled)
                    save.mutate(
                      { enabled: true, payoutAddressId: e.target.value },
                      { onError: (error) => toast.error(errorMessage(error)) },
                    );
                }}
              >
                {entries.map((entry) => (
                  <option key={entry.id} value={entry.id}>
                    {entry.label}
                  </option>
                ))}
              </SelectField>
            </>
          )}
        </div>,
        save.isPending,
      )}
    </SettingsCard>
  );
}
