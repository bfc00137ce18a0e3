import { toast } from '../../../lib/toast';
import { errorMessage } from '../../../lib/api-client';
import { useVerifyLoginMfa } from '../api/login';
import { useCompleteSignIn } from '../use-complete-sign-in';
import { CodeEntryForm } from './code-entry-form';
import { PasskeySecondFactorButton } from './passkey-sign-in';

/**
 * Login step 3, admins with two-factor authentication only: the code from their authenticator app.
 * Nothing is re-sent (the app makes a new code every 30 seconds): "resend" says so.
 */
export function LoginMfaStep({ mfaToken, onRestart }: { mfaToken: string; onRestart: () => void }) {
  const verify = useVerifyLoginMfa();
  const completeSignIn = useCompleteSignIn();
  return (
    <div className="space-y-5">
      <CodeEntryForm
        recipient="your authenticator app"
        sentByUs={false}
        submitLabel="Log in"
        backLabel="Start again"
        onBack={onRestart}
        pending={verify.isPending}
        onSubmitCode={(code) =>
          verify.mutate(
            { mfaToken, code },
            {
              onSuccess: (session) => {
                toast.success(session.message);
                completeSignIn(session);
              },
              onError: (failure) => toast.error(errorMessage(failure)),
            },
          )
        }
        onResend={() => {
          toast('Your authenticator app shows a new code every 30 seconds.');
          return Promise.resolve(true);
        }}
      />
      <PasskeySecondFactorButton mfaToken={mfaToken} />
    </div>
  );
}
