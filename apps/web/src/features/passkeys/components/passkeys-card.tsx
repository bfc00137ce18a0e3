import { useState, type FormEvent } from 'react';
import { passkeyNameSchema, RECOVERY_PAYOUT_HOLD_HOURS, type Passkey } from '@offzero/shared/api/passkeys';
import { errorMessage } from '../../../lib/api-client';
import { formatDateTime } from '../../../lib/format';
import { toast } from '../../../lib/toast';
import { Badge } from '../../../components/ui/badge';
import { Button } from '../../../components/ui/button';
import { SettingsCard } from '../../../components/ui/settings-card';
import { TextField } from '../../../components/ui/text-field';
import { useAddPasskey, usePasskeys, useRemovePasskey, useRenamePasskey } from '../api/passkeys';
import { PasskeyRecovery } from './passkey-recovery';

/** The browser's passkey dialog was closed or refused: a short note, not an error page. */
export function passkeyProblem(error: unknown): string {
  if (error instanceof Error && (error.name === 'NotAllowedError' || error.name === 'AbortError')) {
    return 'No passkey was used. Try again when you are ready.';
  }
  return errorMessage(error);
}

/**
 * Settings → Passkeys (docs/design.md, "Passkeys"): add a passkey with a name, rename or remove one,
 * and recover without one. With a passkey, every change of where money goes asks for it.
 */
export function PasskeysCard() {
  const list = usePasskeys();
  const passkeys = list.data?.passkeys ?? [];
  const holdUntil = list.data?.payoutHoldUntil ?? null;
  return (
    <SettingsCard
      title="Passkeys"
      description="Sign in with your fingerprint, face or device PIN. With a passkey, every change to where your money goes is confirmed with it."
      testId="passkeys-card"
    >
      <div className="flex flex-col gap-4">
        {holdUntil && (
          <p
            role="status"
            className="rounded-xl bg-amber-50 p-3 text-sm text-amber-900 ring-1 ring-amber-600/20"
          >
            Your account was recovered without a passkey. New payout addresses can receive payouts from{' '}
            {formatDateTime(holdUntil)} ({RECOVERY_PAYOUT_HOLD_HOURS} hours after the recovery).
          </p>
        )}
        {list.isPending ? (
          <p className="text-sm text-slate-500">Loading your passkeys…</p>
        ) : list.isError ? (
          <div className="flex flex-col items-start gap-2 text-sm text-slate-600">
            <p>Your passkeys are not available right now.</p>
            <Button variant="outline" size="sm" onClick={() => void list.refetch()}>
              Try again
            </Button>
          </div>
        ) : passkeys.length === 0 ? (
          <p className="text-sm text-slate-500">No passkeys yet.</p>
        ) : (
          <ul className="divide-y divide-slate-100" data-testid="passkey-list">
            {passkeys.map((passkey) => (
              <PasskeyEntry key={passkey.id} passkey={passkey} />
            ))}
          </ul>
        )}
        <AddPasskeyForm />
        {passkeys.length > 0 && <PasskeyRecovery />}
      </div>
    </SettingsCard>
  );
}

function AddPasskeyForm() {
  const add = useAddPasskey();
  const [name, setName] = useState('');
  const [problem, setProblem] = useState<string | null>(null);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const parsed = passkeyNameSchema.safeParse(name);
    if (!parsed.success) {
      setProblem(parsed.error.issues[0]?.message ?? 'Give the passkey a name.');
      return;
    }
    setProblem(null);
    add.mutate(parsed.data, {
      onSuccess: (answer) => {
        toast.success(answer.message);
        setName('');
      },
      onError: (error) => toast.error(passkeyProblem(error)),
    });
  };
  return (
    <form noValidate onSubmit={submit} className="flex flex-col gap-3 sm:flex-row sm:items-end">
      <div className="flex-1">
        <TextField
          label="Passkey name"
          placeholder="My phone"
          value={name}
          onChange={(event) => setName(event.target.value)}
          error={problem}
          maxLength={60}
        />
      </div>
      <Button type="submit" variant="outline" loading={add.isPending}>
        Add passkey
      </Button>
    </form>
  );
}

function PasskeyEntry({ passkey }: { passkey: Passkey }) {
  const rename = useRenamePasskey();
  const remove = useRemovePasskey();
  const [editing, setEditing] = useState(false);
  const [name, setName] = useState(passkey.name);
  const [problem, setProblem] = useState<string | null>(null);
  const saveName = (event: FormEvent) => {
    event.preventDefault();
    const parsed = passkeyNameSchema.safeParse(name);
    if (!parsed.success) {
      setProblem(parsed.error.issues[0]?.message ?? 'Give the passkey a name.');
      return;
    }
    rename.mutate(
      { id: passkey.id, name: parsed.data },
      {
        onSuccess: (answer) => {
          toast.success(answer.message);
          setEditing(false);
        },
        onError: (error) => setProblem(errorMessage(error)),
      },
    );
  };
  return (
    <li className="flex flex-col gap-2 py-3 first:pt-0 last:pb-0" data-testid="passkey-entry">
      {editing ? (
        <form noValidate onSubmit={saveName} className="flex flex-col gap-2 sm:flex-row sm:items-end">
          <div className="flex-1">
            <TextField
              label="New name"
              value={name}
              onChange={(event) => setName(event.target.value)}
              error={problem}
              maxLength={60}
              autoFocus
            />
          </div>
          <div className="flex gap-2">
            <Button type="submit" size="sm" loading={rename.isPending}>
              Save
            </Button>
            <Button type="button" size="sm" variant="ghost" onClick={() => setEditing(false)}>
              Cancel
            </Button>
          </div>
        </form>
      ) : (
        <div className="flex flex-wrap items-center gap-2">
          <span className="min-w-0 font-medium break-words text-ink-900">{passkey.name}</span>
          {passkey.backedUp && <Badge tone="success">Synced</Badge>}
        </div>
      )}
      <p className="text-xs text-slate-500">
        Added {formatDateTime(passkey.createdAt)}
        {passkey.lastUsedAt ? ` · last used ${formatDateTime(passkey.lastUsedAt)}` : ' · not used yet'}
      </p>
      {!editing && (
        <div className="flex flex-wrap gap-2">
          <Button
            size="sm"
            variant="ghost"
            onClick={() => setEditing(true)}
            aria-label={`Rename ${passkey.name}`}
          >
            Rename
          </Button>
          <Button
            size="sm"
            variant="ghost"
            loading={remove.isPending}
            aria-label={`Remove ${passkey.name}`}
            onClick={() =>
              remove.mutate(passkey.id, {
                onSuccess: (answer) => toast.success(answer.message),
                onError: (error) => toast.error(passkeyProblem(error)),
              })
            }
          >
            Remove
          </Button>
        </div>
      )}
    </li>
  );
}
