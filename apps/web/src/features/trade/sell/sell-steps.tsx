import type { ReactNode } from 'react';
import { Link } from 'react-router';
import type { SellDeposit } from '@offzero/shared/api/order-lightning';
import type { UserSettings } from '@offzero/shared/api/user-settings';
import type { Cents, Sats } from '@offzero/shared/money/money';
import { paths } from '../../../config/paths';
import type { TradeSettings } from '../api/get-trade-settings';
import type { TileMethod } from '../components/method-tile';
import { StepHeading } from '../components/step-heading';
import { SellConfirmationStep } from './sell-confirmation-step';
import { SellDepositStep } from './sell-deposit-step';
import { SellMethodStep } from './sell-method-step';
import { SellSuccessStep } from './sell-success-step';
import type { SellStep } from './sell-step';

/** The W-9 form the composing route supplies (the tax feature's), shown when none is on file. */
export type TaxDetailsForm = (props: { onSaved: () => void }) => ReactNode;

/** The sell flow past its quote: the step it stands at, with the flow's state and calls. */
export function SellSteps({
  state,
  setState,
  settings,
  userSettings,
  taxDetailsForm,
  blockedReason,
  closed,
  onRestart,
  deposit,
  onDepositChange,
  onChoose,
  choosing,
  onRenew,
  onSend,
  sending,
  question,
}: {
  state: Exclude<SellStep, { step: 'quote' }>;
  setState: (next: SellStep) => void;
  settings: TradeSettings;
  userSettings: UserSettings | null;
  taxDetailsForm?: TaxDetailsForm;
  blockedReason: string | null;
  closed: string | null;
  onRestart: () => void;
  /** How the customer sends the bitcoin (on chain, or by Lightning as well). */
  deposit: SellDeposit;
  onDepositChange: (deposit: SellDeposit) => void;
  onChoose: (method: TileMethod) => void;
  /** Locking a quote: choosing a method and renewing one. */
  choosing: boolean;
  onRenew: (amountSats: Sats, method: TileMethod) => void;
  onSend: (method: TileMethod) => void;
  sending: boolean;
  /** The Travel Rule question for an order of this value (`useWalletOwnership`). */
  question: (valueCents: Cents | null, side: 'buy' | 'sell') => ReactNode;
}) {
  switch (state.step) {
    case 'tax_details':
      return <TaxDetailsStep form={taxDetailsForm} setState={setState} />;
    case 'payment_method':
      return (
        <SellMethodStep
          settings={settings}
          deposit={deposit}
          onDepositChange={onDepositChange}
          onChoose={onChoose}
          choosing={choosing}
          onBack={() => setState({ step: 'quote' })}
        />
      );
    case 'confirmation':
      return (
        <SellConfirmationStep
          key={state.quote?.id ?? 'blocked'}
          quote={state.quote}
          blockedReason={blockedReason}
          method={state.method}
          deposit={deposit}
          settings={userSettings}
          tradeSettings={settings}
          onRenew={() => {
            if (state.quote) onRenew(state.quote.amountSats, state.method);
          }}
          renewing={choosing}
          onBack={() => setState({ step: 'payment_method' })}
          onSend={onSend}
          sending={sending}
          compliance={question(state.quote?.valueCents ?? null, 'sell')}
        />
      );
    case 'QRCODE':
      return <SellDepositStep order={state.order} closed={closed} onRestart={onRestart} />;
    case 'success':
      return <SellSuccessStep order={state.order} txid={state.txid} amountSats={state.amountSats} />;
  }
}

/** A sale is reported to the IRS: the first one needs the customer's W-9 (docs/design.md). */
function TaxDetailsStep({
  form: TaxDetails,
  setState,
}: {
  form?: TaxDetailsForm;
  setState: (next: SellStep) => void;
}) {
  return (
    <div className="space-y-4" data-testid="sell-tax-details-step">
      <StepHeading onBack={() => setState({ step: 'quote' })}>Add your tax details (Form W-9)</StepHeading>
      <p className="text-sm text-slate-600">
        We report sales of bitcoin to the IRS on Form 1099-DA, so we need your W-9 once, before your first
        sale. Your number is encrypted; only its last four digits are ever shown.
      </p>
      {TaxDetails ? (
        <TaxDetails onSaved={() => setState({ step: 'payment_method' })} />
      ) : (
        <Link to={paths.settings} className="text-sm font-semibold text-brand-700 hover:underline">
          Add your tax details in Settings
        </Link>
      )}
    </div>
  );
}
