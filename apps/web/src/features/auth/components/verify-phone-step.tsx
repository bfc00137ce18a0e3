import { useState, type FormEvent } from 'react';
import toast from 'react-hot-toast';
import { OTP_MESSAGE, type SessionResponse } from '@offzero/shared/api/accounts';
import { errorMessage } from '../../../lib/api-client';
import { Button } from '../../../components/ui/button';
import { CodeField } from '../../../components/ui/code-field';
import { sendPhoneCode, useVerifyPhone } from '../api/phone-verification';
import { codeError, phoneError } from '../validation';
import { DemoCodeHint } from './demo-code-hint';
import { ResendCodeButton } from './resend-code-button';
import { toastResend } from './toast-resend';

/**
 * Registration step 4, and the second step of the dashboard's Verify Phone dialog: the SMS code. The
 * answer is a session (a new login at the end of registration).
 */
export function VerifyPhoneStep({
  email,
  phone,
  registrationToken,
  onVerified,
  onChangePhone,
  submitLabel = 'Verify phone',
}: {
  email: string;
  phone: string;
  registrationToken?: string;
  onVerified: (session: SessionResponse) => void;
  onChangePhone: () => void;
  submitLabel?: string;
}) {
  const [code, setCode] = useState('');
  const [error, setError] = useState<string | null>(null);
  const verify = useVerifyPhone();

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    // Spec section 5: this step checks the phone as well, and reports any problem as a missing code.
    const problem = phoneError(phone) ? OTP_MESSAGE : codeError(code);
    setError(problem);
    if (problem) {
      toast.error(problem);
      return;
    }
    verify.mutate(
      { email, phone, code: code.trim(), registrationToken },
      {
        onSuccess: (session) => {
          toast.success(session.message);
          onVerified(session);
        },
        onError: (failure) => toast.error(errorMessage(failure)),
      },
    );
  }

  return (
    <form noValidate onSubmit={submit} className="space-y-5">
      <CodeField
        value={code}
        onChange={(value) => {
          setCode(value);
          setError(null);
        }}
        error={error}
        autoFocus
      />
      <DemoCodeHint recipient={phone} />
      <Button type="submit" size="lg" fullWidth loading={verify.isPending}>
        {submitLabel}
      </Button>
      <div className="flex flex-wrap items-center justify-between gap-2">
        <button
          type="button"
          onClick={onChangePhone}
          className="rounded-full px-1 text-sm font-medium text-slate-600 underline-offset-2 hover:text-ink-900 hover:underline"
        >
          Change number
        </button>
        <ResendCodeButton onResend={() => toastResend(sendPhoneCode({ email, phone, registrationToken }))} />
      </div>
    </form>
  );
}
