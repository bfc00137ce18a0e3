import { useState, type FormEvent } from 'react';
import toast from 'react-hot-toast';
import { errorMessage } from '../../../lib/api-client';
import { Button } from '../../../components/ui/button';
import { CodeField } from '../../../components/ui/code-field';
import { resendRegistrationCode, useVerifyRegistrationEmail } from '../api/registration';
import { codeError } from '../validation';
import { DemoCodeHint } from './demo-code-hint';
import { ResendCodeButton } from './resend-code-button';
import { toastResend } from './toast-resend';

/** Registration step 2: the code from the e-mail. Verifying it creates the account. */
export function VerifyEmailStep({
  email,
  referralCode,
  onVerified,
  onChangeEmail,
}: {
  email: string;
  referralCode: string;
  onVerified: (registrationToken: string) => void;
  onChangeEmail: () => void;
}) {
  const [code, setCode] = useState('');
  const [error, setError] = useState<string | null>(null);
  const verify = useVerifyRegistrationEmail();

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const problem = codeError(code);
    setError(problem);
    if (problem) {
      toast.error(problem);
      return;
    }
    verify.mutate(
      { email, code: code.trim(), referralCode },
      {
        onSuccess: (answer) => {
          toast.success(answer.message);
          onVerified(answer.registrationToken);
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
      <DemoCodeHint recipient={email} />
      <Button type="submit" size="lg" fullWidth loading={verify.isPending}>
        Verify email
      </Button>
      <div className="flex flex-wrap items-center justify-between gap-2">
        <button
          type="button"
          onClick={onChangeEmail}
          className="rounded-full px-1 text-sm font-medium text-slate-600 underline-offset-2 hover:text-ink-900 hover:underline"
        >
          Change email
        </button>
        <ResendCodeButton onResend={() => toastResend(resendRegistrationCode(email))} />
      </div>
    </form>
  );
}
