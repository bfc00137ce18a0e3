import { useState, type FormEvent } from 'react';
import { toast } from '../../../lib/toast';
import {
  PAYOUT_ADDRESS_LIMIT,
  looksLikeExtendedKey,
  ownershipProofMessage,
  payoutAddressLabelSchema,
  type PayoutAddress,
} from '@offzero/shared/api/payout-addresses';
import { shortenText, SHORTEN } from '@offzero/shared/text/shorten';
import { ApiError, errorMessage } from '../../../lib/api-client';
import { formatDateTime } from '../../../lib/format';
import { usePayoutAddresses } from '../../../domain/payout-addresses';
import { useSession } from '../../../lib/session';
import { Badge } from '../../../components/ui/badge';
import { Button } from '../../../components/ui/button';
import { CopyButton } from '../../../components/ui/copy-button';
import { Modal } from '../../../components/ui/modal';
import { SettingsCard } from '../../../components/ui/settings-card';
import { TextField } from '../../../components/ui/text-field';
import {
  useAddPayoutAddress,
  useProveOwnership,
  useRemovePayoutAddress,
  useResendConfirmation,
} from '../api/payout-addresses';

/**
 * Settings → Payout addresses (docs/design.md): where bought bitcoin may be sent. Each entry shows
 * its label, address (or key), whether it is confirmed and usable, and the proven badge; the customer
 * adds, proves and removes entries here, and confirms them from the e-mailed link.
 */
export function AddressBookCard() {
  const book = usePayoutAddresses();
  const [adding, setAdding] = useState(false);
  const entries = book.data ?? [];
  return (
    <SettingsCard
      title="Payout addresses"
      description="Where we may send the bitcoin you buy. A new address works once you confirm it from the e-mail we send."
      testId="address-book-card"
    >
      {book.isPending ? (
        <p className="text-sm text-slate-500">Loading your addresses…</p>
      ) : book.isError ? (
        <div className="flex flex-col items-start gap-2 text-sm text-slate-600">
          <p>Your payout addresses are not available right now.</p>
          <Button variant="outline" size="sm" onClick={() => void book.refetch()}>
            Try again
          </Button>
        </div>
      ) : (
        <div className="flex flex-col gap-4">
          {entries.length === 0 ? (
            <p className="text-sm text-slate-500">No payout addresses yet.</p>
          ) : (
            <ul className="divide-y divide-slate-100" data-testid="address-book-entries">
              {entries.map((entry) => (
                <AddressBookEntry key={entry.id} entry={entry} />
              ))}
            </ul>
          )}
          <div>
            <Button
              variant="outline"
              size="sm"
              onClick={() => setAdding(true)}
              disabled={entries.length >= PAYOUT_ADDRESS_LIMIT}
            >
              Add payout address
            </Button>
            {entries.length >= PAYOUT_ADDRESS_LIMIT && (
              <p className="mt-2 text-xs text-slate-500">
                You have {PAYOUT_ADDRESS_LIMIT} addresses, the most we keep. Remove one to add another.
              </p>
            )}
          </div>
        </div>
      )}
      <AddAddressModal open={adding} onClose={() => setAdding(false)} />
    </SettingsCard>
  );
}

function StatusBadge({ entry }: { entry: PayoutAddress }) {
  if (entry.status === 'usable') return <Badge tone="success">Usable</Badge>;
  if (entry.status === 'confirmed') return <Badge tone="warning">Confirmed</Badge>;
  return <Badge tone="warning">Unconfirmed</Badge>;
}

function AddressBookEntry({ entry }: { entry: PayoutAddress }) {
  const [proving, setProving] = useState(false);
  const [removing, setRemoving] = useState(false);
  const resend = useResendConfirmation();
  const target = entry.address ?? entry.xpub ?? '';
  return (
    <li
      className="flex flex-col gap-2 py-3 first:pt-0 last:pb-0"
      data-testid="address-book-entry"
      data-status={entry.status}
    >
      <div className="flex flex-wrap items-center gap-2">
        <span className="min-w-0 font-medium break-words text-ink-900">{entry.label}</span>
        <StatusBadge entry={entry} />
        {entry.proven && (
          <span data-testid="proven-badge">
            <Badge tone="success">Proven</Badge>
          </span>
        )}
        {entry.isDefault && <Badge>Default</Badge>}
      </div>
      <div className="flex min-w-0 items-center gap-2 text-sm text-slate-600">
        <span className="text-xs text-slate-500">{entry.xpub ? 'Key' : 'Address'}</span>
        <span className="min-w-0 font-mono break-all" title={target}>
          {shortenText(target, SHORTEN.address)}
        </span>
        <CopyButton text={target} label={`Copy ${entry.label}`} />
      </div>
      {entry.xpub && (
        <p className="text-xs text-slate-500">
          Each buy goes to a fresh address of this key. Its first address is{' '}
          <span className="font-mono break-all">{entry.proofAddress}</span>: check your wallet shows it.
        </p>
      )}
      <p className="text-xs text-slate-500" data-testid="address-book-usable">
        {entry.status === 'unconfirmed'
          ? 'Waiting for you to open the confirmation link we e-mailed you.'
          : entry.status === 'confirmed' && entry.usableAt
            ? `Confirmed. Usable from ${formatDateTime(entry.usableAt)}.`
            : entry.usableAt
              ? `Usable since ${formatDateTime(entry.usableAt)}.`
              : null}
      </p>
      <div className="flex flex-wrap gap-2">
        {entry.status === 'unconfirmed' && (
          <Button
            variant="ghost"
            size="sm"
            loading={resend.isPending}
            onClick={() =>
              resend.mutate(entry.id, {
                onSuccess: (answer) => toast.success(answer.message),
                onError: (failure) => toast.error(errorMessage(failure)),
              })
            }
          >
            Send the link again
          </Button>
        )}
        {!entry.proven && (
          <Button variant="ghost" size="sm" onClick={() => setProving(true)}>
            Prove ownership
          </Button>
        )}
        <Button
          variant="ghost"
          size="sm"
          onClick={() => setRemoving(true)}
          aria-label={`Remove ${entry.label}`}
        >
          Remove
        </Button>
      </div>
      <ProofModal entry={entry} open={proving} onClose={() => setProving(false)} />
      <RemoveModal entry={entry} open={removing} onClose={() => setRemoving(false)} />
    </li>
  );
}

function AddAddressModal({ open, onClose }: { open: boolean; onClose: () => void }) {
  const add = useAddPayoutAddress();
  const [label, setLabel] = useState('');
  const [target, setTarget] = useState('');
  const [errors, setErrors] = useState<{ label?: string; target?: string }>({});
  const formId = 'add-payout-address';

  function close() {
    setLabel('');
    setTarget('');
    setErrors({});
    onClose();
  }

  function submit(event: FormEvent) {
    event.preventDefault();
    const checkedLabel = payoutAddressLabelSchema.safeParse(label);
    const text = target.trim();
    const found = {
      label: checkedLabel.success ? undefined : checkedLabel.error.issues[0]?.message,
      target: text ? undefined : 'Enter a bitcoin address or an extended public key.',
    };
    setErrors(found);
    if (found.label || found.target || !checkedLabel.success) return;
    const body = looksLikeExtendedKey(text)
      ? { label: checkedLabel.data, xpub: text }
      : { label: checkedLabel.data, address: text };
    add.mutate(body, {
      onSuccess: (answer) => {
        toast.success(answer.message);
        close();
      },
      onError: (failure) => {
        const message = errorMessage(failure);
        const fieldError =
          failure instanceof ApiError
            ? (failure.errors?.address ?? failure.errors?.xpub ?? failure.errors?.label)
            : null;
        setErrors({ target: fieldError ?? message });
        toast.error(message);
      },
    });
  }

  return (
    <Modal
      open={open}
      onClose={close}
      dismissible={!add.isPending}
      title="Add payout address"
      description="We e-mail you a link to confirm it. Payouts go to it only after you confirm."
      footer={
        <>
          <Button variant="outline" onClick={close} disabled={add.isPending}>
            Cancel
          </Button>
          <Button type="submit" form={formId} loading={add.isPending}>
            Add address
          </Button>
        </>
      }
    >
      <form id={formId} onSubmit={submit} noValidate className="flex flex-col gap-4">
        <TextField
          label="Label"
          name="label"
          value={label}
          maxLength={50}
          placeholder="Hardware wallet"
          onChange={(event) => setLabel(event.target.value)}
          error={errors.label}
          data-autofocus
        />
        <TextField
          label="Bitcoin address or extended public key"
          name="payoutTarget"
          value={target}
          autoComplete="off"
          autoCapitalize="off"
          spellCheck={false}
          maxLength={200}
          inputClassName="font-mono text-sm!"
          onChange={(event) => setTarget(event.target.value)}
          error={errors.target}
          hint="An address, or your wallet's xpub, ypub or zpub (each buy then goes to a fresh address). Never a private key."
        />
      </form>
    </Modal>
  );
}

function ProofModal({ entry, open, onClose }: { entry: PayoutAddress; open: boolean; onClose: () => void }) {
  const session = useSession();
  const prove = useProveOwnership();
  const [signature, setSignature] = useState('');
  const [error, setError] = useState<string | null>(null);
  const message = ownershipProofMessage(session?.userId ?? '', entry.proofAddress);
  const formId = `prove-${entry.id}`;

  function submit(event: FormEvent) {
    event.preventDefault();
    if (!signature.trim()) {
      setError('Paste the signature your wallet made.');
      return;
    }
    prove.mutate(
      { id: entry.id, signature: signature.trim() },
      {
        onSuccess: (answer) => {
          toast.success(answer.message);
          setSignature('');
          setError(null);
          onClose();
        },
        onError: (failure) => setError(errorMessage(failure)),
      },
    );
  }

  return (
    <Modal
      open={open}
      onClose={onClose}
      dismissible={!prove.isPending}
      size="lg"
      title="Prove you own this address"
      description="Sign the message below in your wallet (Sign message, BIP-322) with this address, then paste the signature."
      footer={
        <>
          <Button variant="outline" onClick={onClose} disabled={prove.isPending}>
            Cancel
          </Button>
          <Button type="submit" form={formId} loading={prove.isPending}>
            Check signature
          </Button>
        </>
      }
    >
      <form id={formId} onSubmit={submit} noValidate className="flex flex-col gap-4">
        <div>
          <p className="text-sm font-medium text-slate-700">Address</p>
          <p className="mt-1 font-mono text-sm break-all text-ink-900">{entry.proofAddress}</p>
        </div>
        <div>
          <p className="text-sm font-medium text-slate-700">Message</p>
          <div className="mt-1 flex items-start gap-2">
            <p
              className="min-w-0 rounded-lg bg-slate-50 px-3 py-2 font-mono text-sm break-all text-ink-900"
              data-testid="proof-message"
            >
              {message}
            </p>
            <CopyButton text={message} label="Copy the message" />
          </div>
        </div>
        <TextField
          label="Signature"
          name="signature"
          value={signature}
          autoComplete="off"
          spellCheck={false}
          maxLength={4000}
          inputClassName="font-mono text-sm!"
          onChange={(event) => setSignature(event.target.value)}
          error={error}
          data-autofocus
        />
      </form>
    </Modal>
  );
}

function RemoveModal({ entry, open, onClose }: { entry: PayoutAddress; open: boolean; onClose: () => void }) {
  const remove = useRemovePayoutAddress();
  return (
    <Modal
      open={open}
      onClose={onClose}
      dismissible={!remove.isPending}
      size="sm"
      title={`Remove ${entry.label}?`}
      description="Buys that named this address will wait until you give support another one. We e-mail you about the change."
      footer={
        <>
          <Button variant="outline" onClick={onClose} disabled={remove.isPending}>
            Keep it
          </Button>
          <Button
            variant="danger"
            loading={remove.isPending}
            onClick={() =>
              remove.mutate(entry.id, {
                onSuccess: (answer) => {
                  toast.success(answer.message);
                  onClose();
                },
                onError: (failure) => toast.error(errorMessage(failure)),
              })
            }
          >
            Remove
          </Button>
        </>
      }
    >
      <p className="font-mono text-sm break-all text-slate-600">{entry.address ?? entry.xpub}</p>
    </Modal>
  );
}
