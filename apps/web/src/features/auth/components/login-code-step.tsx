import { toast } from '../../../lib/toast';
import { errorMessage } from '../../../lib/api-client';
import { sendLoginCode, useVerifyLoginCode } from '../api/login';
import { useCompleteSignIn } from '../use-complete-sign-in';
import { CodeEntryForm } from './code-entry-form';
import { toastResend } from './toast-resend';

/** Login step 2 ('OTP Verification'): the code from the e-mail opens a session. */
export function LoginCodeStep({ email, onChangeEmail }: { email: string; onChangeEmail: () => void }) {
  const verify = useVerifyLoginCode();
  const completeSignIn = useCompleteSignIn();
  return (
    <CodeEntryForm
      recipient={email}
      submitLabel="Log in"
      backLabel="Change email"
      onBack={onChangeEmail}
      pending={verify.isPending}
      onSubmitCode={(code) =>
        verify.mutate(
          { email, code },
          {
            onSuccess: (session) => {
              toast.success(session.message);
              completeSignIn(session);
            },
            onError: (failure) => toast.error(errorMessage(failure)),
          },
        )
      }
      onResend={() => toastResend(sendLoginCode(email))}
    />
  );
}
