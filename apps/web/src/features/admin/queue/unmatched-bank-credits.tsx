import { useState } from 'react';
import type { BankCredit } from '@offzero/shared/api/bank';
import { errorMessage } from '../../../lib/api-client';
import { toast } from '../../../lib/toast';
import { Button } from '../../../components/ui/button';
import { Panel } from '../components/blocks';
import { formatAge, usd } from '../format';
import { useMatchBankCredit, useReturnBankCredit, useUnmatchedBankCredits } from '../api/bank-credits';

const RAIL_LABEL: Record<BankCredit['rail'], string> = { ach: 'ACH', wire: 'Wire', instant: 'Instant' };

/**
 * "Unmatched bank credits": money that arrived on a customer's account number and paid no order by
 * itself (no unpaid buy of that amount, another sender's name, no such customer). An operator pays an
 * order of that customer with it, or sends it back.
 */
export function UnmatchedBankCredits({ now }: { now: number }) {
  const credits = useUnmatchedBankCredits();
  const rows = credits.data?.credits ?? [];
  return (
    <Panel
      id="queue-bank-credits"
      testId="queue-bank-credits"
      title={`Unmatched bank credits (${credits.data ? rows.length : '·'})`}
    >
      {credits.isError && <p className="text-sm text-red-700">{errorMessage(credits.error)}</p>}
      {credits.data && rows.length === 0 && (
        <p className="text-sm text-slate-600">Every bank credit paid its order.</p>
      )}
      <ul className="divide-y divide-slate-100">
        {rows.map((credit) => (
          <CreditRow key={credit.id} credit={credit} now={now} />
        ))}
      </ul>
    </Panel>
  );
}

function CreditRow({ credit, now }: { credit: BankCredit; now: number }) {
  const [orderId, setOrderId] = useState('');
  const match = useMatchBankCredit(credit.id);
  const sendBack = useReturnBankCredit(credit.id);
  const busy = match.isPending || sendBack.isPending;
  const done = (message: string) => toast.success(message);
  const failed = (error: unknown) => toast.error(errorMessage(error));

  return (
    <li className="space-y-2 py-3 text-sm" data-testid="bank-credit">
      <div className="flex flex-wrap items-baseline justify-between gap-2">
        <span className="font-semibold tabular-nums">{usd(credit.amount)}</span>
        <span className="text-slate-600">
          {RAIL_LABEL[credit.rail]} from {credit.originatorName} · {formatAge(credit.receivedAt, now)}
        </span>
      </div>
      <p className="text-slate-700">
        To {credit.customerEmail ?? 'no customer'} · trace{' '}
        <span className="font-mono text-xs">{credit.traceNumber}</span>
      </p>
      {credit.reason && <p className="text-amber-800">{credit.reason}</p>}
      <div className="flex flex-wrap items-center gap-2">
        <label className="sr-only" htmlFor={`match-${credit.id}`}>
          Order id to pay
        </label>
        <input
          id={`match-${credit.id}`}
          value={orderId}
          onChange={(event) => setOrderId(event.target.value.trim())}
          placeholder="Order id to pay"
          className="h-9 min-w-0 flex-1 rounded-lg border border-slate-300 px-3 font-mono text-xs"
        />
        <Button
          size="sm"
          variant="secondary"
          disabled={busy || orderId === ''}
          onClick={() =>
            match.mutate(orderId, { onSuccess: (answer) => done(answer.message), onError: failed })
          }
        >
          Match
        </Button>
        <Button
          size="sm"
          variant="outline"
          disabled={busy}
          onClick={() =>
            sendBack.mutate(credit.reason ?? 'Not matched to an order', {
              onSuccess: (answer) => done(answer.message),
              onError: failed,
            })
          }
        >
          Return
        </Button>
      </div>
    </li>
  );
}
