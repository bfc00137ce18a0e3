import { useState } from 'react';
import { Link } from 'react-router';
import type { Order } from '@offzero/shared/api/orders';
import type { OrderLightningPayout } from '@offzero/shared/api/order-lightning';
import type { PayoutAddress } from '@offzero/shared/api/payout-addresses';
import {
  lightningDestinationKind,
  PAYOUT_DESTINATION_LABELS,
} from '@offzero/shared/bitcoin/payout-destination';
import { shortenText, SHORTEN } from '@offzero/shared/text/shorten';
import { Badge } from '../../../components/ui/badge';
import { Button } from '../../../components/ui/button';
import { CopyButton } from '../../../components/ui/copy-button';
import { DetailList } from '../../../components/ui/detail-list';
import { SelectField } from '../../../components/ui/select-field';
import { paths } from '../../../config/paths';
import { usePayoutAddresses } from '../../../domain/payout-addresses';
import { errorMessage } from '../../../lib/api-client';
import { useIdempotencyKeys } from '../../../lib/idempotency-key';
import { toast } from '../../../lib/toast';
import { useLightningPayoutAction, type LightningPayoutAction } from '../api/lightning-payout';

const STATUS_WORDS: Record<
  OrderLightningPayout['status'],
  { text: string; tone: 'success' | 'warning' | 'neutral' }
> = {
  requested: { text: 'Waiting to be sent', tone: 'neutral' },
  submitted: { text: 'On its way', tone: 'neutral' },
  settled: { text: 'Settled', tone: 'success' },
  failed: { text: 'Failed', tone: 'warning' },
};

function HexValue({ value, label, testId }: { value: string; label: string; testId: string }) {
  return (
    <span className="inline-flex items-start gap-1.5">
      <span className="font-mono text-xs break-all" data-testid={testId}>
        {value}
      </span>
      <CopyButton text={value} label={label} size="sm" />
    </span>
  );
}

/**
 * A buy paid out by Lightning (docs/design.md, "Lightning"): the payout's state, its payment hash and,
 * once settled, the preimage as proof of payment. A failed one says why and offers to pay it again or
 * to send the bitcoin on chain to a confirmed entry of the address book instead.
 */
export function LightningPayoutSection({ order, payout }: { order: Order; payout: OrderLightningPayout }) {
  const status = STATUS_WORDS[payout.status];
  return (
    <div className="space-y-3" data-testid="lightning-payout">
      <DetailList
        rows={[
          {
            label: 'Status',
            value: (
              <span data-testid="lightning-payout-status">
                <Badge tone={status.tone}>{status.text}</Badge>
              </span>
            ),
          },
          { label: 'Sent to', value: PAYOUT_DESTINATION_LABELS[payout.destinationKind] },
          payout.paymentHash !== null && {
            label: 'Payment hash',
            value: (
              <HexValue
                value={payout.paymentHash}
                label="Copy payment hash"
                testId="lightning-payment-hash"
              />
            ),
          },
          payout.preimage !== null && {
            label: 'Proof of payment',
            value: (
              <HexValue value={payout.preimage} label="Copy proof of payment" testId="lightning-preimage" />
            ),
          },
          payout.feeSats !== null && {
            label: 'Routing fee',
            value: `${payout.feeSats.toLocaleString('en-US')} sats, paid by OffZero`,
          },
        ]}
      />
      {payout.preimage !== null && (
        <p className="text-xs leading-5 text-slate-500">
          The proof of payment (the preimage) is the secret only the receiving wallet knew: its SHA-256 is the
          payment hash, so holding it proves the invoice was paid.
        </p>
      )}
      {payout.status === 'failed' && (
        <div
          role="alert"
          className="space-y-3 rounded-2xl bg-amber-50 p-3 text-sm text-amber-900 ring-1 ring-amber-200"
        >
          <p data-testid="lightning-failure-reason">
            <span className="font-semibold">The Lightning payment did not go through. </span>
            {payout.failureReason ?? 'The node gave no reason.'}
          </p>
          {payout.canRetry && <FailedPayoutActions order={order} />}
        </div>
      )}
    </div>
  );
}

/** An entry the bitcoin can go to on chain: confirmed, and not itself a Lightning address. */
function onchainEntries(entries: readonly PayoutAddress[]): PayoutAddress[] {
  return entries.filter(
    (entry) => entry.status !== 'unconfirmed' && lightningDestinationKind(entry.address ?? '') === null,
  );
}

/** "Try again" and "Send on-chain instead" for a failed payout; one action at a time. */
function FailedPayoutActions({ order }: { order: Order }) {
  const action = useLightningPayoutAction();
  const keys = useIdempotencyKeys();
  const book = usePayoutAddresses();
  const entries = onchainEntries(book.data ?? []);
  const [choosing, setChoosing] = useState(false);
  const [entryId, setEntryId] = useState<string>('');
  const chosenId = entryId || entries[0]?.id || '';

  const run = (chosen: LightningPayoutAction) => {
    if (action.isPending) return;
    const request = { orderId: order._id, action: chosen };
    action.mutate(
      { ...request, idempotencyKey: keys.keyFor(request) },
      {
        onSuccess: (answer) => toast.success(answer.message),
        onError: (failure) => toast.error(errorMessage(failure)),
        onSettled: (_answer, failure) => keys.settle(failure ?? undefined),
      },
    );
  };

  return (
    <div className="space-y-3">
      <div className="flex flex-wrap gap-2">
        <Button size="sm" onClick={() => run({ kind: 'retry' })} loading={action.isPending && !choosing}>
          Try again
        </Button>
        <Button
          size="sm"
          variant="outline"
          onClick={() => setChoosing((open) => !open)}
          disabled={action.isPending}
          aria-expanded={choosing}
        >
          Send on-chain instead
        </Button>
      </div>
      {choosing &&
        (entries.length === 0 ? (
          <p className="text-sm">
            You have no confirmed bitcoin address yet.{' '}
            <Link to={paths.settings} className="font-semibold text-brand-700 underline underline-offset-2">
              Add one in Settings
            </Link>
            , open the confirmation link we e-mail you, then come back here.
          </p>
        ) : (
          <div className="space-y-2">
            <SelectField
              label="Send the bitcoin on chain to"
              value={chosenId}
              onChange={(event) => setEntryId(event.target.value)}
            >
              {entries.map((entry) => (
                <option key={entry.id} value={entry.id}>
                  {entry.label} · {shortenText(entry.address ?? entry.xpub ?? '', SHORTEN.address)}
                </option>
              ))}
            </SelectField>
            <Button
              size="sm"
              onClick={() => run({ kind: 'onchain', payoutAddressId: chosenId })}
              loading={action.isPending}
              disabled={!chosenId}
            >
              Send on-chain
            </Button>
          </div>
        ))}
    </div>
  );
}
