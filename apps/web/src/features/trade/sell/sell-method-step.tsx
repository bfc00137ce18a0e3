import type { TradeSettings } from '../api/get-trade-settings';
import { MethodTile, NoActiveMethods, type TileMethod } from '../components/method-tile';
import { StepHeading } from '../components/step-heading';
import { formatUsdCents } from '../utils/format';

const PAYOUT_METHODS: TileMethod[] = ['zelle', 'ach', 'wire'];

/** Sell step two (spec section 2): how the customer is paid. */
export function SellMethodStep({
  settings,
  onChoose,
  onBack,
}: {
  settings: TradeSettings;
  onChoose: (method: TileMethod) => void;
  onBack: () => void;
}) {
  const methods = PAYOUT_METHODS.filter((method) => settings.active[method]);
  return (
    <div className="space-y-4">
      <StepHeading onBack={onBack}>Select Payment Method to Receive Funds</StepHeading>
      {methods.length === 0 ? (
        <NoActiveMethods />
      ) : (
        <div className="space-y-3">
          {methods.map((method) => (
            <MethodTile
              key={method}
              method={method}
              onSelect={() => onChoose(method)}
              detail={
                settings.bankChargesCents[method] > 0n
                  ? `Bank charges ${formatUsdCents(settings.bankChargesCents[method])}`
                  : 'No bank charges'
              }
            />
          ))}
        </div>
      )}
    </div>
  );
}
