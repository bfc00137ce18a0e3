import { useState, type FormEvent } from 'react';
import {
  debitAuthorizationText,
  PLAN_FREQUENCIES,
  type Plan,
  type PlanFrequency,
} from '@offzero/shared/api/plans';
import type { ScamCheck } from '@offzero/shared/places/scam-shield';
import { errorMessage } from '../../../lib/api-client';
import { toast } from '../../../lib/toast';
import { usePayoutAddresses } from '../../../domain/payout-addresses';
import { useUserSettings } from '../../../domain/user-settings';
import { Badge } from '../../../components/ui/badge';
import { Button } from '../../../components/ui/button';
import { SelectField } from '../../../components/ui/select-field';
import { SettingsCard } from '../../../components/ui/settings-card';
import { TextField } from '../../../components/ui/text-field';
import { useChangePlan, useCreatePlan, usePlans } from '../api/plans';
import { useFirstBuyQuestion } from './first-buy-question';
import { FREQUENCY_WORDS, planDollars, runDayWords, RUN_STATUS_WORDS } from '../plan-words';

/**
 * Settings → Recurring buys (docs/design.md, "Recurring buys"): a plan debits the customer's bank
 * account on a schedule and buys bitcoin sent to one of their address-book entries. The customer
 * reads and accepts the debit authorization to start one, and pauses, resumes or cancels it here.
 */
export function PlansCard() {
  const plans = usePlans();
  const [creating, setCreating] = useState(false);
  const shown = (plans.data ?? []).filter((plan) => plan.status !== 'cancelled');
  return (
    <SettingsCard
      title="Recurring buys"
      description="Buy bitcoin on a schedule, paid by a debit from your bank account and sent to your own wallet."
      testId="plans-card"
    >
      <div className="flex flex-col gap-4">
        {plans.isError ? (
          <p className="text-sm text-slate-600">Your recurring buys are not available right now.</p>
        ) : shown.length === 0 ? (
          <p className="text-sm text-slate-500">No recurring buys yet.</p>
        ) : (
          <ul className="divide-y divide-slate-100" data-testid="plans-list">
            {shown.map((plan) => (
              <PlanItem key={plan.id} plan={plan} />
            ))}
          </ul>
        )}
        {creating ? (
          <NewPlanForm onDone={() => setCreating(false)} />
        ) : (
          <div>
            <Button variant="outline" size="sm" onClick={() => setCreating(true)}>
              New recurring buy
            </Button>
          </div>
        )}
      </div>
    </SettingsCard>
  );
}

function PlanItem({ plan }: { plan: Plan }) {
  const change = useChangePlan();
  const act = (action: 'pause' | 'resume' | 'cancel') =>
    change.mutate(
      { id: plan.id, action },
      {
        onSuccess: (answer) => toast.success(answer.message),
        onError: (error) => toast.error(errorMessage(error)),
      },
    );
  return (
    <li className="flex flex-col gap-2 py-3" data-testid="plan-item">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <p className="text-sm font-semibold text-ink-900">
          {planDollars(plan.amountUsd)} {FREQUENCY_WORDS[plan.frequency]}
        </p>
        <Badge tone={plan.status === 'active' ? 'success' : 'warning'}>
          {plan.statusNote ?? (plan.status === 'active' ? 'Active' : 'Paused')}
        </Badge>
      </div>
      {plan.status === 'active' && (
        <p className="text-xs text-slate-500">
          Next buy {runDayWords(plan.nextRunOn)} ({plan.nextRunOn})
        </p>
      )}
      {plan.runs.length > 0 && (
        <ul className="flex flex-col gap-1 text-xs text-slate-600" data-testid="plan-runs">
          {plan.runs.map((run) => (
            <li key={run.id} className="flex flex-wrap justify-between gap-2">
              <span>{run.runOn}</span>
              <span data-testid="plan-run-status">
                {RUN_STATUS_WORDS[run.status]}
                {run.returnCode ? ` (${run.returnCode})` : ''}
              </span>
            </li>
          ))}
        </ul>
      )}
      <div className="flex flex-wrap gap-2">
        {plan.status === 'active' ? (
          <Button variant="outline" size="sm" disabled={change.isPending} onClick={() => act('pause')}>
            Pause
          </Button>
        ) : (
          <Button variant="outline" size="sm" disabled={change.isPending} onClick={() => act('resume')}>
            Resume
          </Button>
        )}
        <Button variant="ghost" size="sm" disabled={change.isPending} onClick={() => act('cancel')}>
          Cancel plan
        </Button>
      </div>
    </li>
  );
}

const todayText = () => new Date().toISOString().slice(0, 10);

function NewPlanForm({ onDone }: { onDone: () => void }) {
  const book = usePayoutAddresses();
  const settings = useUserSettings();
  const create = useCreatePlan();
  const entries = (book.data ?? []).filter((entry) => entry.status !== 'unconfirmed');
  const [amount, setAmount] = useState('50');
  const [frequency, setFrequency] = useState<PlanFrequency>('weekly');
  const [firstRunOn, setFirstRunOn] = useState(todayText());
  const [addressId, setAddressId] = useState('');
  const [accepted, setAccepted] = useState(false);
  const bank = settings.data?.bankAccount ?? null;
  const chosenAddress = addressId || entries[0]?.id || '';
  const typed = Number(amount.replace(/[$,]/g, ''));
  const text = bank
    ? debitAuthorizationText({
        amountUsd: Number.isFinite(typed) ? typed.toFixed(2) : amount,
        frequency,
        accountName: bank.account_name,
        accountLast4: bank.account_number.slice(-4),
      })
    : null;

  const question = useFirstBuyQuestion((answer) => send(answer));

  function send(scamCheck?: ScamCheck) {
    create.mutate(
      {
        amountUsd: amount,
        frequency,
        firstRunOn,
        payoutAddressId: chosenAddress,
        authorization: { accepted: true },
        ...(scamCheck ? { scamCheck } : {}),
      },
      {
        onSuccess: (answer) => {
          toast.success(answer.message);
          onDone();
        },
        onError: (error) => {
          if (!question.handled(error)) toast.error(errorMessage(error));
        },
      },
    );
  }

  function submit(event: FormEvent) {
    event.preventDefault();
    send();
  }

  if (!bank)
    return <p className="text-sm text-slate-600">Add your bank account above first: a plan debits it.</p>;
  if (entries.length === 0)
    return <p className="text-sm text-slate-600">Add and confirm a payout address first.</p>;
  return question.render(
    <form onSubmit={submit} className="flex flex-col gap-3" data-testid="new-plan-form">
      <div className="grid gap-3 sm:grid-cols-2">
        <TextField
          label="Amount (USD)"
          value={amount}
          onChange={(e) => setAmount(e.target.value)}
          inputMode="decimal"
        />
        <SelectField
          label="How often"
          value={frequency}
          onChange={(e) => setFrequency(e.target.value as PlanFrequency)}
        >
          {PLAN_FREQUENCIES.map((one) => (
            <option key={one} value={one}>
              {FREQUENCY_WORDS[one]}
            </option>
          ))}
        </SelectField>
        <TextField
          label="First buy"
          type="date"
          value={firstRunOn}
          min={todayText()}
          onChange={(e) => setFirstRunOn(e.target.value)}
        />
        <SelectField label="Send to" value={chosenAddress} onChange={(e) => setAddressId(e.target.value)}>
          {entries.map((entry) => (
            <option key={entry.id} value={entry.id}>
              {entry.label}
            </option>
          ))}
        </SelectField>
      </div>
      <p className="rounded-xl bg-slate-50 p-3 text-xs text-slate-700" data-testid="plan-authorization">
        {text}
      </p>
      <label className="flex items-start gap-2 text-sm text-slate-700">
        <input
          type="checkbox"
          checked={accepted}
          onChange={(e) => setAccepted(e.target.checked)}
          className="mt-0.5"
        />
        I authorize this debit
      </label>
      <div className="flex flex-wrap gap-2">
        <Button type="submit" size="sm" disabled={!accepted || create.isPending}>
          Start plan
        </Button>
        <Button type="button" variant="ghost" size="sm" onClick={onDone}>
          Back
        </Button>
      </div>
    </form>,
    create.isPending,
  );
}
