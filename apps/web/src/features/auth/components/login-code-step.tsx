import { useState, type FormEvent } from 'react';
import toast from 'react-hot-toast';
import { errorMessage } from '../../../lib/api-client';
import { Button } from '../../../components/ui/button';
import { CodeField } from '../../../components/ui/code-field';
import { sendLoginCode, useVerifyLoginCode } from '../api/login';
import { codeError } from '../validation';
import { useCompleteSignIn } from '../use-complete-sign-in';
import { DemoCodeHint } from './demo-code-hint';
import { ResendCodeButton } from './resend-code-button';
import { toastResend } from './toast-resend';

/** Login step 2 ('OTP Verification'): the code from the e-mail opens a session. */
export function LoginCodeStep({ email, onChangeEmail }: { email: string; onChangeEmail: () => void }) {
  const [code, setCode] = useState('');
  const [error, setError] = useState<string | null>(null);
  const verify = useVerifyLoginCode();
  const completeSignIn = useCompleteSignIn();

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const problem = codeError(code);
    setError(problem);
    if (problem) {
      toast.error(problem);
      return;
    }
    verify.mutate(
      { email, code: code.trim() },
      {
        onSuccess: (session) => {
          toast.success(session.message);
          completeSignIn(session);
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
        Log in
      </Button>
      <div className="flex flex-wrap items-center justify-between gap-2">
        <button
          type="button"
          onClick={onChangeEmail}
          className="rounded-full px-1 text-sm font-medium text-slate-600 underline-offset-2 hover:text-ink-900 hover:underline"
        >
          Change email
        </button>
        <ResendCodeButton onResend={() => toastResend(sendLoginCode(email))} />
      </div>
    </form>
  );
}
