import { useId, type ReactNode } from 'react';
import type { PayoutAddress } from '@offzero/shared/api/payout-addresses';
import { shortenText, SHORTEN } from '@offzero/shared/text/shorten';
import { Badge } from '../../../components/ui/badge';
import { formatDateTime } from '../../../lib/format';

/** The buy's payout: an entry of the address book (by id), or a new address typed in. */
export type PayoutChoice = { kind: 'entry'; entryId: string } | { kind: 'new' };

/**
 * The choice a buy starts with: the entry of the address it already names (a resumed order), else the
 * default entry, else the first usable one; a new address when the book has nothing that fits.
 */
export function initialPayoutChoice(
  entries: readonly PayoutAddress[],
  namedAddress: string | null,
): PayoutChoice {
  if (namedAddress) {
    const named = entries.find((entry) => entry.address === namedAddress);
    return named ? { kind: 'entry', entryId: named.id } : { kind: 'new' };
  }
  const preferred =
    entries.find((entry) => entry.isDefault) ?? entries.find((entry) => entry.status === 'usable');
  return preferred ? { kind: 'entry', entryId: preferred.id } : { kind: 'new' };
}

/** What paying to this entry means now, when it cannot be paid at once; null when it can. */
export function payoutWaitNote(entry: PayoutAddress, now = Date.now()): string | null {
  if (entry.status === 'unconfirmed') {
    return 'This address is not confirmed yet. You can pay now: we send your bitcoin once you open the confirmation link we e-mailed you.';
  }
  if (entry.status === 'confirmed' && entry.usableAt && Date.parse(entry.usableAt) > now) {
    return `This address was confirmed recently: we send your bitcoin from ${formatDateTime(entry.usableAt)}.`;
  }
  return null;
}

function EntryStatus({ entry }: { entry: PayoutAddress }) {
  return (
    <span className="flex flex-wrap gap-1">
      {entry.isDefault && <Badge>Default</Badge>}
      {entry.status === 'unconfirmed' ? (
        <Badge tone="warning">Not confirmed</Badge>
      ) : entry.status === 'confirmed' ? (
        <Badge tone="warning">Cooling down</Badge>
      ) : null}
      {entry.proven && <Badge tone="success">Proven</Badge>}
    </span>
  );
}

/**
 * Where the bought bitcoin goes (docs/design.md): one of the customer's payout addresses, or a new
 * address typed in `newAddressField`. An xpub entry is paid at a fresh address of its key. An entry
 * that is not usable yet may still be chosen; the note says the payout waits for it.
 */
export function PayoutAddressChoice({
  entries,
  choice,
  onChange,
  newAddressField,
  oneTimeDestination = false,
}: {
  entries: readonly PayoutAddress[];
  choice: PayoutChoice;
  onChange: (choice: PayoutChoice) => void;
  newAddressField: ReactNode;
  /** What is typed is a Lightning invoice: paid once, it does not join the address book. */
  oneTimeDestination?: boolean;
}) {
  const name = useId();
  const chosen = choice.kind === 'entry' ? entries.find((entry) => entry.id === choice.entryId) : undefined;
  const wait = chosen ? payoutWaitNote(chosen) : null;
  const optionClass =
    'flex cursor-pointer items-start gap-2.5 rounded-xl px-3 py-2.5 ring-1 ring-slate-200 has-checked:bg-brand-50 has-checked:ring-brand-300';

  return (
    <fieldset className="space-y-2" data-testid="payout-address-choice">
      <legend className="text-sm font-semibold text-ink-900">Send my bitcoin to</legend>
      <div className="grid grid-cols-1 gap-2">
        {entries.map((entry) => (
          <label key={entry.id} className={optionClass} data-testid="payout-address-option">
            <input
              type="radio"
              name={name}
              value={entry.id}
              checked={choice.kind === 'entry' && choice.entryId === entry.id}
              onChange={() => onChange({ kind: 'entry', entryId: entry.id })}
              aria-label={entry.label}
              className="mt-0.5 size-4 shrink-0 accent-brand-600"
            />
            <span className="flex min-w-0 flex-1 flex-col gap-1">
              <span className="flex flex-wrap items-center justify-between gap-x-2 gap-y-1">
                <span className="text-sm font-medium break-words text-ink-900">{entry.label}</span>
                <EntryStatus entry={entry} />
              </span>
              <span className="font-mono text-xs break-all text-slate-600">
                {entry.address
                  ? shortenText(entry.address, SHORTEN.address)
                  : `${shortenText(entry.xpub ?? '', SHORTEN.address)} · a fresh address for each buy`}
              </span>
            </span>
          </label>
        ))}
        <label className={optionClass}>
          <input
            type="radio"
            name={name}
            value="new"
            checked={choice.kind === 'new'}
            onChange={() => onChange({ kind: 'new' })}
            className="mt-0.5 size-4 shrink-0 accent-brand-600"
          />
          <span className="text-sm font-medium text-ink-900">A new address</span>
        </label>
      </div>
      {wait && (
        <p
          className="rounded-xl bg-amber-50 px-3 py-2 text-sm text-amber-900 ring-1 ring-amber-200"
          data-testid="payout-wait-note"
        >
          {wait}
        </p>
      )}
      {choice.kind === 'new' && (
        <div className="space-y-2">
          {newAddressField}
          {!oneTimeDestination && (
            <p className="text-xs text-slate-600">
              A new address joins your payout addresses. We e-mail you a link to confirm it and send your
              bitcoin once you do.
            </p>
          )}
        </div>
      )}
    </fieldset>
  );
}
