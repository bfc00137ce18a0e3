import { toast } from '../../../lib/toast';
import { sellMethodFormSchema } from '@offzero/shared/api/orders';
import { type SellDeposit } from '@offzero/shared/api/order-lightning';
import { SELL_PAYOUT_RAILS } from '@offzero/shared/rails/rails';
import { firstError, useZodForm } from '../../../lib/forms';
import type { TradeSettings } from '../api/get-trade-settings';
import { MethodTile, NoActiveMethods, type TileMethod } from '../components/method-tile';
import { StepHeading } from '../components/step-heading';
import { formatUsdCents } from '../../../lib/format';
import { SellDepositChoice } from './sell-deposit-choice';

/**
 * Sell step two: how the customer sends the bitcoin (on chain or, while the operator has it on, by
 * Lightning), then how they are paid. Choosing a tile submits the choice; the
 * shared schema checks it is a payout method, then `onChoose` checks the customer's settings hold what
 * it needs (each refusal a toast).
 */
export function SellMethodStep({
  settings,
  deposit,
  onDepositChange,
  onChoose,
  choosing = false,
  onBack,
}: {
  settings: TradeSettings;
  deposit: SellDeposit;
  onDepositChange: (deposit: SellDeposit) => void;
  onChoose: (method: TileMethod) => void;
  /** A quote is being locked for the chosen method. */
  choosing?: boolean;
  onBack: () => void;
}) {
  const methods = SELL_PAYOUT_RAILS.filter((method) => settings.active[method]);
  const form = useZodForm(sellMethodFormSchema);
  const submit = form.handleSubmit(
    ({ method }) => onChoose(method),
    (errors) => {
      const message = firstError(errors, ['method']);
      if (message) toast.error(message);
    },
  );
  const chosen = form.watch('method');
  const choose = (method: TileMethod) => {
    if (choosing) return;
    form.setValue('method', method);
    void submit();
  };

  return (
    <form className="space-y-4" noValidate onSubmit={(event) => void submit(event)}>
      <StepHeading onBack={onBack}>Select Payment Method to Receive Funds</StepHeading>
      {settings.lightningActive && (
        <SellDepositChoice value={deposit} onChange={onDepositChange} disabled={choosing} />
      )}
      <p className="text-sm font-semibold text-ink-900">How you are paid</p>
      {methods.length === 0 ? (
        <NoActiveMethods />
      ) : (
        <div className="space-y-3">
          {methods.map((method) => (
            <MethodTile
              key={method}
              method={method}
              onSelect={() => choose(method)}
              loading={choosing && chosen === method}
              disabled={choosing}
              detail={
                <>
                  {settings.bankChargesCents[method] > 0n
                    ? `Bank charges ${formatUsdCents(settings.bankChargesCents[method])}`
                    : 'No bank charges'}
                  <span className="block">{settings.arrival[method]}</span>
                </>
              }
            />
          ))}
        </div>
      )}
    </form>
  );
}
