import { useState, type FormEvent } from 'react';
import { RECOVERY_PAYOUT_HOLD_HOURS } from '@offzero/shared/api/passkeys';
import { errorMessage } from '../../../lib/api-client';
import { toast } from '../../../lib/toast';
import { Button } from '../../../components/ui/button';
import { TextField } from '../../../components/ui/text-field';
import { useCompleteRecovery, useSendRecoveryCodes } from '../api/passkeys';

/**
 * "Lost your passkeys?": a code to the e-mail and one to the phone remove every passkey; new payout
 * addresses then wait 48 hours (docs/design.md, "Passkeys").
 */
export function PasskeyRecovery() {
  const send = useSendRecoveryCodes();
  const complete = useCompleteRecovery();
  const [open, setOpen] = useState(false);
  const [emailCode, setEmailCode] = useState('');
  const [smsCode, setSmsCode] = useState('');
  const [problem, setProblem] = useState<string | null>(null);
  if (!open) {
    return (
      <button
        type="button"
        className="self-start text-sm font-semibold text-brand-700 hover:underline"
        onClick={() => setOpen(true)}
      >
        Lost your passkeys?
      </button>
    );
  }
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!/^\d{6}$/.test(emailCode.trim()) || !/^\d{6}$/.test(smsCode.trim())) {
      setProblem('Enter both 6-digit codes: the one we e-mailed and the one we texted.');
      return;
    }
    setProblem(null);
    complete.mutate(
      { emailCode: emailCode.trim(), smsCode: smsCode.trim() },
      {
        onSuccess: (answer) => {
          toast.success(answer.message);
          setOpen(false);
        },
        onError: (error) => setProblem(errorMessage(error)),
      },
    );
  };
  return (
    <div className="rounded-xl bg-slate-50 p-4 ring-1 ring-slate-200" data-testid="passkey-recovery">
      <p className="text-sm text-slate-700">
        We send a code to your e-mail and one to your phone. With both, we remove your passkeys. For your
        safety, new payout addresses then wait {RECOVERY_PAYOUT_HOLD_HOURS} hours before they receive payouts.
      </p>
      <div className="mt-3">
        <Button
          size="sm"
          variant="outline"
          loading={send.isPending}
          onClick={() =>
            send.mutate(undefined, {
              onSuccess: (answer) => toast.success(answer.message),
              onError: (error) => toast.error(errorMessage(error)),
            })
          }
        >
          Send codes
        </Button>
      </div>
      <form noValidate onSubmit={submit} className="mt-4 grid gap-3 sm:grid-cols-2">
        <TextField
          label="Code from your e-mail"
          inputMode="numeric"
          autoComplete="one-time-code"
          value={emailCode}
          onChange={(event) => setEmailCode(event.target.value)}
        />
        <TextField
          label="Code from your phone"
          inputMode="numeric"
          autoComplete="one-time-code"
          value={smsCode}
          onChange={(event) => setSmsCode(event.target.value)}
        />
        {problem && (
          <p role="alert" className="text-sm text-red-700 sm:col-span-2">
            {problem}
          </p>
        )}
        <div className="flex gap-2 sm:col-span-2">
          <Button type="submit" size="sm" variant="danger" loading={complete.isPending}>
            Remove my passkeys
          </Button>
          <Button type="button" size="sm" variant="ghost" onClick={() => setOpen(false)}>
            Cancel
          </Button>
        </div>
      </form>
    </div>
  );
}
